//! The gRPC face of a simulated node: `machine.MachineService` and `cosi.resource.State`, with
//! apid's routing (docs/api.md §2): no metadata → served locally; `nodes` (MachineService only) →
//! one-to-many with every reply item wrapped in `metadata.hostname = <target>` and per-node
//! errors in-band; `node` (single value) → one-to-one, verbatim. A node that cannot forward
//! (the worker) serves targets naming itself and refuses others with
//! `PermissionDenied: no request forwarding`.
//!
//! Forwarding is in-process: the control plane calls the target node's state directly instead
//! of opening a second mTLS hop.

use std::pin::Pin;
use std::sync::Arc;
use std::time::SystemTime;

use talos_client::proto::common;
use talos_client::proto::cosi::resource as cosi;
use talos_client::proto::machine;
use talos_client::proto::resource::config::MachineConfigSpec;
use talos_client::proto::talos::resource::definitions::{cluster, enums, v1alpha1};
use tokio::sync::{broadcast, mpsc};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use talos_client::error::code_name;

use crate::util::timestamp;

use crate::node::{self, ApplyMode, ApplyRequest, ChangeKind, MachineType, Node, NodeError};

type DataStream = Pin<Box<dyn Stream<Item = Result<common::Data, Status>> + Send>>;

/// Log bytes are sent in chunks of at most this size (not aligned to lines, as Talos).
const CHUNK: usize = 4096;

/// All simulated nodes, for resolving targets.
#[derive(Debug, Default)]
pub struct Cluster {
    pub nodes: Vec<Arc<Node>>,
}

impl Cluster {
    /// The node a target string names (its address or hostname).
    pub fn find(&self, target: &str) -> Option<Arc<Node>> {
        self.nodes.iter().find(|n| n.identity.address.to_string() == target || n.identity.hostname == target).cloned()
    }
}

/// One node's API endpoint.
#[derive(Clone, Debug)]
pub struct Api {
    pub node: Arc<Node>,
    pub cluster: Arc<Cluster>,
    /// Whether this node's apid can proxy to others (control planes only).
    pub can_forward: bool,
}

enum Route {
    Local(Arc<Node>),
    Fanout(Vec<(String, Result<Arc<Node>, Status>)>),
}

/// A node's refusal as the gRPC status the API answers with: its code, its text verbatim.
impl From<NodeError> for Status {
    fn from(e: NodeError) -> Status {
        match e {
            NodeError::InvalidArgument(msg) => Status::invalid_argument(msg),
            NodeError::FailedPrecondition(msg) => Status::failed_precondition(msg),
            NodeError::NotFound(msg) => Status::not_found(msg),
            NodeError::Unimplemented(msg) => Status::unimplemented(msg),
            NodeError::Unknown(msg) => Status::unknown(msg),
        }
    }
}

fn wrap(target: &str) -> Option<common::Metadata> {
    Some(common::Metadata { hostname: target.to_string(), error: String::new(), status: None })
}

/// apid's in-band error item metadata (`BuildError`).
fn error_metadata(target: &str, status: &Status) -> Option<common::Metadata> {
    Some(common::Metadata {
        hostname: target.to_string(),
        error: format!("rpc error: code = {} desc = {}", code_name(status.code()), status.message()),
        status: Some(talos_client::proto::google::rpc::Status {
            code: status.code() as i32,
            message: status.message().to_string(),
            details: Vec::new(),
        }),
    })
}

fn values(md: &tonic::metadata::MetadataMap, key: &str) -> Vec<String> {
    md.get_all(key).iter().map(|v| v.to_str().map(str::to_string).unwrap_or_default()).collect()
}

