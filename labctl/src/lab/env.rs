//! Where the lab's answers come from: the Talos API (always `talos-client`), the containers (the `docker` CLI, or
//! the simulator's containers), TCP port probes (the node IP, or the simulator's loopback mapping of it) and the
//! Kubernetes API (kube-rs with the kubeconfig fetched in step 4, in both cases).

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, ListParams};
use serde_json::Value;
use talos_client::{Client, ClientOptions, Talosconfig};
use talos_sim::{Container, PortMapping};

use super::LabError;
use crate::i18n::tr;

/// The control plane container (`talosctl cluster create docker`'s name).
pub const CONTROLPLANE_CONTAINER: &str = "talos-default-controlplane-1";
/// The worker container.
pub const WORKER_CONTAINER: &str = "talos-default-worker-1";
/// The Docker network of the cluster.
pub const NETWORK: &str = "talos-default";
/// The service step 8 breaks and repairs.
pub const KUBELET_SERVICE: &str = "kubelet";
/// The state of a service that is up.
pub const RUNNING_STATE: &str = "Running";

/// What `docker exec` gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecResult {
    /// The exit code.
    pub exit_code: i64,
    /// Standard output and error, in that order.
    pub output: String,
}

impl ExecResult {
    /// The first non-empty line of the output, without its line end (Docker ends it with `\r\n`).
    pub fn first_line(&self) -> String {
        self.output.lines().map(|l| l.trim_end_matches('\r')).find(|l| !l.trim().is_empty()).unwrap_or("").to_string()
    }
}

/// What `docker inspect` tells about a container, as the lab uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inspect {
    /// The address on the `talos-default` network.
    pub ip: String,
    /// `State.StartedAt`.
    pub started_at: String,
    /// `RestartCount`.
    pub restart_count: u64,
}

impl Inspect {
    /// Reads `docker inspect <name>`'s JSON (an array with one object).
    pub fn parse(name: &str, json: &str) -> Result<Inspect, LabError> {
        let bad = |what: &str| LabError::new(format!("docker inspect {name}: {what}"));
        let value: Value = serde_json::from_str(json).map_err(|e| bad(&tr!("env-not-json", error = e.to_string())))?;
        let c = value.as_array().and_then(|a| a.first()).ok_or_else(|| bad(&tr!("env-no-such-container")))?;
        let ip = c
            .pointer(&format!("/NetworkSettings/Networks/{NETWORK}/IPAddress"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| bad(&tr!("env-no-address", network = NETWORK)))?;
        let no_field = |field: &str| bad(&tr!("env-no-field", field = field));
        let started_at =
            c.pointer("/State/StartedAt").and_then(Value::as_str).ok_or_else(|| no_field("State.StartedAt"))?;
        let restart_count = c.get("RestartCount").and_then(Value::as_u64).ok_or_else(|| no_field("RestartCount"))?;
        Ok(Inspect { ip: ip.to_string(), started_at: started_at.to_string(), restart_count })
    }
}

/// The container runtime: the real `docker` CLI or the simulator's containers.
#[derive(Clone, Debug)]
pub enum Containers {
    /// The `docker` program (found on `PATH` unless a path is given).
    Docker {
        /// The program.
        program: PathBuf,
    },
    /// The simulator's containers.
    Simulated(Vec<Container>),
}

impl Containers {
    fn simulated(&self, name: &str) -> Result<&Container, LabError> {
        match self {
            Containers::Simulated(list) => list.iter().find(|c| c.name == name).ok_or_else(|| {
                LabError::new(format!("Error response from daemon: No such container: {name} (simulated cluster)"))
            }),
            Containers::Docker { .. } => Err(LabError::new(tr!("env-not-simulated"))),
        }
    }

