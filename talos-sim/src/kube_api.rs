//! A minimal Kubernetes API over HTTPS with required client certificates: `GET /version`,
//! `/api`, `/api/v1`, `/apis`, `/healthz`/`/livez`/`/readyz`, `/api/v1/nodes` and
//! `/api/v1/nodes/{name}`. Node objects are computed on every request from the simulated nodes'
//! current state: labels from the active machine config, `Ready` from the kubelet service.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

use crate::node::{MachineType, Node, TAG};
use crate::util::{random_u64, rfc3339, stable_hash, uuid_from};
use crate::{SimError, kubeconfig};

/// The Kubernetes version the simulated API reports when the config names no kubelet tag.
pub const KUBERNETES_VERSION: &str = "v1.36.3";
/// How long a TLS handshake may take before the connection is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// One Node the API serves.
pub(crate) struct KubeNode {
    pub node: Arc<Node>,
    pub uid: String,
    pub pod_cidr: &'static str,
    pub machine_id: String,
    pub system_uuid: String,
    pub boot_id: String,
}

impl KubeNode {
    pub fn new(node: Arc<Node>) -> KubeNode {
        let name = node.identity.hostname.clone();
        let pod_cidr = match node.identity.machine_type {
            MachineType::ControlPlane => "10.244.0.0/24",
            MachineType::Worker => "10.244.1.0/24",
        };
        let r = |salt: &str| random_u64(&format!("{name}/{salt}"));
        KubeNode {
            uid: uuid_from(r("uid-a"), r("uid-b")),
            machine_id: format!("{:016x}{:016x}", r("machine-a"), r("machine-b")),
            system_uuid: uuid_from(r("system-a"), r("system-b")),
            boot_id: uuid_from(r("boot-a"), r("boot-b")),
            pod_cidr,
            node,
        }
    }
}

/// What the API serves.
pub(crate) struct KubeState {
    pub nodes: Vec<KubeNode>,
    pub started: SystemTime,
}

/// A `Status` object (`kind: Status`, `status: Failure`).
fn status(code: StatusCode, reason: &str, message: &str, details: Option<Value>) -> (StatusCode, Value) {
    let mut v = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
    });
    if let (Some(d), Some(map)) = (details, v.as_object_mut()) {
        map.insert("details".into(), d);
    }
    if let Some(map) = v.as_object_mut() {
        map.insert("code".into(), json!(code.as_u16()));
    }
    (code, v)
}

fn not_found() -> (StatusCode, Value) {
    status(StatusCode::NOT_FOUND, "NotFound", "the server could not find the requested resource", None)
}

fn bad_request(message: &str) -> (StatusCode, Value) {
    status(StatusCode::BAD_REQUEST, "BadRequest", message, None)
}

/// Decodes `%XX` escapes and `+` (form encoding) in a query component. Invalid escapes are kept.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn query_params(query: Option<&str>) -> Vec<(String, String)> {
    query
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (percent_decode(k), percent_decode(v)),
            None => (percent_decode(p), String::new()),
        })
        .collect()
}

/// One equality-based selector requirement.
#[derive(Debug, PartialEq, Eq)]
enum Req {
    Exists(String),
    NotExists(String),
    Eq(String, String),
    Ne(String, String),
}

impl Req {
    fn matches(&self, get: impl Fn(&str) -> Option<String>) -> bool {
        match self {
            Req::Exists(k) => get(k).is_some(),
            Req::NotExists(k) => get(k).is_none(),
            Req::Eq(k, v) => get(k).as_deref() == Some(v.as_str()),
            Req::Ne(k, v) => get(k).as_deref() != Some(v.as_str()),
        }
    }
}