/// The caller's roles, as apid reads them: the client certificate's subject `O` values (the TLS
/// handshake already checked the certificate, `tls.rs`); a certificate with `os:impersonator`
/// may name other roles in the `talos-role` metadata, which then replace its own.
fn caller<T>(request: &Request<T>) -> Result<Vec<String>, Status> {
    let certs = request.peer_certs().ok_or_else(|| Status::unauthenticated("no client certificate"))?;
    let leaf = certs.first().ok_or_else(|| Status::unauthenticated("no client certificate"))?;
    let cert = crate::der::parse(leaf.as_ref())
        .ok_or_else(|| Status::unauthenticated("cannot read the client certificate"))?;
    let roles: Vec<String> =
        cert.organizations.iter().map(|r| r.trim().to_string()).filter(|r| !r.is_empty()).collect();
    if roles.iter().any(|r| r == "os:impersonator") {
        let claimed = values(request.metadata(), "talos-role");
        if !claimed.is_empty() {
            return Ok(claimed);
        }
    }
    Ok(roles)
}

/// Talos's role check for the lab's methods: `admin` methods need `os:admin`; the others accept
/// `os:admin`, `os:operator` or `os:reader`.
fn authorize(roles: &[String], admin: bool) -> Result<(), Status> {
    let ok = roles.iter().any(|r| r == "os:admin" || (!admin && (r == "os:operator" || r == "os:reader")));
    if ok { Ok(()) } else { Err(Status::permission_denied("not authorized")) }
}

impl Api {
    fn is_self(&self, target: &str) -> bool {
        self.node.identity.address.to_string() == target || self.node.identity.hostname == target
    }

    fn resolve(&self, target: &str) -> Result<Arc<Node>, Status> {
        if target.parse::<std::net::SocketAddr>().is_ok() {
            return Err(Status::invalid_argument(format!("invalid target {}", talos_go::quote(target))));
        }
        self.cluster.find(target).ok_or_else(|| {
            Status::unavailable(format!(
                "connection error: desc = \"transport: Error while dialing: dial tcp {target}:50000: connect: no route to host\""
            ))
        })
    }

    fn route(&self, md: &tonic::metadata::MetadataMap, method: &str, machine: bool) -> Result<Route, Status> {
        let nodes = values(md, "nodes");
        if !nodes.is_empty() {
            if !machine {
                return Err(Status::invalid_argument(format!(
                    "one-2-many proxying is not supported for method {method}"
                )));
            }
            if !self.can_forward {
                if nodes.iter().all(|n| self.is_self(n)) {
                    return Ok(Route::Local(Arc::clone(&self.node)));
                }
                return Err(Status::permission_denied("no request forwarding"));
            }
            return Ok(Route::Fanout(nodes.into_iter().map(|t| (t.clone(), self.resolve(&t))).collect()));
        }
        let node = values(md, "node");
        match node.as_slice() {
            [] => Ok(Route::Local(Arc::clone(&self.node))),
            [target] if self.is_self(target) => Ok(Route::Local(Arc::clone(&self.node))),
            [_] if !self.can_forward => Err(Status::permission_denied("no request forwarding")),
            [target] => Ok(Route::Local(self.resolve(target)?)),
            _ => Err(Status::invalid_argument("node metadata must be single-valued")),
        }
    }
}

fn version_of(_node: &Node) -> machine::Version {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        other => other,
    };
    machine::Version {
        metadata: None,
        version: Some(machine::VersionInfo {
            tag: node::TAG.into(),
            sha: node::SHA.into(),
            built: String::new(),
            go_version: node::GO_VERSION.into(),
            os: "linux".into(),
            arch: arch.into(),
        }),
        platform: Some(machine::PlatformInfo { name: "container".into(), mode: "container".into() }),
        features: Some(machine::FeaturesInfo { rbac: true }),
    }
}

