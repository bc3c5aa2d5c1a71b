//! Simulated Docker containers of the two nodes, as `talosctl cluster create docker` makes them:
//! what `docker inspect` prints for them and what `docker exec` does in them (Talos has no
//! shell and no other binary an exec could start).

use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::kube_api::stable_hex;
use crate::util::stable_hash;

/// The Docker network the nodes are attached to.
pub const NETWORK: &str = "talos-default";
/// The gateway of the Docker network.
pub const GATEWAY: &str = "10.5.0.1";
/// The Talos container image.
pub const IMAGE: &str = "ghcr.io/siderolabs/talos:v1.13.10";

/// A simulated Docker container running a Talos node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Container {
    /// Container name (`talos-default-controlplane-1`, `talos-default-worker-1`).
    pub name: String,
    /// Hostname inside the container (the container name).
    pub hostname: String,
    /// The Docker network (`talos-default`).
    pub network: String,
    /// The address on that network (`10.5.0.2`, `10.5.0.3`).
    pub ip: IpAddr,
    /// Docker's `State.StartedAt`: RFC 3339 in UTC with nanoseconds (`2026-12-02T17:25:49.123456789Z`).
    pub started_at: String,
    /// Docker's `RestartCount`.
    pub restart_count: u64,
    /// The `talos.type` label (`controlplane`, `worker`).
    pub talos_type: String,
}

/// What `docker exec` returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecOutput {
    /// The exit code of `docker exec`.
    pub exit_code: i32,
    /// What it wrote to standard output.
    pub stdout: Vec<u8>,
    /// What it wrote to standard error.
    pub stderr: Vec<u8>,
}

impl Container {
    /// The text `docker inspect <name>` prints for this container: a JSON array holding one
    /// object in Docker's shape (a subset of its fields, Docker's names), indented with four
    /// spaces, with a final newline. The environment holds no `USERDATA` (it would carry the
    /// machine config's secrets).
    pub fn inspect_json(&self) -> String {
        let id = stable_hex(&[&self.name, &self.started_at, "id"], 64);
        let image_id = format!("sha256:{}", stable_hex(&[IMAGE, "image"], 64));
        let value = json!([{
            "Id": id,
            "Created": self.started_at,
            "Path": "/sbin/init",
            "Args": [],
            "State": self.state_json(),
            "Image": image_id,
            "Name": format!("/{}", self.name),
            "RestartCount": self.restart_count,
            "Driver": "overlay2",
            "Platform": "linux",
            "HostConfig": self.host_config_json(),
            "Config": self.config_json(),
            "NetworkSettings": self.network_settings_json(&id),
        }]);
        pretty_json(&value)
    }

    /// `State`: running since `started_at`, with a pid stable for this start.
    fn state_json(&self) -> serde_json::Value {
        let pid = 1000 + stable_hash(&[&self.name, &self.started_at, "pid"]) % 60_000;
        json!({
            "Status": "running",
            "Running": true,
            "Paused": false,
            "Restarting": false,
            "OOMKilled": false,
            "Dead": false,
            "Pid": pid,
            "ExitCode": 0,
            "Error": "",
            "StartedAt": self.started_at,
            "FinishedAt": "0001-01-01T00:00:00Z",
        })
    }

    /// `HostConfig`: privileged on the cluster's network, as `talosctl cluster create` runs it.
    fn host_config_json(&self) -> serde_json::Value {
        json!({
            "NetworkMode": self.network,
            "RestartPolicy": {"Name": "", "MaximumRetryCount": 0},
            "Privileged": true,
            "ReadonlyRootfs": true,
            "SecurityOpt": ["seccomp:unconfined"],
        })
    }

    /// `Config`: the image, its entrypoint, the environment (no `USERDATA`) and Talos's labels.
    fn config_json(&self) -> serde_json::Value {
        json!({
            "Hostname": self.hostname,
            "Domainname": "",
            "User": "",
            "Tty": false,
            "Env": ["PLATFORM=container", "TALOSSKU=2CPU-2048RAM"],
            "Cmd": null,
            "Image": IMAGE,
            "WorkingDir": "/",
            "Entrypoint": ["/sbin/init"],
            "Labels": {
                "talos.cluster.name": NETWORK,
                "talos.owned": "true",
                "talos.type": self.talos_type,
            },
        })
    }

    /// `NetworkSettings`: the one network, its address and the container's DNS names (its name
    /// and short id).
    fn network_settings_json(&self, id: &str) -> serde_json::Value {
        json!({
            "Networks": {
                self.network.clone(): {
                    "IPAMConfig": {"IPv4Address": self.ip.to_string()},
                    "Links": null,
                    "Aliases": null,
                    "MacAddress": self.mac_address(),
                    "DriverOpts": null,
                    "NetworkID": stable_hex(&[&self.network, "network"], 64),
                    "EndpointID": stable_hex(&[&self.name, &self.started_at, "endpoint"], 64),
                    "Gateway": GATEWAY,
                    "IPAddress": self.ip.to_string(),
                    "IPPrefixLen": 24,
                    "IPv6Gateway": "",
                    "GlobalIPv6Address": "",
                    "GlobalIPv6PrefixLen": 0,
                    "DNSNames": [self.name, &id[..12]],
                },
            },
        })
    }

