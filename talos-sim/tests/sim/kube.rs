//! The simulated Kubernetes API over real TLS on 127.0.0.1 (a hand-written HTTP/1.1 client over
//! tokio-rustls, with the identity of the kubeconfig the control plane hands out), the simulated
//! containers, the port mappings and the simulator directory.

use crate::common;
use common::eventually;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::Value;
use talos_client::{ApplyMode, ApplyOptions, Client, ClientOptions};
use talos_sim::{Pki, Sim, SimEnv, SimOptions, Timing};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const WORKER: &str = "10.5.0.3";
const CP_NAME: &str = "talos-default-controlplane-1";
const W_NAME: &str = "talos-default-worker-1";
const STEP5: &str = include_str!("../../../fixtures/05-labels.yaml");
const STEP6: &str = include_str!("../../../fixtures/06-canary.yaml");
const STEP8: &str = include_str!("../../../fixtures/08-kubelet.yaml");
const STEP8_FIX: &str = include_str!("../../../fixtures/08-fix.yaml");

async fn sim_with(grace: Duration) -> Sim {
    Sim::start_with(SimOptions {
        timing: Timing {
            kubelet_restart: Duration::from_millis(300),
            kubelet_health: Duration::from_millis(200),
            node_monitor_grace: grace,
        },
        discovery: true,
    })
    .await
    .expect("sim starts")
}

async fn talos(sim: &Sim) -> Client {
    let options =
        ClientOptions { context: None, connect_timeout: Duration::from_secs(2), call_timeout: Duration::from_secs(5) };
    Client::connect(&sim.talosconfig(), options).await.expect("connects")
}

fn patch(text: &str) -> Vec<talos_config::Patch> {
    talos_config::load_patches([talos_config::PatchSource::new("patch.yaml", text)]).expect("patch loads")
}

/// A kubeconfig field's value.
fn field(kubeconfig: &[u8], name: &str) -> String {
    let text = std::str::from_utf8(kubeconfig).expect("utf8");
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix(&format!("{name}: ")).map(str::to_string))
        .expect("field present")
}

fn pem(kubeconfig: &[u8], name: &str) -> Vec<u8> {
    STANDARD.decode(field(kubeconfig, name)).expect("base64")
}

/// A client TLS config trusting the kubeconfig's CA, with an optional client identity (PEMs).
fn client_tls(kubeconfig: &[u8], identity: Option<(&[u8], &[u8])>) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_slice_iter(&pem(kubeconfig, "certificate-authority-data")) {
        roots.add(c.expect("ca")).expect("root");
    }
    let builder = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots);
    let mut config = match identity {
        Some((cert, key)) => builder
            .with_client_auth_cert(
                CertificateDer::pem_slice_iter(cert).collect::<Result<Vec<_>, _>>().expect("cert"),
                PrivateKeyDer::from_pem_slice(key).expect("key"),
            )
            .expect("identity"),
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Arc::new(config)
}

/// The admin identity of the kubeconfig.
fn admin_tls(sim: &Sim) -> Arc<rustls::ClientConfig> {
    let k = sim.kubeconfig();
    client_tls(k, Some((&pem(k, "client-certificate-data"), &pem(k, "client-key-data"))))
}

/// One HTTP/1.1 request; `Ok((status, body))` or the transport error text.
async fn request(
    tls: Arc<rustls::ClientConfig>,
    addr: SocketAddr,
    server_name: &str,
    method: &str,
    path: &str,
) -> Result<(u16, String), String> {
    let tcp = tokio::net::TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let name = ServerName::try_from(server_name.to_string()).map_err(|e| e.to_string())?;
    let mut stream = tokio_rustls::TlsConnector::from(tls).connect(name, tcp).await.map_err(|e| e.to_string())?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {server_name}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    if let Err(e) = stream.read_to_end(&mut buf).await
        && (buf.is_empty() || e.kind() != std::io::ErrorKind::UnexpectedEof)
    {
        return Err(e.to_string());
    }
    let text = String::from_utf8(buf).map_err(|e| e.to_string())?;
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no header end")?;
    let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or("no status")?;
    assert!(head.to_ascii_lowercase().contains("\r\ncontent-type: application/json"), "{head}");
    Ok((code, body.to_string()))
}

