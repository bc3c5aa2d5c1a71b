//! Simulated Talos v1.13 nodes — **a test double**, not Talos.
//!
//! [`Sim::start`] brings up a control plane (`10.5.0.2`, `talos-default-controlplane-1`) and a
//! worker (`10.5.0.3`, `talos-default-worker-1`) on ephemeral 127.0.0.1 ports. Each serves
//! `machine.MachineService` and `cosi.resource.State` over mutual TLS with a fresh Ed25519 PKI,
//! routes `nodes`/`node` metadata like apid, and behaves like Talos in the lab's steps (machine
//! config versions, try-mode rollback, services, the kubelet's crash loop on an unknown flag,
//! logs, members, version, kubeconfig). README.md lists what is and is not simulated.
//!
//! Beside the Talos API, a [`Sim`] serves a minimal Kubernetes API (Nodes only, over HTTPS with
//! client certificates; the kubeconfig the control plane hands out points at it), simulated
//! Docker [`Container`]s for the lab's first step, and [`PortMapping`]s that let a port probe of
//! `node:port` run for real against loopback. [`Sim::dir_files`] gives all of it for a client in
//! another process, which reads it back with [`SimEnv::read`].

#![deny(missing_docs)]

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub mod catalog;
pub mod containers;
pub(crate) mod der;
pub mod env;
pub(crate) mod kube_api;
pub(crate) mod kubeconfig;
pub(crate) mod kubelet;
pub mod node;
pub mod pki;
pub(crate) mod server;
pub(crate) mod tls;
pub(crate) mod util;

mod error;
mod files;
mod start;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use containers::{Container, ExecOutput};
pub use env::{PortMapping, SimEnv};
pub use error::SimError;

/// One file of a simulator directory: where it goes and its bytes (see [`Sim::dir_files`]).
pub type DirFile = (PathBuf, Vec<u8>);
pub use node::{MachineType, Node, Timing};
pub use pki::{CertKey, ClientUsage, Pki, ROLES, SavedIdentity, SavedPki, Validity};

/// The file of a simulator directory that keeps its PKI between runs (see [`Sim::dir_files`]).
pub const PKI_JSON: &str = "pki.json";

/// The control plane's machine config at boot (the lab fixture).
pub const CONTROLPLANE_CONFIG: &[u8] = include_bytes!("../fixtures/controlplane.yaml");
/// The worker's machine config at boot (the lab fixture).
pub const WORKER_CONFIG: &[u8] = include_bytes!("../fixtures/worker.yaml");

/// The talosconfig context name (`talosctl cluster create`'s cluster name).
pub const CONTEXT: &str = "talos-default";

/// Options of a simulated cluster.
#[derive(Clone, Copy, Debug)]
pub struct SimOptions {
    /// Timings (kubelet restart back-off, health delay).
    pub timing: Timing,
    /// `true` (default): every node lists both members, as with the discovery service
    /// reachable. `false`: each node lists only itself (an offline cluster).
    pub discovery: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions { timing: Timing::default(), discovery: true }
    }
}

/// The machine configs the two simulated nodes boot with (by default the lab's fixtures,
/// [`CONTROLPLANE_CONFIG`] and [`WORKER_CONFIG`]), e.g. the ones `labctl gen config` made.
#[derive(Clone, Debug)]
pub struct NodeConfigs {
    /// The control plane's config.
    pub controlplane: Vec<u8>,
    /// The worker's config.
    pub worker: Vec<u8>,
}

impl Default for NodeConfigs {
    fn default() -> Self {
        NodeConfigs { controlplane: CONTROLPLANE_CONFIG.to_vec(), worker: WORKER_CONFIG.to_vec() }
    }
}

/// One running simulated node's endpoint.
#[derive(Clone, Debug)]
pub struct SimNode {
    /// The node's hostname (`talos-default-controlplane-1`, `talos-default-worker-1`).
    pub hostname: String,
    /// The lab address clients use as a node target (`10.5.0.2`, `10.5.0.3`).
    pub address: IpAddr,
    /// Control plane or worker.
    pub machine_type: MachineType,
    /// Where it listens (127.0.0.1, ephemeral port).
    pub endpoint: SocketAddr,
    /// The simulated node itself (its state can be inspected directly).
    pub node: Arc<Node>,
}

/// A running simulated cluster. Dropping it stops the servers and background tasks.
pub struct Sim {
    /// The control plane (`10.5.0.2`): its endpoint forwards to the worker like apid.
    pub controlplane: SimNode,
    /// The worker (`10.5.0.3`): its endpoint serves only itself.
    pub worker: SimNode,
    pki: Pki,
    admin: CertKey,
    /// Client identities by role name (`admin`, `operator`, `reader`).
    identities: std::collections::BTreeMap<String, CertKey>,
    kubeconfig: Vec<u8>,
    kube_api: SocketAddr,
    containers: Vec<Container>,
    ports: Vec<PortMapping>,
    /// Bound, never listening: connects to a closed port are refused while these live.
    _closed: Vec<tokio::net::TcpSocket>,
    shutdown: Vec<oneshot::Sender<()>>,
    servers: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim").field("controlplane", &self.controlplane).field("worker", &self.worker).finish()
    }
}

impl Sim {
    /// The simulator's CA (to mint extra certificates in tests).
    pub fn pki(&self) -> &Pki {
        &self.pki
    }

    /// The admin client certificate and key.
    pub fn admin(&self) -> &CertKey {
        &self.admin
    }

    /// The client identity of a role name of [`ROLES`] (`admin`, `operator`, `reader`).
    pub fn identity(&self, role: &str) -> Option<&CertKey> {
        self.identities.get(role)
    }

    /// This cluster's PKI to keep for a later run ([`Sim::start_saved`]). Secret.
    pub fn saved_pki(&self) -> Result<SavedPki, SimError> {
        Ok(self.pki.save(&self.identities)?)
    }

    /// The kubeconfig file the control plane hands out (unpacked): server
    /// `https://127.0.0.1:<kube API port>`, the simulated Kubernetes API's CA, client
    /// certificate CN `admin`, O `system:masters`.
    pub fn kubeconfig(&self) -> &[u8] {
        &self.kubeconfig
    }

    /// Where the simulated Kubernetes API listens (127.0.0.1, ephemeral port).
    pub fn kube_api_endpoint(&self) -> SocketAddr {
        self.kube_api
    }

    /// The simulated Docker containers, control plane first.
    pub fn containers(&self) -> Vec<Container> {
        self.containers.clone()
    }

    /// The port mappings: per node 22 (closed: bound, never listening) and 50000 (the node's
    /// Talos API), and 6443 (the Kubernetes API) on the control plane.
    pub fn ports(&self) -> Vec<PortMapping> {
        self.ports.clone()
    }

    /// Stops the servers and the nodes' background tasks.
    pub fn shutdown(&mut self) {
        for tx in self.shutdown.drain(..) {
            let _ = tx.send(());
        }
        for h in self.servers.drain(..) {
            h.abort();
        }
        self.controlplane.node.shutdown();
        self.worker.node.shutdown();
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The repository README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RootReadmeDoctests;
