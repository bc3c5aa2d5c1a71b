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

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use talos_client::proto::cosi::resource::state_server::StateServer;
use talos_client::proto::machine::machine_service_server::MachineServiceServer;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Server;

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

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use containers::{Container, ExecOutput};
pub use env::{PortMapping, SimEnv};

/// One file of a simulator directory: where it goes and its bytes (see [`Sim::dir_files`]).
pub type DirFile = (PathBuf, Vec<u8>);
pub use node::{MachineType, Node, Timing};
pub use pki::{CertKey, ClientUsage, Pki, ROLES, SavedIdentity, SavedPki, Validity};

/// The file of a simulator directory that keeps its PKI between runs (see [`Sim::dir_files`]).
pub const PKI_JSON: &str = "pki.json";

/// The control plane's machine config at boot (the lab fixture).
pub const CONTROLPLANE_CONFIG: &[u8] = include_bytes!("../../fixtures/controlplane.yaml");
/// The worker's machine config at boot (the lab fixture).
pub const WORKER_CONFIG: &[u8] = include_bytes!("../../fixtures/worker.yaml");

/// The talosconfig context name (`talosctl cluster create`'s cluster name).
pub const CONTEXT: &str = "talos-default";

/// gRPC message size limit (Talos's `GRPCMaxMessageSize`).
const MAX_MESSAGE: usize = 32 << 20;

/// Why the simulator could not start or write its files. Never carries key material.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// Certificate generation failed.
    #[error(transparent)]
    Pki(#[from] pki::PkiError),
    /// A socket or file operation failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// Writing a file through `talos_client` failed.
    #[error(transparent)]
    Write(#[from] talos_client::Error),
    /// The TLS server could not be set up.
    #[error("tls setup: {0}")]
    Tls(String),
    /// No simulator environment file in a directory.
    #[error(
        "no simulated cluster at {}: {}: {source} (start one with `labctl sim up --dir {}`)",
        dir.display(),
        path.display(),
        dir.display()
    )]
    NoSim {
        /// The directory.
        dir: PathBuf,
        /// The missing file (`dir/sim.json`).
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// The simulator environment file could not be read or parsed.
    #[error("invalid simulated cluster file {}: {reason}", path.display())]
    BadEnv {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Writing a file of the simulator's directory failed.
    #[error("cannot write {}: {reason}", path.display())]
    WriteFile {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

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

fn cluster_name(config: &[u8]) -> String {
    let parsed = talos_config::Config::from_bytes(config).ok();
    let v1 = parsed.as_ref().and_then(|c| c.get::<talos_config::model::v1alpha1::Config>());
    let cluster = v1.and_then(|v| v.cluster.as_ref());
    cluster.map(|c| c.cluster_name.clone()).filter(|n| !n.is_empty()).unwrap_or_else(|| CONTEXT.into())
}

fn member(hostname: &str, address: IpAddr, t: MachineType) -> node::MemberSpec {
    node::MemberSpec {
        node_id: hostname.to_string(),
        addresses: vec![address],
        hostname: hostname.to_string(),
        machine_type: t,
        operating_system: format!("Talos ({})", node::TAG),
        control_plane_port: (t == MachineType::ControlPlane).then_some(6443),
    }
}

/// The lab's control plane and worker: addresses, hostnames.
const CONTROLPLANE_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 5, 0, 2));
const WORKER_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 5, 0, 3));
const CONTROLPLANE_NAME: &str = "talos-default-controlplane-1";
const WORKER_NAME: &str = "talos-default-worker-1";

/// The two nodes booted with their configs; each lists both members when discovery is on, else
/// only itself. The control plane serves the packed kubeconfig.
fn boot_nodes(options: SimOptions, configs: NodeConfigs, packed_kubeconfig: Vec<u8>) -> (Arc<Node>, Arc<Node>) {
    let cp_member = member(CONTROLPLANE_NAME, CONTROLPLANE_IP, MachineType::ControlPlane);
    let w_member = member(WORKER_NAME, WORKER_IP, MachineType::Worker);
    let members = |own: &node::MemberSpec| {
        if options.discovery { vec![cp_member.clone(), w_member.clone()] } else { vec![own.clone()] }
    };
    let identity =
        |hostname: &str, address, machine_type| node::Identity { hostname: hostname.into(), address, machine_type };
    let cp = Node::boot(
        identity(CONTROLPLANE_NAME, CONTROLPLANE_IP, MachineType::ControlPlane),
        configs.controlplane,
        members(&cp_member),
        Some(packed_kubeconfig),
        options.timing,
    );
    let worker = Node::boot(
        identity(WORKER_NAME, WORKER_IP, MachineType::Worker),
        configs.worker,
        members(&w_member),
        None,
        options.timing,
    );
    (cp, worker)
}