/// Parses an equality-based selector (`k`, `!k`, `k=v`, `k==v`, `k!=v`, comma-separated).
/// Set-based terms (`k in (a,b)`) are refused.
fn parse_selector(s: &str) -> Result<Vec<Req>, String> {
    let mut out = Vec::new();
    for term in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if term.contains('(') || term.contains(')') || term.contains(' ') {
            return Err(format!("unable to parse requirement: {term:?}: set-based selectors are not simulated"));
        }
        let req = if let Some((k, v)) = term.split_once("!=") {
            Req::Ne(k.to_string(), v.to_string())
        } else if let Some((k, v)) = term.split_once("==") {
            Req::Eq(k.to_string(), v.to_string())
        } else if let Some((k, v)) = term.split_once('=') {
            Req::Eq(k.to_string(), v.to_string())
        } else if let Some(k) = term.strip_prefix('!') {
            Req::NotExists(k.to_string())
        } else {
            Req::Exists(term.to_string())
        };
        let key = match &req {
            Req::Exists(k) | Req::NotExists(k) | Req::Eq(k, _) | Req::Ne(k, _) => k,
        };
        if key.is_empty() {
            return Err(format!("unable to parse requirement: {term:?}: empty key"));
        }
        out.push(req);
    }
    Ok(out)
}

/// The labels and kubelet version of a node's active config.
fn config_facts(bytes: &[u8]) -> (BTreeMap<String, String>, String) {
    let Ok(config) = talos_config::Config::from_bytes(bytes) else {
        return (BTreeMap::new(), KUBERNETES_VERSION.to_string());
    };
    let Some(v1) = config.get::<talos_config::model::v1alpha1::Config>() else {
        return (BTreeMap::new(), KUBERNETES_VERSION.to_string());
    };
    let machine = v1.machine.as_ref();
    let labels = machine.map(|m| m.node_labels.clone()).unwrap_or_default();
    let image = machine.and_then(|m| m.kubelet.as_ref()).map(|k| k.image.as_str()).unwrap_or_default();
    let name = image.rsplit('/').next().unwrap_or_default();
    let version = match name.split_once(':') {
        Some((_, tag)) if !tag.is_empty() => tag.split('@').next().unwrap_or(tag).to_string(),
        _ => KUBERNETES_VERSION.to_string(),
    };
    (labels, version)
}

/// The architecture as Kubernetes names it.
pub fn kube_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        "arm" => "arm",
        other => other,
    }
}