fn services_of(node: &Node) -> machine::ServiceList {
    machine::ServiceList {
        metadata: None,
        services: node
            .services()
            .into_iter()
            .map(|s| machine::ServiceInfo {
                id: s.id,
                state: s.state,
                events: Some(machine::ServiceEvents {
                    events: s
                        .events
                        .into_iter()
                        .map(|e| machine::ServiceEvent { msg: e.msg, state: e.state, ts: timestamp(e.ts) })
                        .collect(),
                }),
                health: Some(machine::ServiceHealth {
                    unknown: s.health.unknown,
                    healthy: s.health.healthy,
                    last_message: s.health.last_message,
                    last_change: timestamp(s.health.last_change),
                }),
            })
            .collect(),
    }
}

/// Runs `f` per route: locally without metadata, or per target wrapped with its hostname and
/// with errors in-band.
fn unary<M: Default>(
    route: Route,
    f: impl Fn(&Arc<Node>) -> Result<M, Status>,
    set: impl Fn(&mut M, Option<common::Metadata>),
) -> Result<Vec<M>, Status> {
    match route {
        Route::Local(n) => Ok(vec![f(&n)?]),
        Route::Fanout(targets) => Ok(targets
            .into_iter()
            .map(|(t, n)| match n.and_then(|n| f(&n)) {
                Ok(mut m) => {
                    set(&mut m, wrap(&t));
                    m
                }
                Err(s) => {
                    let mut m = M::default();
                    set(&mut m, error_metadata(&t, &s));
                    m
                }
            })
            .collect()),
    }
}

/// Splits `bytes` into data chunks.
fn chunks(bytes: &[u8], metadata: &Option<common::Metadata>) -> Vec<common::Data> {
    bytes.chunks(CHUNK).map(|c| common::Data { metadata: metadata.clone(), bytes: c.to_vec() }).collect()
}

