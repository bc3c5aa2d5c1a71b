//! One simulated Talos v1.13 node: machine config resources with Talos's version bookkeeping,
//! `ApplyConfiguration` semantics, services with states, health and events, log buffers, the
//! kubelet's crash loop on unknown flags, and COSI resource change events.
//!
//! Everything here is transport-free; `server` maps it onto gRPC.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;

use crate::util::go_log_time;

mod apply;
mod error;
mod kubelet;
mod logs;
mod resources;
mod services;

pub use apply::{ApplyHold, ApplyOutcome, ApplyRequest, can_apply_immediate};
pub use error::NodeError;
pub use kubelet::{KUBELET_WAITING, KubeletStatus, NOT_RUNNING, NodeReady};
pub use logs::LogRead;
pub use resources::{
    Change, ChangeKind, MemberSpec, NS_CLUSTER, NS_CONFIG, NS_RUNTIME, Resource, Spec, TYPE_MACHINE_CONFIG,
    TYPE_MEMBER, TYPE_SERVICE,
};
pub use services::{Health, ServiceEvent, ServiceInfo};
pub use talos_client::ApplyMode;

use kubelet::{kubelet_argv_of, kubelet_supervisor};
use logs::LogBuf;
use resources::ConfigRes;
use services::{Service, runner_message, service_ids};

/// Talos version the simulated nodes report.
pub const TAG: &str = "v1.13.10";
/// `git describe --abbrev=8` stand-in (v1.13.9's commit; v1.13.10's is unknown).
pub const SHA: &str = "3ebd10a7";
/// Go version of the simulated build.
pub const GO_VERSION: &str = "go1.26.6";

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

/// A node's mutable state, behind one lock.
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

/// A simulated node.
pub struct Node {
    /// Who the node is.
    pub identity: Identity,
    timing: Timing,
    members: Vec<MemberSpec>,
    kubeconfig: Option<Vec<u8>>,
    inner: Mutex<Inner>,
    apply_lock: Arc<tokio::sync::Mutex<()>>,
    changes: broadcast::Sender<Change>,
    kubelet_argv: watch::Sender<Vec<String>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node").field("identity", &self.identity).finish_non_exhaustive()
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
            logs.insert(id.to_string(), LogBuf::empty());
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
            apply_lock: Arc::new(tokio::sync::Mutex::new(())),
            changes,
            kubelet_argv,
            tasks: Mutex::new(Vec::new()),
        });
        {
            let mut inner = lock(&node.inner);
            for id in service_ids(node.identity.machine_type) {
                inner.services.insert(id.to_string(), Service::initialized(now));
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

    /// Subscribes to resource changes.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    /// The node's timings.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// The admin kubeconfig as a gzip tar (control plane only).
    pub fn kubeconfig(&self) -> Result<Vec<u8>, NodeError> {
        self.kubeconfig
            .clone()
            .ok_or_else(|| NodeError::Unimplemented("kubeconfig is only available on control plane nodes".into()))
    }

    /// When the node booted (its first config's creation).
    pub fn booted(&self) -> SystemTime {
        lock(&self.inner).active.created
    }

    /// The resources of a type in a namespace, sorted by id; none for a type the node does not
    /// hold there. (Talos's access filter, which refuses unknown types and namespaces, is the
    /// API's: `catalog::check_read`.)
    pub fn list(&self, namespace: &str, r#type: &str) -> Result<Vec<Resource>, NodeError> {
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
    pub fn get(&self, namespace: &str, r#type: &str, id: &str) -> Result<Resource, NodeError> {
        self.list(namespace, r#type)?.into_iter().find(|r| r.id == id).ok_or_else(|| {
            NodeError::NotFound(format!("resource {}({namespace}/{id}@undefined) doesn't exist", r#type))
        })
    }

    /// The active config bytes and both versions (active, persistent).
    pub fn config_state(&self) -> (Vec<u8>, u64, Option<u64>) {
        let inner = lock(&self.inner);
        (inner.active.bytes.clone(), inner.active.version, inner.persistent.as_ref().map(|p| p.version))
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A booted worker with the lab's worker config, for the submodules' tests.
#[cfg(test)]
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
