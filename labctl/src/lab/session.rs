//! One connection to a lab cluster (real or simulated) and the reads every step shares.

use std::collections::BTreeMap;
use std::time::Duration;

use talos_client::{ACTIVE_CONFIG_ID, LogsRequest, Target};
use talos_config::Config;
use talos_config::model::v1alpha1::Config as V1;

use super::env::{self, Containers, Env, NodeView, Ports};
use super::files::{OutDir, names};
use super::state::{State, unix_now};
use super::{ClusterArgs, LabError};

/// A connected lab: the environment, the output directory and, for `--sim`, the simulator itself.
pub struct Session {
    /// Where answers come from.
    pub env: Env,
    /// The lab's files.
    pub out: OutDir,
    /// The in-process simulator (`--sim`); dropping it stops the cluster.
    pub sim: Option<talos_sim::Sim>,
}

/// A worker MachineConfig read.
pub struct WorkerConfig {
    /// The config bytes.
    pub bytes: Vec<u8>,
    /// `metadata.version`.
    pub version: u64,
}

impl WorkerConfig {
    /// The decoded v1alpha1 document (`None` if the config does not load).
    pub fn v1alpha1(&self) -> Option<V1> {
        Config::from_bytes(&self.bytes).ok().and_then(|c| c.get::<V1>().cloned())
    }

    /// `machine.nodeLabels`.
    pub fn node_labels(&self) -> BTreeMap<String, String> {
        self.v1alpha1().and_then(|v| v.machine).map(|m| m.node_labels).unwrap_or_default()
    }

    /// `machine.kubelet.extraArgs`.
    pub fn kubelet_extra_args(&self) -> BTreeMap<String, Vec<String>> {
        self.v1alpha1()
            .and_then(|v| v.machine)
            .and_then(|m| m.kubelet)
            .map(|k| k.extra_args.to_map())
            .unwrap_or_default()
    }
}

/// A try-mode rollback a node has not done yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingTry {
    /// When the try apply was logged (seconds since the epoch, the node's clock).
    pub applied_at: u64,
    /// Its timeout, when labctl made it.
    pub timeout_sec: Option<u64>,
}

impl PendingTry {
    /// Why an apply is refused now.
    pub fn refusal(&self, node: &str) -> LabError {
        let at = clock(self.applied_at);
        let due = match self.timeout_sec {
            Some(t) => {
                let due = self.applied_at.saturating_add(t);
                let now = unix_now();
                let when = if due > now { format!("in {}s", due - now) } else { "overdue".to_string() };
                format!("applied at {at} UTC with a {t}s timeout: the rollback is due at {} UTC ({when})", clock(due))
            }
            None => format!(
                "applied at {at} UTC by another client: the rollback is due after its --timeout (talosctl's default is \
                 1m0s)"
            ),
        };
        LabError::new(format!(
            "a try-mode rollback is pending on {node} ({due}); applying another change now would cancel the rollback"
        ))
        .note("wait until the node has rolled back (`talosctl -n NODE logs machined` shows `rolling back the configuration`), then run the step again")
        .note("or pass --force to apply anyway and cancel the rollback")
    }
}

/// What a cancelled rollback means for the learner.
pub fn cancelled_text(node: &str, applied_at: u64, request_at: u64) -> String {
    format!(
        "the try-mode apply at {} UTC on {node} will not be rolled back: another apply request at {} UTC (even a \
         rejected one or a dry run) cancelled its rollback, so the try's config stays active",
        clock(applied_at),
        clock(request_at)
    )
}