/// The nodes as containers of the lab's Docker network, started at `started`.
fn containers_of(nodes: &[&Arc<Node>], started: SystemTime) -> Vec<Container> {
    let started_at = util::rfc3339_nanos(started);
    nodes
        .iter()
        .map(|n| Container {
            name: n.identity.hostname.clone(),
            hostname: n.identity.hostname.clone(),
            network: containers::NETWORK.to_string(),
            ip: n.identity.address,
            started_at: started_at.clone(),
            restart_count: 0,
            talos_type: n.identity.machine_type.as_str().to_string(),
        })
        .collect()
}

/// The lab's ports on 127.0.0.1: the Kubernetes API and both Talos APIs open, port 22 of each
/// node closed (bound, never listening: connects are refused while the sockets live).
fn port_map(
    kube_api: SocketAddr,
    cp_endpoint: SocketAddr,
    worker_endpoint: SocketAddr,
) -> Result<(Vec<PortMapping>, Vec<tokio::net::TcpSocket>), SimError> {
    let mut closed = Vec::new();
    let mut closed_port = || -> Result<SocketAddr, SimError> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))?;
        let addr = socket.local_addr()?;
        closed.push(socket);
        Ok(addr)
    };
    let map = |node: IpAddr, port: u16, endpoint: SocketAddr, open: bool| PortMapping { node, port, endpoint, open };
    let ports = vec![
        map(CONTROLPLANE_IP, 22, closed_port()?, false),
        map(CONTROLPLANE_IP, 6443, kube_api, true),
        map(CONTROLPLANE_IP, 50000, cp_endpoint, true),
        map(WORKER_IP, 22, closed_port()?, false),
        map(WORKER_IP, 50000, worker_endpoint, true),
    ];
    Ok((ports, closed))
}

impl Sim {
    /// Starts a control plane and a worker with default options.
    pub async fn start() -> Result<Sim, SimError> {
        Sim::start_with(SimOptions::default()).await
    }

    /// Starts a control plane and a worker with a fresh PKI.
    pub async fn start_with(options: SimOptions) -> Result<Sim, SimError> {
        Sim::start_saved(options, None).await
    }

    /// Starts a control plane and a worker; with a saved PKI ([`Sim::saved_pki`] of an earlier
    /// run), the CA and the client identities are that run's, so its talosconfigs still work.
    pub async fn start_saved(options: SimOptions, saved: Option<&SavedPki>) -> Result<Sim, SimError> {
        Sim::start_from(options, saved, NodeConfigs::default()).await
    }