    /// `docker exec <name> <argv...>`: its exit code and output. A Docker that cannot be run is an error.
    pub async fn exec(&self, name: &str, argv: &[&str], timeout: Duration) -> Result<ExecResult, LabError> {
        match self {
            Containers::Docker { program } => {
                let mut args = vec!["exec", name];
                args.extend_from_slice(argv);
                let out = run_docker(program, &args, timeout).await?;
                let code = out.status.code().map(i64::from).unwrap_or(-1);
                let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
                output.push_str(&String::from_utf8_lossy(&out.stderr));
                Ok(ExecResult { exit_code: code, output })
            }
            Containers::Simulated(_) => {
                let out = self.simulated(name)?.exec(argv);
                let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
                output.push_str(&String::from_utf8_lossy(&out.stderr));
                Ok(ExecResult { exit_code: i64::from(out.exit_code), output })
            }
        }
    }

    /// `docker inspect <name>`.
    pub async fn inspect(&self, name: &str, timeout: Duration) -> Result<Inspect, LabError> {
        let json = match self {
            Containers::Docker { program } => {
                let out = run_docker(program, &["inspect", name], timeout).await?;
                if !out.status.success() {
                    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
                    return Err(LabError::new(tr!("env-inspect-failed", name = name, error = err)));
                }
                String::from_utf8_lossy(&out.stdout).into_owned()
            }
            Containers::Simulated(_) => self.simulated(name)?.inspect_json(),
        };
        Inspect::parse(name, &json)
    }
}

async fn run_docker(program: &Path, args: &[&str], timeout: Duration) -> Result<std::process::Output, LabError> {
    let shown = format!("{} {}", program.display(), args.join(" "));
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args).stdin(std::process::Stdio::null()).kill_on_drop(true);
    match tokio::time::timeout(timeout, cmd.output()).await {
        Err(_) => Err(LabError::new(tr!("env-docker-timeout", command = shown, limit = super::wait::human(timeout)))),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(LabError::new(tr!("env-docker-not-found", command = shown, program = program.display().to_string())))
        }
        Ok(Err(e)) => Err(LabError::new(tr!("env-docker-failed", command = shown, error = e.to_string()))),
        Ok(Ok(out)) => Ok(out),
    }
}

/// How TCP ports of a node IP are reached.
#[derive(Clone, Debug)]
pub enum Ports {
    /// Connect to the node IP itself (the lab VM).
    Direct,
    /// The simulator's loopback stand-ins; a port it does not map counts as closed.
    Mapped(Vec<PortMapping>),
}

impl Ports {
    /// Whether a TCP connection to `ip:port` is accepted within `timeout` (refused, unreachable or timed out: no).
    pub async fn probe(&self, ip: IpAddr, port: u16, timeout: Duration) -> bool {
        let addr = match self {
            Ports::Direct => SocketAddr::new(ip, port),
            Ports::Mapped(map) => match map.iter().find(|m| m.node == ip && m.port == port) {
                Some(m) => m.endpoint,
                None => return false,
            },
        };
        matches!(tokio::time::timeout(timeout, tokio::net::TcpStream::connect(addr)).await, Ok(Ok(_)))
    }
}

/// Everything a run talks to.
pub struct Env {
    /// The Talos API.
    pub talos: Client,
    /// The containers.
    pub containers: Containers,
    /// Port probes.
    pub ports: Ports,
    /// The control plane's address (`10.5.0.2`).
    pub controlplane: String,
    /// The worker's address (`10.5.0.3`).
    pub worker: String,
    /// Limit of one TCP probe or Docker command.
    pub probe_timeout: Duration,
}

/// Client options for the lab: short connect limit so that an unreachable endpoint fails fast.
pub fn client_options() -> ClientOptions {
    ClientOptions { context: None, connect_timeout: Duration::from_secs(10), call_timeout: Duration::from_secs(30) }
}

/// Connects to the Talos API with a talosconfig.
pub async fn connect(config: &Talosconfig) -> Result<Client, LabError> {
    Client::connect(config, client_options())
        .await
        .map_err(|e| LabError::new(tr!("env-unreachable", error = e.to_string())).note(tr!("env-unreachable-hint")))
}

/// Loads a talosconfig file (`--talosconfig`, else `$TALOSCONFIG`, else `~/.talos/config`).
pub fn load_talosconfig(path: Option<&Path>) -> Result<Talosconfig, LabError> {
    Talosconfig::load(path)
        .map_err(|e| LabError::new(tr!("env-talosconfig", error = e.to_string())).note(tr!("env-talosconfig-hint")))
}