async fn get(sim: &Sim, path: &str) -> (u16, Value) {
    let (code, body) =
        request(admin_tls(sim), sim.kube_api_endpoint(), "127.0.0.1", "GET", path).await.expect("request");
    (code, serde_json::from_str(&body).expect("json body"))
}

async fn node(sim: &Sim, name: &str) -> Value {
    let (code, v) = get(sim, &format!("/api/v1/nodes/{name}")).await;
    assert_eq!(code, 200, "{v}");
    v
}

fn ready(node: &Value) -> Value {
    node["status"]["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .find(|c| c["type"] == "Ready")
        .cloned()
        .expect("Ready")
}

fn is_rfc3339_seconds(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'Z'
        && s.chars().filter(char::is_ascii_digit).count() == 14
}

/// Replaces the volatile values (uids, resource versions, times, machine ids, the host's
/// architecture) by placeholders, after checking their shapes.
fn normalize(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, val) in map.iter_mut() {
                match (k.as_str(), &*val) {
                    ("uid" | "machineID" | "systemUUID" | "bootID", Value::String(s)) => {
                        assert!(s.len() >= 32, "{k}: {s}");
                        *val = Value::String(format!("<{k}>"));
                    }
                    ("resourceVersion", Value::String(s)) => {
                        assert!(s.parse::<u64>().is_ok(), "{s}");
                        *val = Value::String("<rv>".into());
                    }
                    ("creationTimestamp" | "lastHeartbeatTime" | "lastTransitionTime", Value::String(s)) => {
                        assert!(is_rfc3339_seconds(s), "{k}: {s}");
                        *val = Value::String(format!("<{k}>"));
                    }
                    ("architecture" | "kubernetes.io/arch" | "beta.kubernetes.io/arch", Value::String(s)) => {
                        let expected = match std::env::consts::ARCH {
                            "x86_64" => "amd64",
                            "aarch64" => "arm64",
                            other => other,
                        };
                        assert_eq!(s, expected);
                        *val = Value::String("<arch>".into());
                    }
                    _ => normalize(val),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        _ => {}
    }
}

#[tokio::test]
async fn fresh_node_list() {
    let sim = sim_with(Duration::from_secs(40)).await;
    let (code, mut list) = get(&sim, "/api/v1/nodes?limit=500").await;
    assert_eq!(code, 200);
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.iter().map(|i| i["metadata"]["name"].clone()).collect::<Vec<_>>(), [CP_NAME, W_NAME]);
    assert_ne!(items[0]["metadata"]["uid"], items[1]["metadata"]["uid"]);
    // The same object through the single-node route.
    assert_eq!(node(&sim, W_NAME).await, items[1]);
    normalize(&mut list);
    insta::assert_snapshot!(serde_json::to_string_pretty(&list).expect("json"));
}