    /// Starts a control plane and a worker booted with `configs`; with a saved PKI, as
    /// [`Sim::start_saved`]. A secrets bundle's Talos API CA can be that PKI (certificate as is,
    /// key as PKCS#8 `PRIVATE KEY`, no clients), so that the talosconfig `labctl gen config`
    /// wrote from the same bundle works against the simulated cluster.
    pub async fn start_from(
        options: SimOptions,
        saved: Option<&SavedPki>,
        configs: NodeConfigs,
    ) -> Result<Sim, SimError> {
        let (pki, identities) = identities(saved)?;
        let admin = identities.get("admin").cloned().ok_or_else(|| SimError::Tls("no admin identity".to_string()))?;
        let started = SystemTime::now();
        let cluster_name = cluster_name(&configs.controlplane);
        // The kube API listener is bound first: the kubeconfig names its port.
        let kube_listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let kube_api = kube_listener.local_addr()?;
        let (kube_pki, kubeconfig) = kube_api::pki(&cluster_name, kube_api)?;
        let kube_tls = tls::server_config(
            "kube api",
            &kube_pki.ca_pem,
            &kube_pki.server,
            tls::ClientRule::ChainOnly,
            &[b"h2", b"http/1.1"],
        )?;
        let kubeconfig = kubeconfig.into_bytes();
        let packed = kubeconfig::pack(&kubeconfig)?;
        let (cp, worker) = boot_nodes(options, configs, packed);
        let mut shutdown = Vec::new();
        let mut servers = Vec::new();
        let mut endpoints = Vec::new();
        let cluster = Arc::new(server::Cluster { nodes: vec![Arc::clone(&cp), Arc::clone(&worker)] });
        for (n, can_forward) in [(&cp, true), (&worker, false)] {
            let cert = pki.server_cert(&n.identity.hostname, &[n.identity.address])?;
            let api = server::Api { node: Arc::clone(n), cluster: Arc::clone(&cluster), can_forward };
            let (addr, tx, handle) = serve(api, &cert, pki.ca_pem()).await?;
            endpoints.push(addr);
            shutdown.push(tx);
            servers.push(handle);
        }
        let sim_node = |n: &Arc<Node>, endpoint| SimNode {
            hostname: n.identity.hostname.clone(),
            address: n.identity.address,
            machine_type: n.identity.machine_type,
            endpoint,
            node: Arc::clone(n),
        };
        let [cp_endpoint, worker_endpoint] = <[SocketAddr; 2]>::try_from(endpoints)
            .map_err(|_| SimError::Tls("expected two listening endpoints".to_string()))?;
        let state = Arc::new(kube_api::KubeState {
            nodes: vec![kube_api::KubeNode::new(Arc::clone(&cp)), kube_api::KubeNode::new(Arc::clone(&worker))],
            started,
        });
        let (tx, handle) = kube_api::serve(state, kube_listener, kube_tls);
        shutdown.push(tx);
        servers.push(handle);
        let containers = containers_of(&[&cp, &worker], started);
        let (ports, closed) = port_map(kube_api, cp_endpoint, worker_endpoint)?;
        Ok(Sim {
            controlplane: sim_node(&cp, cp_endpoint),
            worker: sim_node(&worker, worker_endpoint),
            pki,
            admin,
            identities,
            kubeconfig,
            kube_api,
            containers,
            ports,
            _closed: closed,
            shutdown,
            servers,
        })
    }

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