/// A Kubernetes client from a kubeconfig file.
pub async fn kube_client(kubeconfig: &Path) -> Result<kube::Client, LabError> {
    let bad = |e: &dyn std::fmt::Display| {
        LabError::new(tr!("env-kubeconfig", path = kubeconfig.display().to_string(), error = e.to_string()))
    };
    let file = kube::config::Kubeconfig::read_from(kubeconfig).map_err(|e| bad(&e))?;
    let mut config = kube::Config::from_custom_kubeconfig(file, &kube::config::KubeConfigOptions::default())
        .await
        .map_err(|e| bad(&e))?;
    config.connect_timeout = Some(Duration::from_secs(10));
    config.read_timeout = Some(Duration::from_secs(30));
    kube::Client::try_from(config).map_err(|e| bad(&e))
}

/// What the lab reads of a Kubernetes Node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    /// The node name.
    pub name: String,
    /// Its labels.
    pub labels: std::collections::BTreeMap<String, String>,
    /// Its InternalIP.
    pub internal_ip: Option<String>,
    /// `status.nodeInfo.kubeletVersion`.
    pub kubelet_version: String,
    /// The `Ready` condition is `True`.
    pub ready: bool,
}

impl NodeView {
    fn from_node(n: &Node) -> NodeView {
        let status = n.status.as_ref();
        let internal_ip = status
            .and_then(|s| s.addresses.as_ref())
            .and_then(|a| a.iter().find(|a| a.type_ == "InternalIP"))
            .map(|a| a.address.clone());
        let kubelet_version =
            status.and_then(|s| s.node_info.as_ref()).map(|i| i.kubelet_version.clone()).unwrap_or_default();
        let ready = status
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
            .is_some_and(|c| c.status == "True");
        NodeView {
            name: n.metadata.name.clone().unwrap_or_default(),
            labels: n.metadata.labels.clone().unwrap_or_default(),
            internal_ip,
            kubelet_version,
            ready,
        }
    }
}

/// Lists the Kubernetes Nodes, sorted by name.
pub async fn list_nodes(kube: &kube::Client) -> Result<Vec<NodeView>, LabError> {
    let api: Api<Node> = Api::all(kube.clone());
    let list = api.list(&ListParams::default()).await.map_err(|e| LabError::new(format!("kubectl get nodes: {e}")))?;
    let mut nodes: Vec<NodeView> = list.items.iter().map(NodeView::from_node).collect();
    nodes.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts of `docker inspect talos-default-worker-1` (Docker 28) the lab reads, in Docker's own layout.
    const INSPECT: &str = r#"[
    {
        "Id": "4f2d0c3e9a8b",
        "Created": "2026-12-02T09:00:00.000000000Z",
        "State": {
            "Status": "running",
            "Running": true,
            "StartedAt": "2026-12-02T09:00:01.123456789Z",
            "FinishedAt": "0001-01-01T00:00:00Z"
        },
        "Name": "/talos-default-worker-1",
        "RestartCount": 0,
        "NetworkSettings": {
            "Networks": {
                "talos-default": {
                    "Gateway": "10.5.0.1",
                    "IPAddress": "10.5.0.3",
                    "IPPrefixLen": 24
                }
            }
        }
    }
]
"#;

    #[test]
    fn reads_docker_inspect() {
        assert_eq!(
            Inspect::parse("talos-default-worker-1", INSPECT),
            Ok(Inspect {
                ip: "10.5.0.3".into(),
                started_at: "2026-12-02T09:00:01.123456789Z".into(),
                restart_count: 0
            })
        );
    }

    #[test]
    fn docker_inspect_problems_are_named() {
        let err = |json: &str| Inspect::parse("c", json).map_err(|e| e.message);
        assert_eq!(err("[]"), Err("docker inspect c: no such container".into()));
        assert_eq!(err("nope"), Err("docker inspect c: not JSON: expected ident at line 1 column 2".into()));
        assert_eq!(
            err(&INSPECT.replace("talos-default\"", "bridge\"")),
            Err("docker inspect c: the container has no address on the network talos-default".into())
        );
    }

    #[test]
    fn the_exec_error_line_is_the_first_line_without_its_crlf() {
        let r = ExecResult {
            exit_code: 127,
            output: "OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": \
                     executable file not found in $PATH: unknown\r\n"
                .into(),
        };
        assert_eq!(
            r.first_line(),
            "OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file \
             not found in $PATH: unknown"
        );
        assert_eq!(ExecResult { exit_code: 0, output: "\n\n".into() }.first_line(), "");
    }

    /// The stand-in tests write an executable and run it: one at a time, so that no test forks while another's
    /// script is still open for writing (which makes running it fail with "Text file busy").
    #[cfg(unix)]
    static FAKE_DOCKER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

    /// A stand-in `docker` program: answers like Docker 28 for the lab's two containers and records its arguments.
    #[cfg(unix)]
    fn fake_docker(dir: &Path) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(dir.join("inspect.json"), INSPECT).unwrap();
        let script = format!(
            r#"#!/bin/sh
echo "$@" >> '{dir}/args'
case "$1 $2 $3" in
  "exec talos-default-controlplane-1 sh")
    printf 'OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown\r\n'
    exit 127 ;;
  "inspect talos-default-worker-1 ")
    cat '{dir}/inspect.json' ;;
  "inspect slow ")
    sleep 5 ;;
  *)
    echo "Error response from daemon: No such container: $2" >&2
    exit 1 ;;