/// Feeds one node's log (snapshot, then followed lines) into `tx`.
async fn pump_logs(
    tx: mpsc::Sender<Result<common::Data, Status>>,
    metadata: Option<common::Metadata>,
    snapshot: Vec<u8>,
    follow: Option<broadcast::Receiver<Vec<u8>>>,
) {
    for d in chunks(&snapshot, &metadata) {
        if tx.send(Ok(d)).await.is_err() {
            return;
        }
    }
    let Some(mut rx) = follow else { return };
    loop {
        tokio::select! {
            r = rx.recv() => match r {
                Ok(bytes) => {
                    for d in chunks(&bytes, &metadata) {
                        if tx.send(Ok(d)).await.is_err() {
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    // Chunks were lost: end the stream rather than silently skip them.
                    let _ = tx.send(Err(lagged("log", n))).await;
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = tx.closed() => return,
        }
    }
}

/// The status that ends a followed stream whose reader fell behind the broadcast buffer.
fn lagged(what: &str, missed: u64) -> Status {
    Status::data_loss(format!("{what} stream fell behind: {missed} updates were dropped"))
}

fn data_stream(rx: mpsc::Receiver<Result<common::Data, Status>>) -> DataStream {
    Box::pin(ReceiverStream::new(rx))
}

#[tonic::async_trait]
impl machine::machine_service_server::MachineService for Api {
    async fn version(&self, request: Request<()>) -> Result<Response<machine::VersionResponse>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/Version", true)?;
        let messages = unary(route, |n| authorize(&roles, false).map(|()| version_of(n)), |m, md| m.metadata = md)?;
        Ok(Response::new(machine::VersionResponse { messages }))
    }

    async fn service_list(&self, request: Request<()>) -> Result<Response<machine::ServiceListResponse>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/ServiceList", true)?;
        let messages = unary(route, |n| authorize(&roles, false).map(|()| services_of(n)), |m, md| m.metadata = md)?;
        Ok(Response::new(machine::ServiceListResponse { messages }))
    }

    type LogsStream = DataStream;

    async fn logs(&self, request: Request<machine::LogsRequest>) -> Result<Response<DataStream>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/Logs", true)?;
        let req = request.into_inner();
        let read = |n: &Arc<Node>| {
            authorize(&roles, false)?;
            if req.namespace != "system" && req.id != "kubelet" {
                return Err(Status::not_found(format!(
                    "container logs are not simulated: {}/{}",
                    talos_go::quote(&req.namespace),
                    talos_go::quote(&req.id)
                )));
            }
            n.logs(&req.id, req.tail_lines, req.follow).map_err(Status::from)
        };
        let (tx, rx) = mpsc::channel(64);
        match route {
            Route::Local(n) => {
                let (snapshot, follow) = read(&n)?;
                tokio::spawn(pump_logs(tx, None, snapshot, follow));
            }
            Route::Fanout(targets) => {
                for (t, n) in targets {
                    match n.and_then(|n| read(&n)) {
                        Ok((snapshot, follow)) => {
                            tokio::spawn(pump_logs(tx.clone(), wrap(&t), snapshot, follow));
                        }
                        Err(s) => {
                            let _ =
                                tx.send(Ok(common::Data { metadata: error_metadata(&t, &s), bytes: Vec::new() })).await;
                        }
                    }
                }
            }
        }
        Ok(Response::new(data_stream(rx)))
    }

    type KubeconfigStream = DataStream;

    async fn kubeconfig(&self, request: Request<()>) -> Result<Response<DataStream>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/Kubeconfig", true)?;
        let read = |n: &Arc<Node>| authorize(&roles, true).and_then(|()| n.kubeconfig().map_err(Status::from));
        let items: Vec<Result<common::Data, Status>> = match route {
            Route::Local(n) => vec![Ok(common::Data { metadata: None, bytes: read(&n)? })],
            Route::Fanout(targets) => targets
                .into_iter()
                .map(|(t, n)| match n.and_then(|n| read(&n)) {
                    Ok(bytes) => Ok(common::Data { metadata: wrap(&t), bytes }),
                    Err(s) => Ok(common::Data { metadata: error_metadata(&t, &s), bytes: Vec::new() }),
                })
                .collect(),
        };
        Ok(Response::new(Box::pin(tokio_stream::iter(items))))
    }

    async fn apply_configuration(
        &self,
        request: Request<machine::ApplyConfigurationRequest>,
    ) -> Result<Response<machine::ApplyConfigurationResponse>, Status> {
        let method = "/machine.MachineService/ApplyConfiguration";
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), method, true)?;
        let access_md = access_metadata(request.metadata());
        let req = request.into_inner();
        let mode = ApplyMode::from_proto(req.mode)
            .ok_or_else(|| Status::invalid_argument(format!("unknown apply mode {}", req.mode)))?;
        let try_timeout = req.try_mode_timeout.and_then(|d| std::time::Duration::try_from(d).ok());
        let apply_req = ApplyRequest { data: req.data, mode, dry_run: req.dry_run, try_timeout };
        let run = |n: Arc<Node>| {
            let apply_req = apply_req.clone();
            let access_md = access_md.clone();
            let allowed = authorize(&roles, true);
            async move {
                let started = std::time::Instant::now();
                let r = match allowed {
                    Ok(()) => n.apply(apply_req).await.map_err(Status::from),
                    Err(s) => Err(s),
                };
                let (code, outcome) = match &r {
                    Ok(_) => ("OK".to_string(), "Success".to_string()),
                    // Only the first line of the error: a refusal may quote config lines.
                    Err(s) => (
                        code_name(s.code()).to_string(),
                        format!(
                            "rpc error: code = {} desc = {}",
                            code_name(s.code()),
                            s.message().lines().next().unwrap_or_default()
                        ),
                    ),
                };
                n.log_machined_raw(&format!(
                    "machined {} {code} [{method}] {:.2}ms unary {outcome} ({access_md})",
                    crate::util::go_log_time(SystemTime::now()),
                    started.elapsed().as_secs_f64() * 1000.0
                ));
                r.map(|o| machine::ApplyConfiguration {
                    metadata: None,
                    warnings: o.warnings,
                    mode: o.mode.to_proto() as i32,
                    mode_details: o.details,
                })
            }
        };
        let messages = match route {
            Route::Local(n) => vec![run(n).await?],
            Route::Fanout(targets) => {
                let mut out = Vec::new();
                for (t, n) in targets {
                    let r = match n {
                        Ok(n) => run(n).await,
                        Err(s) => Err(s),
                    };
                    out.push(match r {
                        Ok(mut m) => {
                            m.metadata = wrap(&t);
                            m
                        }
                        Err(s) => {
                            machine::ApplyConfiguration { metadata: error_metadata(&t, &s), ..Default::default() }
                        }
                    });
                }
                out
            }
        };
        Ok(Response::new(machine::ApplyConfigurationResponse { messages }))
    }
}