impl KubeState {
    /// The Node object of `n` now, and its resource version.
    fn node_object(&self, n: &KubeNode, now: SystemTime) -> (Value, u64) {
        let node = &n.node;
        let name = node.identity.hostname.as_str();
        let (bytes, config_version, _) = node.config_state();
        let (config_labels, kubelet_version) = config_facts(&bytes);
        let kubelet = node.kubelet_status();
        let ready = node.node_ready(now);
        let resource_version = config_version + kubelet.service_version + u64::from(!ready.ready);
        let arch = kube_arch();
        let (labels, annotations) = labels_and_annotations(name, node.identity.machine_type, config_labels);
        let created = rfc3339(self.started);
        let conditions = conditions(&ready, &created);
        let resources = json!({
            "cpu": "2",
            "ephemeral-storage": "10218772Ki",
            "hugepages-2Mi": "0",
            "memory": "2048Mi",
            "pods": "110",
        });
        let object = json!({
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": name,
                "uid": n.uid,
                "resourceVersion": resource_version.to_string(),
                "creationTimestamp": created,
                "labels": labels,
                "annotations": annotations,
            },
            "spec": {
                "podCIDR": n.pod_cidr,
                "podCIDRs": [n.pod_cidr],
            },
            "status": {
                "capacity": resources,
                "allocatable": resources,
                "conditions": conditions,
                "addresses": [
                    {"type": "InternalIP", "address": node.identity.address.to_string()},
                    {"type": "Hostname", "address": name},
                ],
                "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                "nodeInfo": {
                    "machineID": n.machine_id,
                    "systemUUID": n.system_uuid,
                    "bootID": n.boot_id,
                    "kernelVersion": "6.18.9-talos",
                    "osImage": format!("Talos ({TAG})"),
                    "containerRuntimeVersion": "containerd://2.1.5",
                    "kubeletVersion": kubelet_version,
                    "kubeProxyVersion": kubelet_version,
                    "operatingSystem": "linux",
                    "architecture": arch,
                },
            },
        });
        (object, resource_version)
    }

    /// Answers one request: a status code and a JSON body.
    pub fn route(&self, method: &Method, path: &str, query: Option<&str>, now: SystemTime) -> (StatusCode, Value) {
        let known = matches!(path, "/version" | "/api" | "/api/v1" | "/apis" | "/healthz" | "/livez" | "/readyz")
            || path == "/api/v1/nodes"
            || path.strip_prefix("/api/v1/nodes/").is_some_and(|n| !n.is_empty() && !n.contains('/'));
        if !known {
            return not_found();
        }
        if method != Method::GET {
            return status(
                StatusCode::METHOD_NOT_ALLOWED,
                "MethodNotAllowed",
                "the server does not allow this method on the requested resource",
                Some(json!({})),
            );
        }
        let params = query_params(query);
        let param = |name: &str| params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        if matches!(param("watch"), Some("1" | "true")) {
            return bad_request("watch is not simulated by talos-sim");
        }
        match path {
            "/version" => (
                StatusCode::OK,
                json!({
                    "major": "1",
                    "minor": "36",
                    "emulationMajor": "1",
                    "emulationMinor": "36",
                    "minCompatibilityMajor": "1",
                    "minCompatibilityMinor": "35",
                    "gitVersion": KUBERNETES_VERSION,
                    "gitCommit": "0000000000000000000000000000000000000000",
                    "gitTreeState": "clean",
                    "buildDate": "2026-01-01T00:00:00Z",
                    "goVersion": "go1.25.7",
                    "compiler": "gc",
                    "platform": format!("linux/{}", kube_arch()),
                }),
            ),
            "/healthz" | "/livez" | "/readyz" => (StatusCode::OK, json!("ok")),
            "/api" => (
                StatusCode::OK,
                json!({
                    "kind": "APIVersions",
                    "versions": ["v1"],
                    "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "10.5.0.2:6443"}],
                }),
            ),
            "/apis" => (StatusCode::OK, json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": []})),
            "/api/v1" => (
                StatusCode::OK,
                json!({
                    "kind": "APIResourceList",
                    "groupVersion": "v1",
                    "resources": [{
                        "name": "nodes",
                        "singularName": "node",
                        "namespaced": false,
                        "kind": "Node",
                        "verbs": ["get", "list"],
                        "shortNames": ["no"],
                    }],
                }),
            ),
            "/api/v1/nodes" => self.list(param("labelSelector"), param("fieldSelector"), now),
            _ => {
                let name = percent_decode(path.trim_start_matches("/api/v1/nodes/"));
                match self.nodes.iter().find(|n| n.node.identity.hostname == name) {
                    Some(n) => (StatusCode::OK, self.node_object(n, now).0),
                    None => status(
                        StatusCode::NOT_FOUND,
                        "NotFound",
                        &format!("nodes \"{name}\" not found"),
                        Some(json!({"name": name, "kind": "nodes"})),
                    ),
                }
            }
        }
    }

    fn list(&self, label_selector: Option<&str>, field_selector: Option<&str>, now: SystemTime) -> (StatusCode, Value) {
        let labels = match parse_selector(label_selector.unwrap_or_default()) {
            Ok(r) => r,
            Err(e) => return bad_request(&e),
        };
        let fields = match parse_selector(field_selector.unwrap_or_default()) {
            Ok(r) => r,
            Err(e) => return bad_request(&e),
        };
        for f in &fields {
            let key = match f {
                Req::Exists(k) | Req::NotExists(k) | Req::Eq(k, _) | Req::Ne(k, _) => k,
            };
            if key != "metadata.name" {
                return bad_request(&format!("field label not supported: {key}"));
            }
            if matches!(f, Req::Exists(_) | Req::NotExists(_)) {
                return bad_request(&format!("invalid selector: {key}: field selectors need a value"));
            }
        }
        let mut items = Vec::new();
        let mut total = 0;
        let mut nodes: Vec<&KubeNode> = self.nodes.iter().collect();
        nodes.sort_by(|a, b| a.node.identity.hostname.cmp(&b.node.identity.hostname));
        for n in nodes {
            let (object, rv) = self.node_object(n, now);
            total += rv;
            let get_label = |k: &str| object["metadata"]["labels"][k].as_str().map(str::to_string);
            let get_field = |_: &str| Some(n.node.identity.hostname.clone());
            if labels.iter().all(|r| r.matches(get_label)) && fields.iter().all(|r| r.matches(get_field)) {
                items.push(object);
            }
        }
        (
            StatusCode::OK,
            json!({
                "kind": "NodeList",
                "apiVersion": "v1",
                "metadata": {"resourceVersion": total.to_string()},
                "items": items,
            }),
        )
    }
}

