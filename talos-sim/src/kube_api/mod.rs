//! A minimal Kubernetes API over HTTPS with required client certificates: `GET /version`,
//! `/api`, `/api/v1`, `/apis`, `/healthz`/`/livez`/`/readyz`, `/api/v1/nodes` and
//! `/api/v1/nodes/{name}`. Node objects are computed on every request from the simulated nodes'
//! current state: labels from the active machine config, `Ready` from the kubelet service.
//!
//! `routes` answers a request, `query` reads its query string and selectors, `node_object`
//! builds a Node object, `http` serves it all over TLS.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::SystemTime;

use crate::node::{MachineType, Node};
use crate::util::{random_u64, stable_hash, uuid_from};
use crate::{SimError, kubeconfig};

mod http;
mod node_object;
mod query;
mod routes;

pub(crate) use http::serve;

/// The Kubernetes version the simulated API reports when the config names no kubelet tag.
pub const KUBERNETES_VERSION: &str = "v1.36.3";

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