/// Metadata keys that may carry credentials: never written to a log.
fn credential_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "authorization" || key == "proxy-authorization" || key.contains("cookie") || key.ends_with("token")
}

/// The sorted `key=value` metadata of the gRPC access line (ASCII entries only, no routing keys, no
/// credential-looking keys: the log is readable by any reader).
fn access_metadata(md: &tonic::metadata::MetadataMap) -> String {
    let mut pairs: Vec<String> = md
        .iter()
        .filter_map(|kv| match kv {
            tonic::metadata::KeyAndValueRef::Ascii(k, v) => {
                let k = k.as_str();
                (k != "nodes" && k != "node" && !credential_key(k))
                    .then(|| format!("{k}={}", v.to_str().unwrap_or_default()))
            }
            tonic::metadata::KeyAndValueRef::Binary(..) => None,
        })
        .collect();
    pairs.sort();
    pairs.join(";")
}

/// YAML of a string scalar as go-yaml v4 writes it at indent 4 (block literal for multi-line
/// text).
fn yaml_string(text: &str) -> String {
    if !text.contains('\n') {
        return format!("{}\n", talos_go::quote(text));
    }
    let (body, chomp) = match text.strip_suffix('\n') {
        Some(b) => (b, "|"),
        None => (text, "|-"),
    };
    let mut out = format!("{chomp}\n");
    for line in body.split('\n') {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn machine_type_enum(t: MachineType) -> enums::MachineType {
    match t {
        MachineType::ControlPlane => enums::MachineType::TypeControlPlane,
        MachineType::Worker => enums::MachineType::TypeWorker,
    }
}

/// A node resource as a COSI protobuf resource (both `proto_spec` and `yaml_spec`).
pub fn to_proto(r: &node::Resource) -> cosi::Resource {
    use prost::Message;
    let mut annotations = std::collections::HashMap::new();
    let (proto_spec, yaml_spec) = match &r.spec {
        node::Spec::MachineConfig(bytes) => {
            annotations.insert("talos.dev/yaml-spec".to_string(), "1".to_string());
            (
                MachineConfigSpec { yaml_marshalled: bytes.clone() }.encode_to_vec(),
                yaml_string(&String::from_utf8_lossy(bytes)),
            )
        }
        node::Spec::Service { running, healthy, unknown } => (
            v1alpha1::ServiceSpec { running: *running, healthy: *healthy, unknown: *unknown }.encode_to_vec(),
            format!("running: {running}\nhealthy: {healthy}\nunknown: {unknown}\n"),
        ),
        node::Spec::Member(m) => {
            let spec = cluster::MemberSpec {
                node_id: m.node_id.clone(),
                addresses: m
                    .addresses
                    .iter()
                    .map(|a| common::NetIp {
                        ip: match a {
                            std::net::IpAddr::V4(v) => v.octets().to_vec(),
                            std::net::IpAddr::V6(v) => v.octets().to_vec(),
                        },
                    })
                    .collect(),
                hostname: m.hostname.clone(),
                machine_type: machine_type_enum(m.machine_type) as i32,
                operating_system: m.operating_system.clone(),
                control_plane: m.control_plane_port.map(|p| cluster::ControlPlane { api_server_port: p }),
            };
            let mut yaml = format!("nodeId: {}\naddresses:\n", m.node_id);
            for a in &m.addresses {
                yaml.push_str(&format!("    - {a}\n"));
            }
            yaml.push_str(&format!(
                "hostname: {}\nmachineType: {}\noperatingSystem: {}\n",
                m.hostname,
                m.machine_type.as_str(),
                m.operating_system
            ));
            if let Some(p) = m.control_plane_port {
                yaml.push_str(&format!("controlPlane:\n    port: {p}\n"));
            }
            (spec.encode_to_vec(), yaml)
        }
    };
    cosi::Resource {
        metadata: Some(cosi::Metadata {
            namespace: r.namespace.to_string(),
            r#type: r.r#type.to_string(),
            id: r.id.clone(),
            version: r.version.to_string(),
            owner: String::new(),
            phase: "running".to_string(),
            created: timestamp(r.created),
            updated: timestamp(r.updated),
            finalizers: Vec::new(),
            labels: Default::default(),
            annotations,
        }),
        spec: Some(cosi::Spec { proto_spec, yaml_spec }),
    }
}

/// What a COSI read of `r#type` in `namespace` returns, after machined's checks: the method
/// rule (Get, List and Watch are for `os:admin`, `os:operator` and `os:reader`), then the access
/// filter (`catalog::check_read`).
fn readable(n: &Node, namespace: &str, r#type: &str, roles: &[String]) -> Result<Vec<cosi::Resource>, Status> {
    authorize(roles, false)?;
    crate::catalog::check_read(r#type, namespace, roles)?;
    if namespace == crate::catalog::NS_META {
        return Ok(crate::catalog::meta_resources(r#type, n.booted()).unwrap_or_default());
    }
    if let Some(singletons) = crate::catalog::identity_resources(r#type, namespace, n) {
        return Ok(singletons);
    }
    Ok(n.list(namespace, r#type)?.iter().map(to_proto).collect())
}

impl Api {
    /// COSI routing: never one-to-many (`route` refuses `nodes` for non-MachineService calls).
    fn route_one(&self, md: &tonic::metadata::MetadataMap, method: &str) -> Result<Arc<Node>, Status> {
        match self.route(md, method, false)? {
            Route::Local(n) => Ok(n),
            Route::Fanout(_) => Err(Status::internal("one-2-many routing on a COSI method")),
        }
    }
}

type ListStream = Pin<Box<dyn Stream<Item = Result<cosi::ListResponse, Status>> + Send>>;
type WatchStream = Pin<Box<dyn Stream<Item = Result<cosi::WatchResponse, Status>> + Send>>;

#[tonic::async_trait]
impl cosi::state_server::State for Api {
    async fn get(&self, request: Request<cosi::GetRequest>) -> Result<Response<cosi::GetResponse>, Status> {
        let roles = caller(&request)?;
        let n = self.route_one(request.metadata(), "/cosi.resource.State/Get")?;
        let req = request.into_inner();
        let found = readable(&n, &req.namespace, &req.r#type, &roles)?
            .into_iter()
            .find(|r| r.metadata.as_ref().is_some_and(|m| m.id == req.id));
        match found {
            Some(resource) => Ok(Response::new(cosi::GetResponse { resource: Some(resource) })),
            None => Err(Status::not_found(format!(
                "resource {}({}/{}@undefined) doesn't exist",
                req.r#type, req.namespace, req.id
            ))),
        }
    }

    type ListStream = ListStream;

    async fn list(&self, request: Request<cosi::ListRequest>) -> Result<Response<ListStream>, Status> {
        let roles = caller(&request)?;
        let n = self.route_one(request.metadata(), "/cosi.resource.State/List")?;
        let req = request.into_inner();
        let items: Vec<Result<cosi::ListResponse, Status>> = readable(&n, &req.namespace, &req.r#type, &roles)?
            .into_iter()
            .map(|r| Ok(cosi::ListResponse { resource: Some(r) }))
            .collect();
        Ok(Response::new(Box::pin(tokio_stream::iter(items))))
    }

    type WatchStream = WatchStream;

    async fn watch(&self, request: Request<cosi::WatchRequest>) -> Result<Response<WatchStream>, Status> {
        let roles = caller(&request)?;
        let n = self.route_one(request.metadata(), "/cosi.resource.State/Watch")?;
        let req = request.into_inner();
        let mut changes = n.subscribe();
        let id = req.id.clone();
        let snapshot: Vec<cosi::Resource> = readable(&n, &req.namespace, &req.r#type, &roles)?
            .into_iter()
            .filter(|r| id.as_ref().is_none_or(|i| r.metadata.as_ref().is_some_and(|m| m.id == *i)))
            .collect();
        let bootstrap = req.options.as_ref().is_some_and(|o| o.bootstrap_contents);
        let (tx, rx) = mpsc::channel(64);
        let event = |r: Option<cosi::Resource>, t: cosi::EventType| cosi::WatchResponse {
            event: vec![cosi::Event { resource: r, event_type: t as i32, old: None, error: None, bookmark: None }],
        };
        tokio::spawn(async move {
            if bootstrap || id.is_some() {
                for r in snapshot {
                    if tx.send(Ok(event(Some(r), cosi::EventType::Created))).await.is_err() {
                        return;
                    }
                }
            }
            if bootstrap
                && req.api_version >= 1
                && tx.send(Ok(event(None, cosi::EventType::Bootstrapped))).await.is_err()
            {
                return;
            }
            loop {
                tokio::select! {
                    c = changes.recv() => match c {
                        Ok(c) => {
                            let r = &c.resource;
                            if r.namespace != req.namespace || r.r#type != req.r#type || id.as_ref().is_some_and(|i| *i != r.id) {
                                continue;
                            }
                            let t = match c.kind {
                                ChangeKind::Created => cosi::EventType::Created,
                                ChangeKind::Updated => cosi::EventType::Updated,
                                ChangeKind::Destroyed => cosi::EventType::Destroyed,
                            };
                            if tx.send(Ok(event(Some(to_proto(r)), t))).await.is_err() {
                                return;
                            }
                        }
                        Err(broadcast::error::RecvError::Lagged(n)) => {
                            let _ = tx.send(Err(lagged("watch", n))).await;
                            return;
                        }
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    _ = tx.closed() => return,
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_metadata_drops_credentials_and_routing() {
        let mut md = tonic::metadata::MetadataMap::new();
        for (k, v) in [
            ("authorization", "Bearer s3cr3t"),
            ("cookie", "session=s3cr3t"),
            ("set-cookie", "a=s3cr3t"),
            ("x-auth-token", "s3cr3t"),
            ("token", "s3cr3t"),
            ("nodes", "10.5.0.3"),
            ("node", "10.5.0.3"),
            ("user-agent", "talos-client"),
            ("content-type", "application/grpc"),
        ] {
            md.insert(tonic::metadata::MetadataKey::from_static(k), v.parse().unwrap());
        }
        assert_eq!(access_metadata(&md), "content-type=application/grpc;user-agent=talos-client");
    }

    #[tokio::test]
    async fn a_lagging_log_follower_ends_with_data_loss() {
        let (btx, brx) = broadcast::channel(2);
        for i in 0..5u8 {
            btx.send(vec![b'0' + i, b'\n']).unwrap();
        }
        let (tx, mut rx) = mpsc::channel(8);
        pump_logs(tx, None, b"old\n".to_vec(), Some(brx)).await;
        assert_eq!(rx.recv().await.unwrap().unwrap().bytes, b"old\n");
        let err = rx.recv().await.unwrap().unwrap_err();
        assert_eq!(err.code(), tonic::Code::DataLoss);
        assert_eq!(err.message(), "log stream fell behind: 3 updates were dropped");
        assert!(rx.recv().await.is_none(), "the stream ends");
    }
}