async fn handle(state: Arc<KubeState>, req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let (code, body) = state.route(req.method(), req.uri().path(), req.uri().query(), SystemTime::now());
    let mut text = serde_json::to_vec(&body).unwrap_or_default();
    text.push(b'\n');
    let mut resp = Response::new(Full::new(Bytes::from(text)));
    *resp.status_mut() = code;
    resp.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    resp.headers_mut()
        .insert(hyper::header::CACHE_CONTROL, hyper::header::HeaderValue::from_static("no-cache, private"));
    Ok(resp)
}

/// Serves `state` on `listener` until the sender is used or dropped. Every connection task ends
/// with the server task.
pub(crate) fn serve(
    state: Arc<KubeState>,
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
) -> (oneshot::Sender<()>, JoinHandle<()>) {
    let (tx, mut rx) = oneshot::channel::<()>();
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    let handle = tokio::spawn(async move {
        let mut conns = JoinSet::new();
        loop {
            tokio::select! {
                _ = &mut rx => break,
                accepted = listener.accept() => {
                    let Ok((tcp, _)) = accepted else {
                        // Out of descriptors or similar: back off instead of spinning.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    // Replies go out at once (no Nagle delay against the client's delayed ACK).
                    let _ = tcp.set_nodelay(true);
                    let acceptor = acceptor.clone();
                    let state = Arc::clone(&state);
                    conns.spawn(async move {
                        let Ok(Ok(stream)) = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await else {
                            return;
                        };
                        let service = hyper::service::service_fn(move |req| handle(Arc::clone(&state), req));
                        let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                    while conns.try_join_next().is_some() {}
                }
            }
        }
        conns.abort_all();
    });
    (tx, handle)
}

/// The kube API's PKI and its kubeconfig, for a listener at `addr`.
pub(crate) fn pki(cluster_name: &str, addr: SocketAddr) -> Result<(kubeconfig::KubePki, String), SimError> {
    let ips = [std::net::IpAddr::from([127, 0, 0, 1]), std::net::IpAddr::from([10, 5, 0, 2])];
    let dns = [
        "localhost",
        "kubernetes",
        "kubernetes.default",
        "kubernetes.default.svc",
        "kubernetes.default.svc.cluster.local",
    ];
    let pki = kubeconfig::KubePki::new(&ips, &dns)?;
    let text = kubeconfig::build(cluster_name, &format!("https://{addr}"), &pki.ca_pem, &pki.admin);
    Ok((pki, text))
}

/// A stable pseudo-random hex string of `len` characters derived from `parts`.
pub(crate) fn stable_hex(parts: &[&str], len: usize) -> String {
    let mut out = String::new();
    let mut i = 0u32;
    while out.len() < len {
        let n = i.to_string();
        let mut p: Vec<&str> = parts.to_vec();
        p.push(&n);
        out.push_str(&format!("{:016x}", stable_hash(&p)));
        i += 1;
    }
    out.truncate(len);
    out
}

/// The Node's labels (the well-known ones, the control-plane role, the config's) and annotations
/// (Talos's owned-labels list among them).
fn labels_and_annotations(
    name: &str,
    machine_type: MachineType,
    config_labels: BTreeMap<String, String>,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let arch = kube_arch();
    let mut labels: BTreeMap<String, String> = BTreeMap::new();
    labels.insert("beta.kubernetes.io/arch".into(), arch.into());
    labels.insert("beta.kubernetes.io/os".into(), "linux".into());
    labels.insert("kubernetes.io/arch".into(), arch.into());
    labels.insert("kubernetes.io/hostname".into(), name.into());
    labels.insert("kubernetes.io/os".into(), "linux".into());
    // Talos's NodeLabelSpecController adds the role label on control planes and owns it.
    let mut owned: Vec<String> = config_labels.keys().cloned().collect();
    if machine_type == MachineType::ControlPlane {
        labels.insert("node-role.kubernetes.io/control-plane".into(), String::new());
        owned.push("node-role.kubernetes.io/control-plane".into());
    }
    owned.sort();
    owned.dedup();
    labels.extend(config_labels);
    let mut annotations: BTreeMap<String, String> = BTreeMap::new();
    annotations.insert("node.alpha.kubernetes.io/ttl".into(), "0".into());
    if !owned.is_empty() {
        annotations.insert("talos.dev/owned-labels".into(), serde_json::to_string(&owned).unwrap_or_default());
    }
    annotations.insert("volumes.kubernetes.io/controller-managed-attach-detach".into(), "true".into());
    (labels, annotations)
}

/// The Node's conditions: no pressure and Ready while the kubelet posts status, `Unknown` since
/// it stopped.
fn conditions(ready: &crate::node::NodeReady, created: &str) -> Vec<Value> {
    let heartbeat = rfc3339(ready.heartbeat);
    let pressure = |kind: &str, reason: &str, message: &str| {
        if ready.ready {
            json!({
                "type": kind,
                "status": "False",
                "lastHeartbeatTime": heartbeat,
                "lastTransitionTime": created,
                "reason": reason,
                "message": message,
            })
        } else {
            json!({
                "type": kind,
                "status": "Unknown",
                "lastHeartbeatTime": heartbeat,
                "lastTransitionTime": rfc3339(ready.since),
                "reason": "NodeStatusUnknown",
                "message": "Kubelet stopped posting node status.",
            })
        }
    };
    let ready_condition = if ready.ready {
        json!({
            "type": "Ready",
            "status": "True",
            "lastHeartbeatTime": heartbeat,
            "lastTransitionTime": rfc3339(ready.since),
            "reason": "KubeletReady",
            "message": "kubelet is posting ready status",
        })
    } else {
        json!({
            "type": "Ready",
            "status": "Unknown",
            "lastHeartbeatTime": heartbeat,
            "lastTransitionTime": rfc3339(ready.since),
            "reason": "NodeStatusUnknown",
            "message": "Kubelet stopped posting node status.",
        })
    };
    vec![
        pressure("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        pressure("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        pressure("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        ready_condition,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors() {
        assert_eq!(
            parse_selector("a,!b,c=d,e==f,g!=h").unwrap(),
            vec![
                Req::Exists("a".into()),
                Req::NotExists("b".into()),
                Req::Eq("c".into(), "d".into()),
                Req::Eq("e".into(), "f".into()),
                Req::Ne("g".into(), "h".into()),
            ]
        );
        assert!(parse_selector("a in (b,c)").is_err());
        assert!(parse_selector("=x").is_err());
        assert_eq!(parse_selector("").unwrap(), vec![]);
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("lab.talos.dev%2Fpool%3Dblue"), "lab.talos.dev/pool=blue");
        assert_eq!(percent_decode("a+b%zz%4"), "a b%zz%4");
        assert_eq!(percent_decode("%"), "%");
    }

    #[test]
    fn kubelet_version_from_image() {
        let (labels, v) = config_facts(crate::WORKER_CONFIG);
        assert_eq!(v, "v1.36.3");
        assert!(labels.is_empty());
        let (labels, _) = config_facts(crate::CONTROLPLANE_CONFIG);
        assert_eq!(labels.keys().collect::<Vec<_>>(), ["node.kubernetes.io/exclude-from-external-load-balancers"]);
        assert_eq!(config_facts(b"not yaml: [").1, KUBERNETES_VERSION);
    }
}