esac
"#,
            dir = dir.display()
        );
        let program = dir.join("docker");
        std::fs::write(&program, script).unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        program
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_docker_cli_gives_exec_exit_code_and_line_and_inspect() {
        let _one_at_a_time = FAKE_DOCKER.lock().await;
        let dir = tempfile::tempdir().unwrap();
        let docker = Containers::Docker { program: fake_docker(dir.path()) };
        let limit = Duration::from_secs(10);

        let exec = docker.exec(CONTROLPLANE_CONTAINER, &["sh"], limit).await.unwrap();
        assert_eq!(exec.exit_code, 127);
        assert_eq!(
            exec.first_line(),
            "OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file \
             not found in $PATH: unknown"
        );
        assert_eq!(
            docker.inspect(WORKER_CONTAINER, limit).await,
            Ok(Inspect {
                ip: "10.5.0.3".into(),
                started_at: "2026-12-02T09:00:01.123456789Z".into(),
                restart_count: 0
            })
        );
        assert_eq!(
            docker.inspect("gone", limit).await.map_err(|e| e.message),
            Err("docker inspect gone failed: Error response from daemon: No such container: gone".into())
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("args")).unwrap(),
            "exec talos-default-controlplane-1 sh\ninspect talos-default-worker-1\ninspect gone\n"
        );
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_docker_cli_that_hangs_or_is_missing_is_a_clear_error() {
        let _one_at_a_time = FAKE_DOCKER.lock().await;
        let dir = tempfile::tempdir().unwrap();
        let docker = Containers::Docker { program: fake_docker(dir.path()) };
        assert_eq!(
            docker.inspect("slow", Duration::from_millis(200)).await.map_err(|e| e.message),
            Err(format!("`{}/docker inspect slow` did not finish within 0.2s", dir.path().display()))
        );

        let missing = dir.path().join("no-docker");
        let docker = Containers::Docker { program: missing.clone() };
        assert_eq!(
            docker.exec(CONTROLPLANE_CONTAINER, &["sh"], Duration::from_secs(10)).await.map_err(|e| e.message),
            Err(format!(
                "cannot run `{0} exec talos-default-controlplane-1 sh`: {0} not found; install the Docker CLI, or \
                 rehearse on the simulated cluster with `labctl lab run --sim`",
                missing.display()
            ))
        );
    }

    #[tokio::test]
    async fn a_port_the_simulator_does_not_map_is_closed() {
        let ports = Ports::Mapped(Vec::new());
        assert!(!ports.probe("10.5.0.2".parse().unwrap(), 22, Duration::from_millis(100)).await);
    }
}