/// `HH:MM:SS` of a Unix time (UTC).
pub fn clock(unix: u64) -> String {
    let s = unix % 86_400;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Unix seconds of a Go log timestamp `2026/08/25 10:15:42` (UTC).
pub fn parse_log_time(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() != 19 || b[4] != b'/' || b[7] != b'/' || b[10] != b' ' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let n = |r: std::ops::Range<usize>| text.get(r).and_then(|s| s.parse::<u64>().ok());
    let (y, mo, d, h, mi, s) = (n(0..4)?, n(5..7)?, n(8..10)?, n(11..13)?, n(14..16)?, n(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 || y < 1970 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if mo <= 2 { (y as i64 - 1, mo as i64 + 9) } else { (y as i64, mo as i64 - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + (h * 3600 + mi * 60 + s) as i64).ok()
}

/// What a node's machined log says about its last try-mode apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryInLog {
    /// No rollback is waiting: there was no try, it was rolled back, or an accepted apply replaced it.
    Settled,
    /// A try-mode apply logged at `applied_at` (Unix seconds, the node's clock) whose rollback is still to come.
    Pending {
        /// When the try was applied.
        applied_at: u64,
    },
    /// A try-mode apply followed by another ApplyConfiguration request that was not applied (rejected, or a dry
    /// run): machined cancels the rollback for every non-try request before it checks it, so the try's config
    /// stays. (A rejected try-mode request looks the same in the log but leaves the rollback armed.)
    Cancelled {
        /// When the try was applied.
        applied_at: u64,
        /// When the other request came.
        request_at: u64,
    },
}

/// Reads the `[talos]` apply and rollback lines and the gRPC access lines of ApplyConfiguration from a machined log.
pub fn try_in_log<'a>(lines: impl IntoIterator<Item = &'a str>) -> TryInLog {
    let mut state = TryInLog::Settled;
    // Whether the pending try's own access line has been seen (it follows its `apply config request` line).
    let mut own_access_seen = false;
    for line in lines {
        if let Some((ts, msg)) = timed(line, "[talos] ") {
            if let Some(mode) = msg.strip_prefix("apply config request: mode ") {
                state = if mode == "try" { TryInLog::Pending { applied_at: ts } } else { TryInLog::Settled };
                own_access_seen = false;
            } else if msg == "rolling back the configuration" || msg.starts_with("config rollback failed") {
                state = TryInLog::Settled;
            }
        } else if let Some((ts, msg)) = timed(line, "machined ") {
            if !is_apply_request_that_reached_the_handler(msg) {
                continue;
            }
            match state {
                TryInLog::Pending { .. } if !own_access_seen => own_access_seen = true,
                TryInLog::Pending { applied_at } => state = TryInLog::Cancelled { applied_at, request_at: ts },
                _ => {}
            }
        }
    }
    state
}

/// The time and the message of a Go std-log line with this prefix.
pub fn timed<'a>(line: &'a str, prefix: &str) -> Option<(u64, &'a str)> {
    let rest = line.strip_prefix(prefix)?;
    Some((parse_log_time(rest.get(..19)?)?, rest.get(20..)?))
}

/// `<Code> [/machine.MachineService/ApplyConfiguration] ...`, except the codes given before the handler runs
/// (authorization, a concurrent apply).
fn is_apply_request_that_reached_the_handler(access: &str) -> bool {
    let Some((code, rest)) = access.split_once(' ') else { return false };
    rest.starts_with("[/machine.MachineService/ApplyConfiguration] ")
        && !matches!(code, "PermissionDenied" | "Unauthenticated" | "FailedPrecondition")
}

impl Session {
    /// Connects as `args` says: the lab cluster (talosconfig, docker, node IPs), a simulator started by
    /// `labctl sim up --dir DIR`, or a new in-process simulator (`--sim`).
    pub async fn open(args: &ClusterArgs) -> Result<Session, LabError> {
        let out = OutDir::new(&args.out);
        let (talosconfig, containers, ports, sim) = if args.sim {
            let sim = talos_sim::Sim::start()
                .await
                .map_err(|e| LabError::new(format!("cannot start the simulated cluster: {e}")))?;
            (sim.talosconfig(), Containers::Simulated(sim.containers()), Ports::Mapped(sim.ports()), Some(sim))
        } else if let Some(dir) = &args.sim_dir {
            let found = talos_sim::SimEnv::read(dir).map_err(|e| LabError::new(e.to_string()))?;
            let talosconfig = env::load_talosconfig(Some(&found.talosconfig))?;
            (talosconfig, Containers::Simulated(found.containers), Ports::Mapped(found.ports), None)
        } else {
            let talosconfig = env::load_talosconfig(args.talosconfig.as_deref())?;
            (talosconfig, Containers::Docker { program: args.docker.clone() }, Ports::Direct, None)
        };
        let talos = env::connect(&talosconfig).await?;
        let env = Env {
            talos,
            containers,
            ports,
            controlplane: args.controlplane.clone(),
            worker: args.worker.clone(),
            probe_timeout: Duration::from_secs(3),
        };
        Ok(Session { env, out, sim })
    }

    /// The worker's active MachineConfig.
    pub async fn worker_config(&self) -> Result<WorkerConfig, LabError> {
        self.machine_config(&self.env.worker.clone()).await
    }

    /// A node's active MachineConfig.
    pub async fn machine_config(&self, node: &str) -> Result<WorkerConfig, LabError> {
        let mc = self.env.talos.machine_config(&Target::node(node), ACTIVE_CONFIG_ID).await?;
        let version = mc.version.parse::<u64>().map_err(|_| {
            LabError::new(format!("{node}: MachineConfig v1alpha1 has no numeric version ({:?})", mc.version))
        })?;
        Ok(WorkerConfig { bytes: mc.bytes, version })
    }

    /// A Kubernetes client from the kubeconfig of step 4.
    pub async fn kube(&self) -> Result<kube::Client, LabError> {
        let path = self.out.path(names::KUBECONFIG);
        if !path.exists() {
            return Err(LabError::new(format!("{} does not exist: run step 4 first", path.display())));
        }
        env::kube_client(&path).await
    }

    /// The Kubernetes Node whose InternalIP is `ip`.
    pub async fn node_by_ip(&self, kube: &kube::Client, ip: &str) -> Result<NodeView, LabError> {
        let nodes = env::list_nodes(kube).await?;
        let names: Vec<String> = nodes.iter().map(|n| n.name.clone()).collect();
        nodes.into_iter().find(|n| n.internal_ip.as_deref() == Some(ip)).ok_or_else(|| {
            LabError::new(format!("no Kubernetes Node has InternalIP {ip} (nodes: {})", names.join(", ")))
        })
    }

    /// Lines of a service's log on a node.
    pub async fn log_lines(&self, node: &str, id: &str, tail: u32) -> Result<Vec<String>, LabError> {
        let mut req = LogsRequest::service(id);
        req.tail = Some(tail);
        let lines = self.env.talos.logs_lines(&Target::node(node), &req).await?;
        Ok(lines.into_iter().map(|l| l.line).collect())
    }

    /// The state of the last try-mode apply on `node`, from its machined log.
    pub async fn try_state(&self, node: &str) -> Result<TryInLog, LabError> {
        let lines = self.log_lines(node, "machined", 5000).await?;
        Ok(try_in_log(lines.iter().map(String::as_str)))
    }

    /// Refuses to go on while a try-mode rollback is pending on `node`, unless `force`. A rollback that another
    /// request cancelled is said, since its try config stays active.
    pub async fn guard_pending_try(&self, node: &str, force: bool) -> Result<(), LabError> {
        match self.try_state(node).await? {
            TryInLog::Pending { applied_at } => {
                let timeout_sec = State::load(&self.out)?.try_timeout_near(node, applied_at);
                let pending = PendingTry { applied_at, timeout_sec };
                if !force {
                    return Err(pending.refusal(node));
                }
                eprintln!("warning: a try-mode rollback is pending on {node}; --force: applying anyway cancels it");
            }
            TryInLog::Cancelled { applied_at, request_at } => {
                eprintln!("note: {}", cancelled_text(node, applied_at, request_at))
            }
            TryInLog::Settled => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_log_times() {
        assert_eq!(parse_log_time("1970/01/01 00:00:00"), Some(0));
        assert_eq!(parse_log_time("2026/08/25 10:15:42"), Some(1_787_652_942));
        assert_eq!(parse_log_time("2026/13/25 10:15:42"), None);
        assert_eq!(parse_log_time("2026-08-25 10:15:42"), None);
        assert_eq!(clock(1_787_652_942), "10:15:42");
    }

    #[test]
    fn a_try_is_pending_until_a_rollback_or_an_accepted_apply() {
        let try_line = "[talos] 2026/08/25 10:15:42 apply config request: mode try";
        let own =
            "machined 2026/08/25 10:15:42 OK [/machine.MachineService/ApplyConfiguration] 3ms unary Success (a=b)";
        let pending = TryInLog::Pending { applied_at: 1_787_652_942 };
        assert_eq!(try_in_log([try_line, own]), pending);
        let rollback = "[talos] 2026/08/25 10:16:12 rolling back the configuration";
        assert_eq!(try_in_log([try_line, own, rollback]), TryInLog::Settled);
        let confirm = "[talos] 2026/08/25 10:16:00 apply config request: mode no_reboot";
        assert_eq!(try_in_log([try_line, own, confirm]), TryInLog::Settled);
        assert_eq!(try_in_log([confirm, try_line, own]), pending);
        assert_eq!(try_in_log([]), TryInLog::Settled);
    }

    #[test]
    fn a_later_request_that_applied_nothing_cancelled_the_rollback() {
        let try_line = "[talos] 2026/08/25 10:15:42 apply config request: mode try";
        let own =
            "machined 2026/08/25 10:15:42 OK [/machine.MachineService/ApplyConfiguration] 3ms unary Success (a=b)";
        let rejected = "machined 2026/08/25 10:15:50 InvalidArgument [/machine.MachineService/ApplyConfiguration] 1ms \
                        unary rpc error: code = InvalidArgument desc = 1 error occurred: (a=b)";
        let dry_run =
            "machined 2026/08/25 10:15:51 OK [/machine.MachineService/ApplyConfiguration] 2ms unary Success (a=b)";
        let cancelled = |at| TryInLog::Cancelled { applied_at: 1_787_652_942, request_at: at };
        assert_eq!(try_in_log([try_line, own, rejected]), cancelled(1_787_652_950));
        assert_eq!(try_in_log([try_line, own, dry_run, rejected]), cancelled(1_787_652_951));
        // Refused before machined's handler: nothing was cancelled.
        let busy = "machined 2026/08/25 10:15:50 FailedPrecondition [/machine.MachineService/ApplyConfiguration] 0s \
                    unary rpc error: code = FailedPrecondition desc = another apply configuration is already in \
                    progress (a=b)";
        let other_call = "machined 2026/08/25 10:15:50 OK [/machine.MachineService/Version] 1ms unary Success (a=b)";
        assert_eq!(try_in_log([try_line, own, busy, other_call]), TryInLog::Pending { applied_at: 1_787_652_942 });
        // A later accepted apply or a rollback settles it again.
        let confirm = "[talos] 2026/08/25 10:16:00 apply config request: mode no_reboot";
        assert_eq!(try_in_log([try_line, own, rejected, confirm]), TryInLog::Settled);
        assert_eq!(
            cancelled_text("10.5.0.3", 1_787_652_942, 1_787_652_950),
            "the try-mode apply at 10:15:42 UTC on 10.5.0.3 will not be rolled back: another apply request at \
             10:15:50 UTC (even a rejected one or a dry run) cancelled its rollback, so the try's config stays active"
        );
    }
}
