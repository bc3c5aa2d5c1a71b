//! One simulated Talos v1.13 node: machine config resources with Talos's version bookkeeping,
//! `ApplyConfiguration` semantics, services with states, health and events, log buffers, the
//! kubelet's crash loop on unknown flags, and COSI resource change events.
//!
//! Everything here is transport-free; `server` maps it onto gRPC.

use std::collections::{BTreeMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use tonic::Status;

use crate::kubelet;
use crate::util::{go_duration, go_log_time, unified_diff};

/// Talos version the simulated nodes report.
pub const TAG: &str = "v1.13.10";
/// `git describe --abbrev=8` stand-in (v1.13.9's commit; v1.13.10's is unknown).
pub const SHA: &str = "3ebd10a7";
/// Go version of the simulated build.
pub const GO_VERSION: &str = "go1.26.6";
/// Kubelet health probe text while the kubelet is down.
pub const NOT_RUNNING: &str = "service not running";
/// How many events a service keeps.
const MAX_EVENTS: usize = 64;
/// Upper bound of one log buffer; older whole lines are dropped.
const MAX_LOG: usize = 1 << 20;
/// The kubelet's `Waiting for ...` condition text.
pub const KUBELET_WAITING: &str = "Waiting for volumes /var/lib, /var/lib/kubelet, /var/log, /var/log/audit, /var/log/containers, /var/log/pods, /var/lib/kubelet/seccomp, /var/lib/kubelet/seccomp/profiles, /var/log/audit/kube, /var/mnt to be mounted, service \"cri\" to be \"up\", time sync, network";

/// COSI namespace of the machine config resources.
pub const NS_CONFIG: &str = "config";
/// COSI namespace of the members.
pub const NS_CLUSTER: &str = "cluster";
/// COSI namespace of the services.
pub const NS_RUNTIME: &str = "runtime";
/// Resource type of the machine config (ids `v1alpha1`, `persistent`).
pub const TYPE_MACHINE_CONFIG: &str = "MachineConfigs.config.talos.dev";
/// Resource type of a cluster member.
pub const TYPE_MEMBER: &str = "Members.cluster.talos.dev";
/// Resource type of a service.
pub const TYPE_SERVICE: &str = "Services.v1alpha1.talos.dev";

/// A node's machine type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachineType {
    /// A control plane node.
    ControlPlane,
    /// A worker node.
    Worker,
}

impl MachineType {
    /// The name Talos prints (`controlplane`, `worker`).
    pub fn as_str(self) -> &'static str {
        match self {
            MachineType::ControlPlane => "controlplane",
            MachineType::Worker => "worker",
        }
    }
}

/// Timings of the simulation; tests shorten them.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// The kubelet's restart back-off (`restart.Forever`), 5 s in Talos.
    pub kubelet_restart: Duration,
    /// Time from a kubelet start to its first successful health check (about 2 s).
    pub kubelet_health: Duration,
    /// The node-monitor grace period (40 s): how long the Kubernetes Node stays `Ready` after
    /// its kubelet stopped running or turned unhealthy, before the condition turns `Unknown`.
    pub node_monitor_grace: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            kubelet_restart: Duration::from_secs(5),
            kubelet_health: Duration::from_secs(2),
            node_monitor_grace: Duration::from_secs(40),
        }
    }
}

/// Who a node is.
#[derive(Clone, Debug)]
pub struct Identity {
    /// Hostname.
    pub hostname: String,
    /// The lab address (a target clients name).
    pub address: IpAddr,
    /// Control plane or worker.
    pub machine_type: MachineType,
}

pub use talos_client::ApplyMode;

/// An `ApplyConfiguration` request.
#[derive(Clone, Debug)]
pub struct ApplyRequest {
    /// The full config.
    pub data: Vec<u8>,
    /// The requested mode.
    pub mode: ApplyMode,
    /// Only report what would happen.
    pub dry_run: bool,
    /// The try-mode rollback timeout (60 s when absent).
    pub try_timeout: Option<Duration>,
}

/// A successful apply: the resolved mode, `mode_details` and warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyOutcome {
    /// The resolved mode (`auto` becomes `no-reboot` or `reboot`).
    pub mode: ApplyMode,
    /// `mode_details`.
    pub details: String,
    /// Validation warnings.
    pub warnings: Vec<String>,
}

/// A log read: the bytes so far and, when following, the receiver of later appends.
pub type LogRead = (Vec<u8>, Option<broadcast::Receiver<Vec<u8>>>);