#[tokio::test]
async fn other_routes_and_errors() {
    let sim = sim_with(Duration::from_secs(40)).await;
    let (code, v) = get(&sim, "/version").await;
    assert_eq!(code, 200);
    assert_eq!(
        (v["major"].as_str(), v["minor"].as_str(), v["gitVersion"].as_str()),
        (Some("1"), Some("36"), Some("v1.36.3"))
    );
    let (code, v) = get(&sim, "/api/v1/nodes/nope").await;
    assert_eq!(code, 404);
    assert_eq!(
        v.to_string(),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes \"nope\" not found","reason":"NotFound","details":{"name":"nope","kind":"nodes"},"code":404}"#
    );
    for path in ["/api/v1/pods", "/", "/api/v1/nodes/a/b", "/apis/apps/v1"] {
        let (code, v) = get(&sim, path).await;
        assert_eq!(code, 404, "{path}");
        assert_eq!(
            v.to_string(),
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404}"#,
            "{path}"
        );
    }
    let (code, body) = request(admin_tls(&sim), sim.kube_api_endpoint(), "127.0.0.1", "DELETE", "/api/v1/nodes/x")
        .await
        .expect("request");
    assert_eq!(code, 405);
    assert_eq!(
        body,
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"the server does not allow this method on the requested resource\",\"reason\":\"MethodNotAllowed\",\"details\":{},\"code\":405}\n"
    );
    let (code, v) = get(&sim, "/api/v1/nodes?watch=1").await;
    assert_eq!(code, 400);
    assert_eq!(v["message"], "watch is not simulated by talos-sim");
    let (code, v) = get(&sim, "/api/v1/nodes?labelSelector=a%20in%20(b)").await;
    assert_eq!((code, v["reason"].as_str()), (400, Some("BadRequest")));
    let (code, v) = get(&sim, "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse").await;
    assert_eq!((code, v["message"].as_str()), (400, Some("field label not supported: spec.unschedulable")));
    // The server certificate also fits the in-cluster names.
    for name in ["localhost", "kubernetes", "kubernetes.default"] {
        let (code, _) =
            request(admin_tls(&sim), sim.kube_api_endpoint(), name, "GET", "/version").await.expect("request");
        assert_eq!(code, 200, "{name}");
    }
}

fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["metadata"]["name"].as_str().expect("name").to_string())
        .collect()
}

