//! The kubelet service: its argv from the config, its supervisor (restart on an argv change,
//! crash loop while it rejects a flag), and the availability the Kubernetes Node's `Ready`
//! condition is computed from.

use std::sync::Arc;
use std::time::SystemTime;

use tokio::sync::watch;

use super::services::runner_message;
use super::{Identity, Node, lock};
use crate::kubelet;

/// Kubelet health probe text while the kubelet is down.
pub const NOT_RUNNING: &str = "service not running";
/// The kubelet's `Waiting for ...` condition text.
pub const KUBELET_WAITING: &str = "Waiting for volumes /var/lib, /var/lib/kubelet, /var/log, /var/log/audit, /var/log/containers, /var/log/pods, /var/lib/kubelet/seccomp, /var/lib/kubelet/seccomp/profiles, /var/log/audit/kube, /var/mnt to be mounted, service \"cri\" to be \"up\", time sync, network";

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

/// The kubelet argv for `bytes`, or `None` when the config does not parse or Talos would refuse
/// the extraArgs (the KubeletSpec is then left as it was).
pub(super) fn kubelet_argv_of(bytes: &[u8], identity: &Identity) -> Option<Vec<String>> {
    let config = talos_config::Config::from_bytes(bytes).ok()?;
    let v1 = config.get::<talos_config::model::v1alpha1::Config>()?;
    let extra = v1.machine.as_ref().and_then(|m| m.kubelet.as_ref()).map(|k| k.extra_args.to_map()).unwrap_or_default();
    kubelet::argv(&extra, &identity.hostname, &identity.address.to_string()).ok()
}

impl Node {
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
    /// or has been down for less than [`Timing::node_monitor_grace`](super::Timing::node_monitor_grace),
    /// `Unknown` afterwards.
    pub fn node_ready(&self, now: SystemTime) -> NodeReady {
        let status = self.kubelet_status();
        match status.down_since {
            Some(down) if now.duration_since(down).unwrap_or_default() >= self.timing.node_monitor_grace => {
                NodeReady { ready: false, since: down + self.timing.node_monitor_grace, heartbeat: down }
            }
            _ => NodeReady { ready: true, since: status.ready_since, heartbeat: status.ready_since },
        }
    }
}

/// Runs the kubelet service: restarts it whenever its argv changes, crash-loops (Waiting,
/// health failing, a restart every `kubelet_restart`) while the kubelet rejects a flag.
pub(super) async fn kubelet_supervisor(node: Arc<Node>, mut rx: watch::Receiver<Vec<String>>) {
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