/// A Member spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberSpec {
    /// Discovery node id.
    pub node_id: String,
    /// Addresses.
    pub addresses: Vec<IpAddr>,
    /// Hostname.
    pub hostname: String,
    /// Control plane or worker.
    pub machine_type: MachineType,
    /// e.g. `Talos (v1.13.10)`.
    pub operating_system: String,
    /// API server port (control planes only).
    pub control_plane_port: Option<i64>,
}

/// A resource spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// The config bytes exactly as applied.
    MachineConfig(Vec<u8>),
    /// A service's state.
    Service {
        /// Running.
        running: bool,
        /// Healthy.
        healthy: bool,
        /// Health unknown.
        unknown: bool,
    },
    /// A cluster member.
    Member(MemberSpec),
}

/// A COSI resource as the node holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// Namespace.
    pub namespace: &'static str,
    /// Type.
    pub r#type: &'static str,
    /// Id.
    pub id: String,
    /// Version (incremented on every update).
    pub version: u64,
    /// Creation time.
    pub created: SystemTime,
    /// Last update time.
    pub updated: SystemTime,
    /// The spec.
    pub spec: Spec,
}

/// What happened to a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Created.
    Created,
    /// Updated.
    Updated,
    /// Destroyed.
    Destroyed,
}

/// A resource change, as COSI Watch reports it.
#[derive(Clone, Debug)]
pub struct Change {
    /// What happened.
    pub kind: ChangeKind,
    /// The resource after the change.
    pub resource: Resource,
}

/// One service event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceEvent {
    /// Message.
    pub msg: String,
    /// State at the event.
    pub state: String,
    /// Time.
    pub ts: SystemTime,
}

/// Service health.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Health {
    /// No health check result yet.
    pub unknown: bool,
    /// Healthy.
    pub healthy: bool,
    /// The last health message.
    pub last_message: String,
    /// When health last changed.
    pub last_change: SystemTime,
}

/// A service as `ServiceList` reports it (events oldest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceInfo {
    /// Service id.
    pub id: String,
    /// State (`Running`, `Waiting`, ...).
    pub state: String,
    /// Events, oldest first.
    pub events: Vec<ServiceEvent>,
    /// Health.
    pub health: Health,
}

struct Service {
    state: String,
    events: VecDeque<ServiceEvent>,
    health: Health,
    version: u64,
    created: SystemTime,
    updated: SystemTime,
}

#[derive(Clone)]
struct ConfigRes {
    bytes: Vec<u8>,
    version: u64,
    created: SystemTime,
    updated: SystemTime,
}

struct LogBuf {
    data: Vec<u8>,
    tx: broadcast::Sender<Vec<u8>>,
}

struct Inner {
    active: ConfigRes,
    persistent: Option<ConfigRes>,
    try_generation: u64,
    try_task: Option<JoinHandle<()>>,
    services: BTreeMap<String, Service>,
    logs: BTreeMap<String, LogBuf>,
    next_pid: u32,
    kubelet_pid: u32,
    kubelet_down_since: Option<SystemTime>,
    kubelet_ready_since: SystemTime,
}

/// The kubelet's availability, what the Kubernetes Node's `Ready` condition is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KubeletStatus {
    /// Since when the kubelet service has been not `Running` or not healthy (`None`: it is
    /// Running and healthy).
    pub down_since: Option<SystemTime>,
    /// When the Node's `Ready` condition last turned `True` (boot, or the recovery from an
    /// outage longer than the node-monitor grace period).
    pub ready_since: SystemTime,
    /// The kubelet service resource's version (bumped on every state or health change).
    pub service_version: u64,
}

/// The Kubernetes Node's `Ready` condition at some instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeReady {
    /// `true`: `Ready=True`; `false`: `Ready=Unknown` (the kubelet stopped posting status).
    pub ready: bool,
    /// When the condition took its current value.
    pub since: SystemTime,
    /// The kubelet's last status post (`lastHeartbeatTime`).
    pub heartbeat: SystemTime,
}

/// A simulated node.
pub struct Node {
    /// Who the node is.
    pub identity: Identity,
    timing: Timing,
    members: Vec<MemberSpec>,
    kubeconfig: Option<Vec<u8>>,
    inner: Mutex<Inner>,
    apply_lock: tokio::sync::Mutex<()>,
    changes: broadcast::Sender<Change>,
    kubelet_argv: watch::Sender<Vec<String>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node").field("identity", &self.identity).finish_non_exhaustive()
    }
}

fn service_ids(t: MachineType) -> &'static [&'static str] {
    match t {
        MachineType::ControlPlane => &["apid", "containerd", "cri", "etcd", "kubelet", "machined", "trustd"],
        MachineType::Worker => &["apid", "containerd", "cri", "kubelet", "machined"],
    }
}