    /// What a directory describing this cluster holds, for a client in another process: the
    /// files `dir/talosconfig` (admin), `dir/talosconfig-operator`, `dir/talosconfig-reader`,
    /// `dir/kubeconfig`, `dir/pki.json` (the [`SavedPki`] for the next start) and `dir/sim.json`
    /// with their bytes, all of them private (write them mode 0600), and the description
    /// `sim.json` holds (the absolute paths of the admin talosconfig and the kubeconfig, the
    /// containers, the port mappings and this process's id), which [`SimEnv::read`] reads back.
    /// Writes nothing: `labctl sim up` writes the files.
    pub fn dir_files(&self, dir: &Path) -> Result<(SimEnv, Vec<DirFile>), SimError> {
        let failed = |path: &Path, e: &dyn std::fmt::Display| SimError::WriteFile {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        let dir = std::path::absolute(dir).map_err(|e| failed(dir, &e))?;
        let env = SimEnv {
            talosconfig: dir.join("talosconfig"),
            kubeconfig: dir.join("kubeconfig"),
            containers: self.containers(),
            ports: self.ports(),
            pid: std::process::id(),
        };
        let path = dir.join(env::SIM_JSON);
        let mut json = serde_json::to_vec_pretty(&env).map_err(|e| failed(&path, &e))?;
        json.push(b'\n');
        let endpoint = self.controlplane.endpoint.to_string();
        let mut files = vec![(env.talosconfig.clone(), self.talosconfig_yaml().into_bytes())];
        for (name, identity) in self.identities.iter().filter(|(name, _)| name.as_str() != "admin") {
            let talosconfig = Sim::talosconfig_for(&endpoint, self.pki.ca_pem(), identity);
            files.push((dir.join(format!("talosconfig-{name}")), talosconfig.into_bytes()));
        }
        let pki_path = dir.join(PKI_JSON);
        let mut pki = serde_json::to_vec_pretty(&self.saved_pki()?).map_err(|e| failed(&pki_path, &e))?;
        pki.push(b'\n');
        files.push((pki_path, pki));
        files.push((env.kubeconfig.clone(), self.kubeconfig.clone()));
        files.push((path, json));
        Ok((env, files))
    }

    /// A talosconfig (YAML) for `endpoint` with the given client identity: context
    /// `talos-default`, no default nodes, base64 PEMs, the key labelled `ED25519 PRIVATE KEY`
    /// as Talos writes it.
    pub fn talosconfig_for(endpoint: &str, ca_pem: &str, client: &CertKey) -> String {
        format!(
            "context: {CONTEXT}\ncontexts:\n    {CONTEXT}:\n        endpoints:\n            - {endpoint}\n        ca: {}\n        crt: {}\n        key: {}\n",
            STANDARD.encode(ca_pem),
            STANDARD.encode(&client.cert_pem),
            STANDARD.encode(client.talos_key_pem()),
        )
    }

    /// A `talos_client` talosconfig (context `talos-default`) for `endpoint` with the given CA
    /// and client identity; the key keeps Talos's `ED25519 PRIVATE KEY` label.
    pub fn talosconfig_with(endpoint: &str, ca_pem: &str, client: &CertKey) -> talos_client::Talosconfig {
        talos_client::Talosconfig::new(
            CONTEXT,
            talos_client::Context::new(
                vec![endpoint.to_string()],
                Vec::new(),
                ca_pem.as_bytes().to_vec(),
                client.cert_pem.as_bytes().to_vec(),
                client.talos_key_pem().into_bytes(),
            ),
        )
    }

    /// The admin talosconfig for `talos_client`; its endpoint is the control plane.
    pub fn talosconfig(&self) -> talos_client::Talosconfig {
        Sim::talosconfig_with(&self.controlplane.endpoint.to_string(), self.pki.ca_pem(), &self.admin)
    }

    /// The admin talosconfig (YAML); its endpoint is the control plane.
    pub fn talosconfig_yaml(&self) -> String {
        Sim::talosconfig_for(&self.controlplane.endpoint.to_string(), self.pki.ca_pem(), &self.admin)
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

/// The CA and the client identities of [`ROLES`]: the saved ones (a role missing from the
/// saved PKI gets a new certificate from the saved CA), or all new.
fn identities(saved: Option<&SavedPki>) -> Result<(Pki, std::collections::BTreeMap<String, CertKey>), SimError> {
    let pki = match saved {
        Some(saved) => Pki::from_saved(saved)?,
        None => Pki::new()?,
    };
    let mut identities = std::collections::BTreeMap::new();
    for (name, role) in ROLES {
        let identity = match saved.and_then(|s| s.clients.get(name)) {
            Some(kept) => CertKey { cert_pem: kept.cert.clone(), key_pem: kept.key.clone() },
            None => pki.client_cert(&[role], ClientUsage::ClientAuth, Validity::Current)?,
        };
        identities.insert(name.to_string(), identity);
    }
    Ok((pki, identities))
}

async fn serve(
    api: server::Api,
    cert: &CertKey,
    ca_pem: &str,
) -> Result<(SocketAddr, oneshot::Sender<()>, JoinHandle<()>), SimError> {
    let config = tls::server_config("talos api", ca_pem, cert, tls::ClientRule::ApidClientAuthOnly, &[b"h2"])?;
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
    let addr = listener.local_addr()?;
    let router = Server::builder()
        .add_service(
            MachineServiceServer::new(api.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
        )
        .add_service(
            StateServer::new(api).max_decoding_message_size(MAX_MESSAGE).max_encoding_message_size(MAX_MESSAGE),
        );
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        // TLS is done here rather than by tonic: apid checks client certificates in the handshake.
        let (incoming, _accept_loop) = tls::accept(listener, config);
        let _ = router
            .serve_with_incoming_shutdown(ReceiverStream::new(incoming), async {
                let _ = rx.await;
            })
            .await;
    });
    Ok((addr, tx, handle))
}

/// The repository README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RootReadmeDoctests;