#[tokio::test]
async fn labels_follow_the_active_config() {
    let sim = sim_with(Duration::from_secs(40)).await;
    let c = talos(&sim).await;
    let before = node(&sim, W_NAME).await;
    assert_eq!(before["metadata"]["annotations"].get("talos.dev/owned-labels"), None);

    c.patch_machine_config(WORKER, &patch(STEP5), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("step 5");
    let after = node(&sim, W_NAME).await;
    assert_eq!(after["metadata"]["labels"]["lab.talos.dev/pool"], "blue");
    assert_eq!(after["metadata"]["annotations"]["talos.dev/owned-labels"], r#"["lab.talos.dev/pool"]"#);
    assert_ne!(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"]);

    // Selectors: equality, inequality, existence, field selector by name.
    let (_, l) = get(&sim, "/api/v1/nodes?labelSelector=lab.talos.dev%2Fpool%3Dblue").await;
    assert_eq!(names(&l), [W_NAME]);
    let (_, l) = get(&sim, "/api/v1/nodes?labelSelector=lab.talos.dev/pool!=blue").await;
    assert_eq!(names(&l), [CP_NAME]);
    let (_, l) = get(&sim, "/api/v1/nodes?labelSelector=node-role.kubernetes.io%2Fcontrol-plane").await;
    assert_eq!(names(&l), [CP_NAME]);
    let (_, l) = get(&sim, "/api/v1/nodes?labelSelector=!lab.talos.dev/pool,kubernetes.io/os=linux").await;
    assert_eq!(names(&l), [CP_NAME]);
    let (_, l) = get(&sim, &format!("/api/v1/nodes?fieldSelector=metadata.name%3D{W_NAME}")).await;
    assert_eq!(names(&l), [W_NAME]);

    // Try mode: the label is there at once, and gone after the rollback; the pool label stays.
    let try_opts = ApplyOptions { mode: ApplyMode::Try, dry_run: false, try_timeout: Duration::from_secs(2) };
    c.patch_machine_config(WORKER, &patch(STEP6), try_opts).await.expect("step 6");
    let during = node(&sim, W_NAME).await;
    // Still pending after the read: the read saw the try config (on a very slow machine the check is skipped).
    if sim.worker.node.rollback_pending() {
        assert_eq!(during["metadata"]["labels"]["lab.talos.dev/canary"], "on");
        assert_eq!(
            during["metadata"]["annotations"]["talos.dev/owned-labels"],
            r#"["lab.talos.dev/canary","lab.talos.dev/pool"]"#
        );
    }
    let reverted = eventually(Duration::from_secs(15), || async {
        let n = node(&sim, W_NAME).await;
        (!sim.worker.node.rollback_pending() && n["metadata"]["labels"].get("lab.talos.dev/canary").is_none())
            .then_some(n)
    })
    .await
    .expect("rolled back within 15 s");
    assert_eq!(reverted["metadata"]["labels"]["lab.talos.dev/pool"], "blue");
    assert_eq!(reverted["metadata"]["annotations"]["talos.dev/owned-labels"], r#"["lab.talos.dev/pool"]"#);
    let (_, l) = get(&sim, "/api/v1/nodes?labelSelector=lab.talos.dev/canary").await;
    assert!(names(&l).is_empty());
}

#[tokio::test]
async fn ready_turns_unknown_after_the_grace_period_and_back() {
    let grace = Duration::from_millis(1500);
    let sim = sim_with(grace).await;
    let c = talos(&sim).await;
    assert_eq!(ready(&node(&sim, W_NAME).await)["status"], "True");
    assert_eq!(sim.worker.node.kubelet_down_since(), None);

    c.patch_machine_config(WORKER, &patch(STEP8), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("step 8");
    let down = eventually(Duration::from_secs(5), || async { sim.worker.node.kubelet_down_since() })
        .await
        .expect("the kubelet goes down");
    // Within the grace period the Node is still Ready; after it, Unknown (asked of the node at chosen instants).
    assert!(sim.worker.node.node_ready(down + grace / 2).ready);
    let late = sim.worker.node.node_ready(down + grace);
    assert!(!late.ready);
    assert_eq!((late.since, late.heartbeat), (down + grace, down));

    let unknown = eventually(Duration::from_secs(15), || async {
        let r = ready(&node(&sim, W_NAME).await);
        (r["status"] == "Unknown").then_some(r)
    })
    .await
    .expect("Unknown within 15 s");
    assert!(SystemTime::now() >= down + grace);
    assert_eq!(unknown["reason"], "NodeStatusUnknown");
    assert_eq!(unknown["message"], "Kubelet stopped posting node status.");
    // The control plane's kubelet is fine.
    assert_eq!(ready(&node(&sim, CP_NAME).await)["status"], "True");

    c.patch_machine_config(WORKER, &patch(STEP8_FIX), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("fix");
    let back = eventually(Duration::from_secs(15), || async {
        let r = ready(&node(&sim, W_NAME).await);
        (r["status"] == "True").then_some(r)
    })
    .await
    .expect("Ready again within 15 s");
    assert_eq!(back["reason"], "KubeletReady");
    assert_eq!(back["message"], "kubelet is posting ready status");
    // The recovery is a new transition (times are whole seconds in the object: ask the node).
    let status = sim.worker.node.kubelet_status();
    assert_eq!(status.down_since, None);
    assert!(status.ready_since >= down + grace);
    assert_eq!(sim.worker.node.node_ready(SystemTime::now()).since, status.ready_since);
}

#[tokio::test]
async fn clients_without_a_trusted_certificate_are_refused() {
    let sim = sim_with(Duration::from_secs(40)).await;
    let addr = sim.kube_api_endpoint();
    let err = request(client_tls(sim.kubeconfig(), None), addr, "127.0.0.1", "GET", "/version")
        .await
        .expect_err("no client certificate");
    assert_eq!(err, "received fatal alert: CertificateRequired");
    let other = Pki::new().expect("pki").admin_cert().expect("cert");
    let tls = client_tls(sim.kubeconfig(), Some((other.cert_pem.as_bytes(), other.key_pem.as_bytes())));
    let err = request(tls, addr, "127.0.0.1", "GET", "/version").await.expect_err("foreign client certificate");
    assert_eq!(err, "received fatal alert: UnknownCA");
    // The kubeconfig's own identity works.
    assert_eq!(get(&sim, "/version").await.0, 200);
}

#[tokio::test]
async fn containers_ports_and_the_sim_directory() {
    let sim = sim_with(Duration::from_secs(40)).await;
    let containers = sim.containers();
    assert_eq!(containers.len(), 2);
    let rows: Vec<_> = containers
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.hostname.as_str(),
                c.network.as_str(),
                c.ip.to_string(),
                c.restart_count,
                c.talos_type.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (CP_NAME, CP_NAME, "talos-default", "10.5.0.2".to_string(), 0, "controlplane"),
            (W_NAME, W_NAME, "talos-default", "10.5.0.3".to_string(), 0, "worker"),
        ]
    );
    let started = &containers[1].started_at;
    assert_eq!(started.len(), 30, "{started}");
    assert!(started.ends_with('Z') && started.as_bytes()[19] == b'.', "{started}");
    let out = containers[0].exec(&["sh"]);
    assert_eq!(out.exit_code, 127);
    assert_eq!(
        out.stdout,
        b"OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown\r\n"
    );
    let inspect: Value = serde_json::from_str(&containers[1].inspect_json()).expect("json");
    assert_eq!(inspect[0]["State"]["StartedAt"].as_str(), Some(started.as_str()));

    let ports: Vec<_> = sim.ports().iter().map(|p| (p.node.to_string(), p.port, p.open)).collect();
    assert_eq!(
        ports,
        [
            ("10.5.0.2".to_string(), 22, false),
            ("10.5.0.2".to_string(), 6443, true),
            ("10.5.0.2".to_string(), 50000, true),
            ("10.5.0.3".to_string(), 22, false),
            ("10.5.0.3".to_string(), 50000, true),
        ]
    );
    for p in sim.ports() {
        assert!(p.endpoint.ip().is_loopback());
        let connected = tokio::time::timeout(Duration::from_secs(2), tokio::net::TcpStream::connect(p.endpoint))
            .await
            .expect("answers at once");
        match connected {
            Ok(_) => assert!(p.open, "{p:?}"),
            Err(e) => {
                assert!(!p.open, "{p:?}");
                assert_eq!(e.kind(), std::io::ErrorKind::ConnectionRefused);
            }
        }
    }
    let by_port =
        |node: &str, port: u16| sim.ports().into_iter().find(|p| p.node.to_string() == node && p.port == port);
    assert_eq!(by_port("10.5.0.2", 6443).expect("6443").endpoint, sim.kube_api_endpoint());
    assert_eq!(by_port("10.5.0.3", 50000).expect("50000").endpoint, sim.worker.endpoint);

    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nothing");
    let err = SimEnv::read(&missing).expect_err("no sim there");
    let m = missing.display();
    assert_eq!(
        err.to_string(),
        format!(
            "no simulated cluster at {m}: {m}/sim.json: No such file or directory (os error 2) (start one with `labctl sim up --dir {m}`)"
        )
    );
    let sub = dir.path().join("sim");
    let (written, files) = sim.dir_files(&sub).expect("described");
    std::fs::create_dir_all(&sub).expect("dir");
    for (path, bytes) in &files {
        std::fs::write(path, bytes).expect("written");
    }
    let read = SimEnv::read(&sub).expect("reads back");
    assert_eq!(read, written);
    assert_eq!(read.talosconfig, sub.join("talosconfig"));
    assert_eq!(read.kubeconfig, sub.join("kubeconfig"));
    assert_eq!(read.containers, containers);
    assert_eq!(read.ports, sim.ports());
    assert_eq!(read.pid, std::process::id());
    assert_eq!(std::fs::read(&read.kubeconfig).expect("kubeconfig"), sim.kubeconfig());
    assert_eq!(read.port("10.5.0.2".parse().expect("ip"), 50000).map(|p| p.endpoint), Some(sim.controlplane.endpoint));
    assert_eq!(read.container(W_NAME), Some(&containers[1]));
    // The files' mode (0600) is labctl's to set: `labctl/tests/cli/lab_cli.rs` checks it.
    std::fs::write(sub.join("sim.json"), b"{}").expect("overwrite");
    let err = SimEnv::read(&sub).expect_err("invalid");
    assert_eq!(
        err.to_string(),
        format!(
            "invalid simulated cluster file {}/sim.json: missing field `talosconfig` at line 1 column 2",
            sub.display()
        )
    );
}