fn runner_message(id: &str, pid: u32) -> String {
    match id {
        "machined" => "Service started as goroutine".into(),
        "containerd" => format!(
            "Process Process([\"/bin/containerd\" \"--address\" \"/system/run/containerd/containerd.sock\" \"--state\" \"/system/run/containerd\" \"--root\" \"/system/var/lib/containerd\"]) started with PID {pid}"
        ),
        "cri" => format!(
            "Process Process([\"/bin/containerd\" \"--address\" \"/run/containerd/containerd.sock\" \"--config\" \"/etc/cri/containerd.toml\"]) started with PID {pid}"
        ),
        _ => format!("Started task {id} (PID {pid}) for container {id}"),
    }
}

/// The kubelet argv for `bytes`, or `None` when the config does not parse or Talos would refuse
/// the extraArgs (the KubeletSpec is then left as it was).
fn kubelet_argv_of(bytes: &[u8], identity: &Identity) -> Option<Vec<String>> {
    let config = talos_config::Config::from_bytes(bytes).ok()?;
    let v1 = config.get::<talos_config::model::v1alpha1::Config>()?;
    let extra = v1.machine.as_ref().and_then(|m| m.kubelet.as_ref()).map(|k| k.extra_args.to_map()).unwrap_or_default();
    kubelet::argv(&extra, &identity.hostname, &identity.address.to_string()).ok()
}