    /// Docker's MAC address for an IPv4 address: `02:42` and the address's four octets.
    fn mac_address(&self) -> String {
        match self.ip {
            IpAddr::V4(v4) => {
                let o = v4.octets();
                format!("02:42:{:02x}:{:02x}:{:02x}:{:02x}", o[0], o[1], o[2], o[3])
            }
            IpAddr::V6(_) => "02:42:00:00:00:00".to_string(),
        }
    }

    /// `docker exec <name> <argv...>`. Talos ships no shell and no other binary an exec could
    /// start, so every command fails as with Docker Engine ≥ 28: exit code 127 and, on **stdout**
    /// (Docker writes it to the exec stream's stdout), `OCI runtime exec failed: exec failed:
    /// unable to start container process: exec: "<argv0>": executable file not found in $PATH:
    /// unknown\r\n` (for a path, `exec: "<path>": stat <path>: no such file or directory`).
    /// An empty `argv` is the CLI's usage error: exit code 1 and on stderr `docker: 'docker
    /// exec' requires at least 2 arguments` with the usage text.
    pub fn exec(&self, argv: &[&str]) -> ExecOutput {
        let Some(argv0) = argv.first() else {
            return ExecOutput {
                exit_code: 1,
                stdout: Vec::new(),
                stderr: b"docker: 'docker exec' requires at least 2 arguments\n\nUsage:  docker exec [OPTIONS] CONTAINER COMMAND [ARG...]\n\nSee 'docker exec --help' for more information\n".to_vec(),
            };
        };
        let quoted = talos_go::quote(argv0);
        let cause = if argv0.contains('/') {
            format!("exec: {quoted}: stat {argv0}: no such file or directory")
        } else {
            format!("exec: {quoted}: executable file not found in $PATH")
        };
        ExecOutput {
            exit_code: 127,
            stdout: format!(
                "OCI runtime exec failed: exec failed: unable to start container process: {cause}: unknown\r\n"
            )
            .into_bytes(),
            stderr: Vec::new(),
        }
    }
}

/// Docker's JSON layout: four-space indent and a final newline (`[]` if it cannot be written).
fn pretty_json(value: &serde_json::Value) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    if serde::Serialize::serialize(value, &mut ser).is_err() {
        return "[]\n".to_string();
    }
    out.push(b'\n');
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker() -> Container {
        Container {
            name: "talos-default-worker-1".into(),
            hostname: "talos-default-worker-1".into(),
            network: NETWORK.into(),
            ip: IpAddr::from([10, 5, 0, 3]),
            started_at: "2026-12-02T17:25:49.123456789Z".into(),
            restart_count: 0,
            talos_type: "worker".into(),
        }
    }

    #[test]
    fn exec_has_no_shell() {
        let out = worker().exec(&["sh"]);
        assert_eq!(out.exit_code, 127);
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown\r\n"
        );
        assert!(out.stderr.is_empty());
        let out = worker().exec(&["/bin/sh", "-c", "true"]);
        assert_eq!(out.exit_code, 127);
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "OCI runtime exec failed: exec failed: unable to start container process: exec: \"/bin/sh\": stat /bin/sh: no such file or directory: unknown\r\n"
        );
        let out = worker().exec(&[]);
        assert_eq!(out.exit_code, 1);
        assert!(out.stdout.is_empty());
        assert!(
            String::from_utf8(out.stderr).unwrap().starts_with("docker: 'docker exec' requires at least 2 arguments\n")
        );
    }

    #[test]
    fn inspect_shape() {
        let c = worker();
        let text = c.inspect_json();
        assert!(text.starts_with("[\n    {\n        \"Id\": \""), "{text}");
        assert!(text.ends_with("}\n]\n"));
        assert_eq!(text, c.inspect_json(), "stable");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let o = &v[0];
        assert_eq!(o["Id"].as_str().unwrap().len(), 64);
        assert!(o["Id"].as_str().unwrap().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(o["Name"], "/talos-default-worker-1");
        assert_eq!(o["State"]["Status"], "running");
        assert_eq!(o["State"]["StartedAt"], "2026-12-02T17:25:49.123456789Z");
        assert_eq!(o["RestartCount"], 0);
        assert_eq!(o["Config"]["Labels"]["talos.type"], "worker");
        assert_eq!(o["Config"]["Env"], json!(["PLATFORM=container", "TALOSSKU=2CPU-2048RAM"]));
        let net = &o["NetworkSettings"]["Networks"]["talos-default"];
        assert_eq!(net["IPAddress"], "10.5.0.3");
        assert_eq!(net["Gateway"], "10.5.0.1");
        assert_eq!(net["IPPrefixLen"], 24);
        assert_eq!(net["MacAddress"], "02:42:0a:05:00:03");
        assert!(!text.contains("USERDATA"));
    }
}
