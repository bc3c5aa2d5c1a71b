//! Starting a simulated cluster: the PKI and client identities, the two nodes booted with their
//! configs, a Talos API server per node, the Kubernetes API, the containers and the port map.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::SystemTime;

use talos_client::proto::cosi::resource::state_server::StateServer;
use talos_client::proto::machine::machine_service_server::MachineServiceServer;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Server;

use crate::{
    CONTEXT, CertKey, ClientUsage, Container, MachineType, Node, NodeConfigs, Pki, PortMapping, ROLES, SavedPki, Sim,
    SimError, SimNode, SimOptions, Validity, containers, kube_api, kubeconfig, node, server, tls, util,
};

/// gRPC message size limit (Talos's `GRPCMaxMessageSize`).
const MAX_MESSAGE: usize = 32 << 20;

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