/// Canonical (comment-less) encoding of a config, or the raw text if it does not load.
fn canonical(bytes: &[u8]) -> String {
    match talos_config::Config::from_bytes(bytes) {
        Ok(c) => c.encode(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// `CanApplyImmediate`: the library's prediction (`talos_config::plan`, Talos v1.13.9's rule),
/// so that the simulator and `labctl plan` always agree. The refusal's diff has the values of
/// secret-looking keys replaced (README).
pub fn can_apply_immediate(old: &[u8], new: &[u8]) -> Result<(), String> {
    let (Ok(current), Ok(next)) = (talos_config::Config::from_bytes(old), talos_config::Config::from_bytes(new)) else {
        return Err("this config change can't be applied in immediate mode\ndiff:\n".to_string());
    };
    let plan = talos_config::plan::plan_apply(&current, &next).map_err(|e| e.to_string())?;
    match plan.refusal {
        None => Ok(()),
        Some(text) => Err(crate::util::redact_secrets(&text)),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Node {
    /// Boots a node from its USERDATA config: both config resources at version 1, every
    /// service Running and healthy, the kubelet supervised.
    pub fn boot(
        identity: Identity,
        config: Vec<u8>,
        members: Vec<MemberSpec>,
        kubeconfig: Option<Vec<u8>>,
        timing: Timing,
    ) -> Arc<Node> {
        let now = SystemTime::now();
        let res = ConfigRes { bytes: config.clone(), version: 1, created: now, updated: now };
        let argv = kubelet_argv_of(&config, &identity).unwrap_or_default();
        let (changes, _) = broadcast::channel(1024);
        let (kubelet_argv, rx) = watch::channel(argv);
        let mut logs = BTreeMap::new();
        for id in service_ids(identity.machine_type) {
            let (tx, _) = broadcast::channel(1024);
            logs.insert(id.to_string(), LogBuf { data: Vec::new(), tx });
        }
        let node = Arc::new(Node {
            identity,
            timing,
            members,
            kubeconfig,
            inner: Mutex::new(Inner {
                active: res.clone(),
                persistent: Some(res),
                try_generation: 0,
                try_task: None,
                services: BTreeMap::new(),
                logs,
                next_pid: 1100,
                kubelet_pid: 0,
                kubelet_down_since: None,
                kubelet_ready_since: now,
            }),
            apply_lock: tokio::sync::Mutex::new(()),
            changes,
            kubelet_argv,
            tasks: Mutex::new(Vec::new()),
        });
        {
            let mut inner = lock(&node.inner);
            for id in service_ids(node.identity.machine_type) {
                inner.services.insert(
                    id.to_string(),
                    Service {
                        state: "Initialized".into(),
                        events: VecDeque::new(),
                        health: Health { unknown: true, healthy: false, last_message: String::new(), last_change: now },
                        version: 0,
                        created: now,
                        updated: now,
                    },
                );
            }
            node.machined_log(&mut inner, "setting up container mode logging");
            for id in service_ids(node.identity.machine_type) {
                node.event(&mut inner, id, "Starting", "Starting service");
                if *id == "kubelet" {
                    node.event(&mut inner, id, "Waiting", KUBELET_WAITING);
                }
                node.event(&mut inner, id, "Preparing", "Running pre state");
                node.event(&mut inner, id, "Preparing", "Creating service runner");
                let pid = if *id == "kubelet" { node.kubelet_pid(&mut inner) } else { node.pid(&mut inner) };
                node.event(&mut inner, id, "Running", &runner_message(id, pid));
                node.health(&mut inner, id, true, "");
                node.event(&mut inner, id, "Running", "Health check successful");
                let line = format!("{} {id} started (simulated)\n", go_log_time(SystemTime::now()));
                if *id != "machined" && *id != "kubelet" {
                    node.append_log(&mut inner, id, line.as_bytes());
                }
            }
        }
        let task = tokio::spawn(kubelet_supervisor(Arc::clone(&node), rx));
        lock(&node.tasks).push(task);
        node
    }

    /// Stops the node's background tasks (kubelet supervisor, try-rollback timer).
    pub fn shutdown(&self) {
        for t in lock(&self.tasks).drain(..) {
            t.abort();
        }
        if let Some(t) = lock(&self.inner).try_task.take() {
            t.abort();
        }
    }

    fn pid(&self, inner: &mut Inner) -> u32 {
        inner.next_pid = inner.next_pid.wrapping_add(1 + inner.next_pid % 7);
        inner.next_pid
    }

    fn kubelet_pid(&self, inner: &mut Inner) -> u32 {
        let pid = self.pid(inner);
        inner.kubelet_pid = pid;
        pid
    }

    /// Subscribes to resource changes.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    fn append_log(&self, inner: &mut Inner, id: &str, bytes: &[u8]) {
        if let Some(buf) = inner.logs.get_mut(id) {
            buf.data.extend_from_slice(bytes);
            if buf.data.len() > MAX_LOG {
                let cut = buf.data.len() - MAX_LOG;
                let cut = buf.data[cut..].iter().position(|b| *b == b'\n').map(|p| cut + p + 1).unwrap_or(cut);
                buf.data.drain(..cut);
            }
            let _ = buf.tx.send(bytes.to_vec());
        }
    }

    fn machined_log(&self, inner: &mut Inner, msg: &str) {
        let line = format!("[talos] {} {msg}\n", go_log_time(SystemTime::now()));
        self.append_log(inner, "machined", line.as_bytes());
    }

    /// Appends a line to machined's log (used for the gRPC access lines).
    pub fn log_machined_raw(&self, line: &str) {
        let mut inner = lock(&self.inner);
        let mut l = line.to_string();
        if !l.ends_with('\n') {
            l.push('\n');
        }
        self.append_log(&mut inner, "machined", l.as_bytes());
    }

    fn service_resource(&self, id: &str, s: &Service) -> Resource {
        Resource {
            namespace: NS_RUNTIME,
            r#type: TYPE_SERVICE,
            id: id.to_string(),
            version: s.version,
            created: s.created,
            updated: s.updated,
            spec: Spec::Service { running: s.state == "Running", healthy: s.health.healthy, unknown: s.health.unknown },
        }
    }

    fn touch_service(&self, inner: &mut Inner, id: &str) {
        let Some(s) = inner.services.get_mut(id) else { return };
        let kind = if s.version == 0 { ChangeKind::Created } else { ChangeKind::Updated };
        s.version += 1;
        s.updated = SystemTime::now();
        let resource = self.service_resource(id, s);
        let up = s.state == "Running" && s.health.healthy && !s.health.unknown;
        let _ = self.changes.send(Change { kind, resource });
        if id == "kubelet" {
            let now = SystemTime::now();
            match (up, inner.kubelet_down_since) {
                (true, Some(down)) => {
                    if now.duration_since(down).unwrap_or_default() >= self.timing.node_monitor_grace {
                        inner.kubelet_ready_since = now;
                    }
                    inner.kubelet_down_since = None;
                }
                (false, None) => inner.kubelet_down_since = Some(now),
                _ => {}
            }
        }
    }

    /// Since when the kubelet service has been not `Running` or not healthy; `None` while it is
    /// Running and healthy.
    pub fn kubelet_down_since(&self) -> Option<SystemTime> {
        lock(&self.inner).kubelet_down_since
    }

    /// The kubelet's availability and its service resource version.
    pub fn kubelet_status(&self) -> KubeletStatus {
        let inner = lock(&self.inner);
        KubeletStatus {
            down_since: inner.kubelet_down_since,
            ready_since: inner.kubelet_ready_since,
            service_version: inner.services.get("kubelet").map(|s| s.version).unwrap_or_default(),
        }
    }

    /// The Node's `Ready` condition at `now`: `True` while the kubelet is Running and healthy
    /// or has been down for less than [`Timing::node_monitor_grace`], `Unknown` afterwards.
    pub fn node_ready(&self, now: SystemTime) -> NodeReady {
        let status = self.kubelet_status();
        match status.down_since {
            Some(down) if now.duration_since(down).unwrap_or_default() >= self.timing.node_monitor_grace => {
                NodeReady { ready: false, since: down + self.timing.node_monitor_grace, heartbeat: down }
            }
            _ => NodeReady { ready: true, since: status.ready_since, heartbeat: status.ready_since },
        }
    }

    /// The node's timings.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    fn event(&self, inner: &mut Inner, id: &str, state: &str, msg: &str) {
        let now = SystemTime::now();
        if let Some(s) = inner.services.get_mut(id) {
            s.state = state.to_string();
            s.events.push_back(ServiceEvent { msg: msg.to_string(), state: state.to_string(), ts: now });
            while s.events.len() > MAX_EVENTS {
                s.events.pop_front();
            }
        }
        self.machined_log(inner, &format!("service[{id}]({state}): {msg}"));
        self.touch_service(inner, id);
    }

    fn health(&self, inner: &mut Inner, id: &str, healthy: bool, msg: &str) {
        if let Some(s) = inner.services.get_mut(id) {
            s.health =
                Health { unknown: false, healthy, last_message: msg.to_string(), last_change: SystemTime::now() };
        }
        self.touch_service(inner, id);
    }

    fn health_unknown(&self, inner: &mut Inner, id: &str) {
        if let Some(s) = inner.services.get_mut(id) {
            s.health =
                Health { unknown: true, healthy: false, last_message: String::new(), last_change: SystemTime::now() };
        }
        self.touch_service(inner, id);
    }

    /// The services, sorted by id.
    pub fn services(&self) -> Vec<ServiceInfo> {
        let inner = lock(&self.inner);
        inner
            .services
            .iter()
            .map(|(id, s)| ServiceInfo {
                id: id.clone(),
                state: s.state.clone(),
                events: s.events.iter().cloned().collect(),
                health: s.health.clone(),
            })
            .collect()
    }

    /// A service log: the last `tail` lines (all when negative) and, with `follow`, a receiver
    /// for what is appended afterwards.
    pub fn logs(&self, id: &str, tail: i32, follow: bool) -> Result<LogRead, Status> {
        let inner = lock(&self.inner);
        let Some(buf) = inner.logs.get(id) else {
            return Err(Status::unknown(format!("log {} was not registered", talos_go::quote(id))));
        };
        let data = &buf.data;
        let start = if tail < 0 {
            0
        } else {
            let mut n = tail as usize;
            let body = data.strip_suffix(b"\n").unwrap_or(data);
            let mut pos = body.len();
            let mut start = 0;
            if n == 0 {
                start = data.len();
            } else {
                while let Some(p) = body[..pos].iter().rposition(|b| *b == b'\n') {
                    n -= 1;
                    if n == 0 {
                        start = p + 1;
                        break;
                    }
                    pos = p;
                }
            }
            start
        };
        let rx = follow.then(|| buf.tx.subscribe());
        Ok((data[start..].to_vec(), rx))
    }

    /// The admin kubeconfig as a gzip tar (control plane only).
    pub fn kubeconfig(&self) -> Result<Vec<u8>, Status> {
        self.kubeconfig
            .clone()
            .ok_or_else(|| Status::unimplemented("kubeconfig is only available on control plane nodes"))
    }

    fn config_resource(id: &str, c: &ConfigRes) -> Resource {
        Resource {
            namespace: NS_CONFIG,
            r#type: TYPE_MACHINE_CONFIG,
            id: id.to_string(),
            version: c.version,
            created: c.created,
            updated: c.updated,
            spec: Spec::MachineConfig(c.bytes.clone()),
        }
    }

    /// When the node booted (its first config's creation).
    pub fn booted(&self) -> SystemTime {
        lock(&self.inner).active.created
    }

    /// The resources of a type in a namespace, sorted by id; none for a type the node does not
    /// hold there. (Talos's access filter, which refuses unknown types and namespaces, is the
    /// API's: `catalog::check_read`.)
    pub fn list(&self, namespace: &str, r#type: &str) -> Result<Vec<Resource>, Status> {
        let known = [(NS_CLUSTER, TYPE_MEMBER), (NS_CONFIG, TYPE_MACHINE_CONFIG), (NS_RUNTIME, TYPE_SERVICE)];
        if !known.contains(&(namespace, r#type)) {
            return Ok(Vec::new());
        }
        let inner = lock(&self.inner);
        let mut out = match r#type {
            TYPE_MACHINE_CONFIG => {
                let mut v = Vec::new();
                if let Some(p) = &inner.persistent {
                    v.push(Self::config_resource("persistent", p));
                }
                v.push(Self::config_resource("v1alpha1", &inner.active));
                v
            }
            TYPE_SERVICE => inner.services.iter().map(|(id, s)| self.service_resource(id, s)).collect(),
            _ => self
                .members
                .iter()
                .map(|m| Resource {
                    namespace: NS_CLUSTER,
                    r#type: TYPE_MEMBER,
                    id: m.node_id.clone(),
                    version: 1,
                    created: inner.active.created,
                    updated: inner.active.created,
                    spec: Spec::Member(m.clone()),
                })
                .collect(),
        };
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    /// One resource.
    pub fn get(&self, namespace: &str, r#type: &str, id: &str) -> Result<Resource, Status> {
        self.list(namespace, r#type)?
            .into_iter()
            .find(|r| r.id == id)
            .ok_or_else(|| Status::not_found(format!("resource {}({namespace}/{id}@undefined) doesn't exist", r#type)))
    }

    /// The active config bytes and both versions (active, persistent).
    pub fn config_state(&self) -> (Vec<u8>, u64, Option<u64>) {
        let inner = lock(&self.inner);
        (inner.active.bytes.clone(), inner.active.version, inner.persistent.as_ref().map(|p| p.version))
    }

    fn set_active(&self, inner: &mut Inner, bytes: Vec<u8>) {
        let now = SystemTime::now();
        inner.active.bytes = bytes;
        inner.active.version += 1;
        inner.active.updated = now;
        let resource = Self::config_resource("v1alpha1", &inner.active);
        let _ = self.changes.send(Change { kind: ChangeKind::Updated, resource });
        if let Some(argv) = kubelet_argv_of(&inner.active.bytes, &self.identity) {
            self.kubelet_argv.send_if_modified(|cur| {
                if *cur == argv {
                    false
                } else {
                    *cur = argv;
                    true
                }
            });
        }
    }

    fn set_persistent(&self, inner: &mut Inner, bytes: Vec<u8>) {
        let now = SystemTime::now();
        let kind = match inner.persistent.as_mut() {
            Some(p) => {
                p.bytes = bytes;
                p.version += 1;
                p.updated = now;
                ChangeKind::Updated
            }
            None => {
                inner.persistent = Some(ConfigRes { bytes, version: 1, created: now, updated: now });
                ChangeKind::Created
            }
        };
        if let Some(p) = &inner.persistent {
            let resource = Self::config_resource("persistent", p);
            let _ = self.changes.send(Change { kind, resource });
        }
        self.machined_log(
            inner,
            "machine configuration persisted to STATE {\"component\": \"controller-runtime\", \"controller\": \"config.PersistenceController\"}",
        );
    }

    fn cancel_try(&self, inner: &mut Inner) {
        inner.try_generation += 1;
        if let Some(t) = inner.try_task.take() {
            t.abort();
        }
    }

    /// `MachineService.ApplyConfiguration` on this node (docs/validation.md §9.2).
    pub async fn apply(self: &Arc<Self>, req: ApplyRequest) -> Result<ApplyOutcome, Status> {
        let Ok(_guard) = self.apply_lock.try_lock() else {
            return Err(Status::failed_precondition("another apply configuration is already in progress"));
        };
        // Like machined, any request that is not in try mode cancels a pending rollback before anything else: a
        // request that is then rejected, or a dry run, cancels it too.
        if req.mode != ApplyMode::Try {
            self.cancel_try(&mut lock(&self.inner));
        }
        let warnings = talos_config::node::check_apply(&req.data, talos_config::Mode::Container, true)
            .map_err(|r| Status::invalid_argument(r.message))?;
        let mut inner = lock(&self.inner);
        let immediate = can_apply_immediate(&inner.active.bytes, &req.data);
        let resolved = match (req.mode, &immediate) {
            (ApplyMode::NoReboot | ApplyMode::Try, Err(reason)) => {
                return Err(Status::invalid_argument(reason.clone()));
            }
            (ApplyMode::Auto, Ok(())) => ApplyMode::NoReboot,
            (ApplyMode::Auto, Err(_)) => ApplyMode::Reboot,
            (m, _) => m,
        };
        let try_timeout = req.try_timeout.unwrap_or(Duration::from_secs(60));
        let details = match resolved {
            ApplyMode::NoReboot => "Applied configuration without a reboot".to_string(),
            ApplyMode::Try => format!(
                "Applied configuration without a reboot\nThe config is applied in 'try' mode and will be automatically reverted back in {}",
                go_duration(try_timeout)
            ),
            ApplyMode::Staged => "Staged configuration to be applied after the next reboot".to_string(),
            _ => match (req.mode, &immediate) {
                (ApplyMode::Auto, Err(reason)) => format!("Applied configuration with a reboot: {reason}"),
                _ => "Applied configuration with a reboot".to_string(),
            },
        };
        if req.dry_run {
            // Redacted like the immediate-mode refusal: the reply is readable by whoever applied.
            let diff = unified_diff(&canonical(&inner.active.bytes), &canonical(&req.data))
                .map(|d| crate::util::redact_secrets(&d))
                .unwrap_or_else(|| "No changes.".to_string());
            return Ok(ApplyOutcome {
                mode: resolved,
                details: format!("Dry run summary:\n{details} (skipped in dry-run).\nConfig diff:\n\n{diff}"),
                warnings: Vec::new(),
            });
        }
        let mode_text = match (req.mode, resolved) {
            (ApplyMode::Auto, ApplyMode::NoReboot) => "auto(no_reboot)",
            (ApplyMode::Auto, _) => "auto(reboot)",
            (ApplyMode::NoReboot, _) => "no_reboot",
            (ApplyMode::Try, _) => "try",
            (ApplyMode::Staged, _) => "staged",
            (ApplyMode::Reboot, _) => "reboot",
        };
        self.machined_log(&mut inner, &format!("apply config request: mode {mode_text}"));
        match resolved {
            ApplyMode::Staged => self.set_persistent(&mut inner, req.data),
            ApplyMode::Try => {
                self.cancel_try(&mut inner);
                let generation = inner.try_generation;
                let previous = inner.active.bytes.clone();
                self.set_active(&mut inner, req.data);
                let node = Arc::clone(self);
                inner.try_task = Some(tokio::spawn(async move {
                    tokio::time::sleep(try_timeout).await;
                    node.rollback(generation, previous);
                }));
            }
            _ => {
                self.set_persistent(&mut inner, req.data.clone());
                self.set_active(&mut inner, req.data);
            }
        }
        Ok(ApplyOutcome { mode: resolved, details, warnings })
    }

    /// Whether a try-mode apply is waiting for its rollback timer.
    pub fn rollback_pending(&self) -> bool {
        lock(&self.inner).try_task.is_some()
    }

    fn rollback(&self, generation: u64, previous: Vec<u8>) {
        let mut inner = lock(&self.inner);
        if inner.try_generation != generation {
            return;
        }
        inner.try_task = None;
        self.machined_log(&mut inner, "rolling back the configuration");
        self.set_active(&mut inner, previous);
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Runs the kubelet service: restarts it whenever its argv changes, crash-loops (Waiting,
/// health failing, a restart every `kubelet_restart`) while the kubelet rejects a flag.
async fn kubelet_supervisor(node: Arc<Node>, mut rx: watch::Receiver<Vec<String>>) {
    let id = "kubelet";
    let mut fresh_boot = true;
    loop {
        let argv = rx.borrow_and_update().clone();
        let failure = kubelet::flag_error(&argv);
        if !fresh_boot {
            let mut inner = lock(&node.inner);
            node.event(&mut inner, id, "Starting", "Starting service");
            node.event(&mut inner, id, "Waiting", KUBELET_WAITING);
            node.event(&mut inner, id, "Preparing", "Running pre state");
            node.event(&mut inner, id, "Preparing", "Creating service runner");
        }
        match failure {
            None => {
                let mut changed = false;
                if !fresh_boot {
                    {
                        let mut inner = lock(&node.inner);
                        let pid = node.kubelet_pid(&mut inner);
                        node.event(&mut inner, id, "Running", &runner_message(id, pid));
                        node.health_unknown(&mut inner, id);
                    }
                    tokio::select! {
                        _ = tokio::time::sleep(node.timing.kubelet_health) => {
                            let mut inner = lock(&node.inner);
                            node.health(&mut inner, id, true, "");
                            node.event(&mut inner, id, "Running", "Health check successful");
                        }
                        r = rx.changed() => {
                            if r.is_err() { return; }
                            changed = true;
                        }
                    }
                }
                fresh_boot = false;
                if !changed && rx.changed().await.is_err() {
                    return;
                }
                let mut inner = lock(&node.inner);
                let pid = inner.kubelet_pid;
                node.event(
                    &mut inner,
                    id,
                    "Stopping",
                    &format!("Sending SIGTERM to task kubelet (PID {pid}, container kubelet)"),
                );
                node.event(&mut inner, id, "Finished", "Service finished successfully");
            }
            Some(err) => {
                fresh_boot = false;
                loop {
                    {
                        let mut inner = lock(&node.inner);
                        let pid = node.kubelet_pid(&mut inner);
                        node.event(&mut inner, id, "Running", &runner_message(id, pid));
                        node.health_unknown(&mut inner, id);
                        let line = kubelet::command_failed_line(SystemTime::now(), pid, &err);
                        node.append_log(&mut inner, id, format!("{line}\n").as_bytes());
                        node.event(&mut inner, id, "Waiting", &kubelet::restart_event(&line));
                        node.health(&mut inner, id, false, NOT_RUNNING);
                    }
                    tokio::select! {
                        _ = tokio::time::sleep(node.timing.kubelet_restart) => {}
                        r = rx.changed() => {
                            if r.is_err() { return; }
                            let mut inner = lock(&node.inner);
                            node.event(&mut inner, id, "Stopping", "Aborting restart sequence");
                            node.event(&mut inner, id, "Finished", "Service finished successfully");
                            break;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker() -> Arc<Node> {
        Node::boot(
            Identity {
                hostname: "talos-default-worker-1".into(),
                address: IpAddr::from([10, 5, 0, 3]),
                machine_type: MachineType::Worker,
            },
            crate::WORKER_CONFIG.to_vec(),
            Vec::new(),
            None,
            Timing::default(),
        )
    }

    #[tokio::test]
    async fn dry_run_diff_is_redacted() {
        let node = worker();
        let old = String::from_utf8(crate::WORKER_CONFIG.to_vec()).unwrap();
        assert!(old.contains("    token: tbywgp.45p3jwyegg4gv2ch\n"));
        let new = old.replacen("    token: tbywgp.45p3jwyegg4gv2ch\n", "    token: zzzzzz.zzzzzzzzzzzzzzzz\n", 1);
        let out = node
            .apply(ApplyRequest { data: new.into_bytes(), mode: ApplyMode::Auto, dry_run: true, try_timeout: None })
            .await
            .unwrap();
        assert!(!out.details.contains("tbywgp") && !out.details.contains("zzzzzz"), "{}", out.details);
        assert!(out.details.contains("\n-    token: <redacted>\n+    token: <redacted>\n"), "{}", out.details);
        assert_eq!(node.config_state().1, 1, "a dry run changes nothing");
    }

    /// The simulator's `auto` answers what `talos_config::plan` predicts, change by change.
    #[tokio::test]
    async fn auto_mode_agrees_with_the_library_prediction() {
        let base = String::from_utf8(crate::WORKER_CONFIG.to_vec()).unwrap();
        let patches = [
            "machine:\n  nodeLabels:\n    pool: blue\n",
            "machine:\n  env:\n    A: b\n",
            "machine:\n  files:\n    - path: /var/f\n      content: x\n      op: create\n",
            "machine:\n  features:\n    kubePrism:\n      port: 7446\n",
            "machine:\n  features:\n    rbac: false\n",
            "machine:\n  install:\n    image: ghcr.io/siderolabs/installer:v1.13.9\n",
            "apiVersion: v1alpha1\nkind: HostnameConfig\nauto: off\nhostname: w1\n",
        ];
        for patch in patches {
            let node = worker();
            let source = talos_config::PatchSource::new("p", patch);
            let base_source = talos_config::PatchSource::new("base", base.clone());
            let new = talos_config::merge_sources(&base_source, &[source]).unwrap();
            let current = talos_config::Config::from_bytes(base.as_bytes()).unwrap();
            let predicted =
                talos_config::plan::plan_apply(&current, &talos_config::Config::from_bytes(&new).unwrap()).unwrap();
            let out = node
                .apply(ApplyRequest { data: new, mode: ApplyMode::Auto, dry_run: true, try_timeout: None })
                .await
                .unwrap();
            let expected = match predicted.auto {
                talos_config::plan::Outcome::NoReboot => ApplyMode::NoReboot,
                talos_config::plan::Outcome::Reboot => ApplyMode::Reboot,
            };
            assert_eq!(out.mode, expected, "{patch}");
        }
    }

    #[tokio::test]
    async fn pids_wrap_instead_of_overflowing() {
        let node = worker();
        let mut inner = lock(&node.inner);
        inner.next_pid = u32::MAX - 1;
        let pid = node.pid(&mut inner);
        assert_eq!(pid, (u32::MAX - 1).wrapping_add(1 + (u32::MAX - 1) % 7));
    }
}
