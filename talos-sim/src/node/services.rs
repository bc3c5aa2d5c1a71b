//! The services' state machine: per-service state, events and health, their COSI service
//! resources and change events, process ids, and `ServiceList`.

use std::collections::VecDeque;
use std::time::SystemTime;

use super::resources::{Change, ChangeKind, NS_RUNTIME, Resource, Spec, TYPE_SERVICE};
use super::{Inner, MachineType, Node, lock};

/// How many events a service keeps.
const MAX_EVENTS: usize = 64;

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

/// One service as the node holds it.
pub(super) struct Service {
    state: String,
    events: VecDeque<ServiceEvent>,
    health: Health,
    /// The service resource's version (bumped on every state or health change).
    pub(super) version: u64,
    created: SystemTime,
    updated: SystemTime,
}

impl Service {
    /// A service that has not started yet (`Initialized`, health unknown, no resource version).
    pub(super) fn initialized(now: SystemTime) -> Service {
        Service {
            state: "Initialized".into(),
            events: VecDeque::new(),
            health: Health { unknown: true, healthy: false, last_message: String::new(), last_change: now },
            version: 0,
            created: now,
            updated: now,
        }
    }
}

/// The services a node of type `t` runs, sorted by id.
pub(super) fn service_ids(t: MachineType) -> &'static [&'static str] {
    match t {
        MachineType::ControlPlane => &["apid", "containerd", "cri", "etcd", "kubelet", "machined", "trustd"],
        MachineType::Worker => &["apid", "containerd", "cri", "kubelet", "machined"],
    }
}

/// The `Running` event's message of service `id` started with process id `pid`.
pub(super) fn runner_message(id: &str, pid: u32) -> String {
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

impl Node {
    pub(super) fn pid(&self, inner: &mut Inner) -> u32 {
        inner.next_pid = inner.next_pid.wrapping_add(1 + inner.next_pid % 7);
        inner.next_pid
    }

    pub(super) fn kubelet_pid(&self, inner: &mut Inner) -> u32 {
        let pid = self.pid(inner);
        inner.kubelet_pid = pid;
        pid
    }

    pub(super) fn service_resource(&self, id: &str, s: &Service) -> Resource {
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

    pub(super) fn event(&self, inner: &mut Inner, id: &str, state: &str, msg: &str) {
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

    pub(super) fn health(&self, inner: &mut Inner, id: &str, healthy: bool, msg: &str) {
        if let Some(s) = inner.services.get_mut(id) {
            s.health =
                Health { unknown: false, healthy, last_message: msg.to_string(), last_change: SystemTime::now() };
        }
        self.touch_service(inner, id);
    }

    pub(super) fn health_unknown(&self, inner: &mut Inner, id: &str) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::worker;

    #[tokio::test]
    async fn pids_wrap_instead_of_overflowing() {
        let node = worker();
        let mut inner = lock(&node.inner);
        inner.next_pid = u32::MAX - 1;
        let pid = node.pid(&mut inner);
        assert_eq!(pid, (u32::MAX - 1).wrapping_add(1 + (u32::MAX - 1) % 7));
    }
}
