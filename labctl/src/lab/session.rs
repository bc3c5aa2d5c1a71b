//! One connection to a lab cluster (real or simulated) and the reads every step shares.

use std::collections::BTreeMap;
use std::time::Duration;

use talos_client::{ACTIVE_CONFIG_ID, LogsRequest, Target};
use talos_config::Config;
use talos_config::model::v1alpha1::Config as V1;

use super::env::{self, Containers, Env, NodeView, Ports};
use super::files::{OutDir, names};
use super::machined_log::{TryInLog, try_in_log};
use super::state::{ClusterMark, State, unix_now};
use super::try_guard::{self, Verdict};
use super::{ClusterArgs, LabError};
use crate::i18n::tr;

/// A connected lab: the environment, the output directory and, for `--sim`, the simulator itself.
pub struct Session {
    /// Where answers come from.
    pub env: Env,
    /// The lab's files.
    pub out: OutDir,
    /// The in-process simulator (`--sim`); dropping it stops the cluster.
    pub sim: Option<talos_sim::Sim>,
    /// A simulated cluster (`--sim`, `--sim-dir`)?
    pub simulated: bool,
    /// The talosconfig's first endpoint.
    pub endpoint: String,
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

impl Session {
    /// Connects as `args` says: the lab cluster (talosconfig, docker, node IPs), a simulator started by
    /// `labctl sim up --dir DIR`, or a new in-process simulator (`--sim`).
    pub async fn open(args: &ClusterArgs) -> Result<Session, LabError> {
        let out = OutDir::new(args.out_dir());
        let (talosconfig, containers, ports, sim) = if args.sim {
            let sim = talos_sim::Sim::start()
                .await
                .map_err(|e| LabError::new(tr!("session-sim-start", error = e.to_string())))?;
            (sim.talosconfig(), Containers::Simulated(sim.containers()), Ports::Mapped(sim.ports()), Some(sim))
        } else if let Some(dir) = &args.sim_dir {
            let found = talos_sim::SimEnv::read(dir).map_err(|e| LabError::new(e.to_string()))?;
            let talosconfig = env::load_talosconfig(Some(&found.talosconfig))?;
            (talosconfig, Containers::Simulated(found.containers), Ports::Mapped(found.ports), None)
        } else {
            let talosconfig = env::load_talosconfig(args.talosconfig.as_deref())?;
            (talosconfig, Containers::Docker { program: args.docker.clone() }, Ports::Direct, None)
        };
        let endpoint = talosconfig.context(None).ok().and_then(|c| c.endpoints.first().cloned()).unwrap_or_default();
        let talos = env::connect(&talosconfig).await?;
        let env = Env {
            talos,
            containers,
            ports,
            controlplane: args.controlplane.clone(),
            worker: args.worker.clone(),
            probe_timeout: Duration::from_secs(3),
        };
        let simulated = args.sim || args.sim_dir.is_some();
        Ok(Session { env, out, sim, simulated, endpoint })
    }

    /// Makes sure the output directory holds this cluster's results or none: a directory written by another
    /// cluster (simulated or real, another endpoint, a recreated cluster) is refused unless `force`.
    pub async fn claim_out_dir(&self, force: bool) -> Result<(), LabError> {
        let controlplane = self.env.controlplane.clone();
        let cluster_id = match self.machine_config(&controlplane).await {
            Ok(mc) => mc.v1alpha1().and_then(|v| v.cluster).map(|c| c.id).unwrap_or_default(),
            Err(_) => String::new(),
        };
        let here = ClusterMark { simulated: self.simulated, endpoint: self.endpoint.clone(), cluster_id };
        let mut state = State::load(&self.out)?;
        match &state.cluster {
            Some(mark) if *mark == here => Ok(()),
            Some(mark) if !force => {
                let other = if mark.simulated == here.simulated && mark.endpoint == here.endpoint {
                    tr!("session-recreated", cluster = mark.describe())
                } else {
                    mark.describe()
                };
                Err(LabError::new(tr!(
                    "session-other-cluster",
                    dir = self.out.dir().display().to_string(),
                    other = other,
                    here = here.describe()
                ))
                .note(tr!("session-keep-both"))
                .note(tr!("session-write-over", command = super::command_line())))
            }
            _ => {
                state.cluster = Some(here);
                state.save(&self.out)
            }
        }
    }

    /// The worker's active MachineConfig.
    pub async fn worker_config(&self) -> Result<WorkerConfig, LabError> {
        self.machine_config(&self.env.worker.clone()).await
    }

    /// A node's active MachineConfig.
    pub async fn machine_config(&self, node: &str) -> Result<WorkerConfig, LabError> {
        let mc = self.env.talos.machine_config(&Target::node(node), ACTIVE_CONFIG_ID).await?;
        let version = mc.version.parse::<u64>().map_err(|_| {
            let version = serde_json::to_string(&mc.version).unwrap_or_default();
            LabError::new(tr!("session-no-numeric-version", node = node, version = version))
        })?;
        Ok(WorkerConfig { bytes: mc.bytes, version })
    }

    /// A Kubernetes client from the kubeconfig of step 4.
    pub async fn kube(&self) -> Result<kube::Client, LabError> {
        let path = self.out.path(names::KUBECONFIG);
        if !path.exists() {
            return Err(LabError::new(tr!("session-no-kubeconfig", path = path.display().to_string())));
        }
        env::kube_client(&path).await
    }

    /// The Kubernetes Node whose InternalIP is `ip`.
    pub async fn node_by_ip(&self, kube: &kube::Client, ip: &str) -> Result<NodeView, LabError> {
        let nodes = env::list_nodes(kube).await?;
        let names: Vec<String> = nodes.iter().map(|n| n.name.clone()).collect();
        nodes
            .into_iter()
            .find(|n| n.internal_ip.as_deref() == Some(ip))
            .ok_or_else(|| LabError::new(tr!("session-no-node", ip = ip, nodes = names.join(", "))))
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

    /// Refuses to go on while a try-mode rollback is (or may still be) pending on `node`, unless `force`. A
    /// rollback that another request cancelled is said, since the try's config then stays active.
    pub async fn guard_pending_try(&self, node: &str, force: bool) -> Result<(), LabError> {
        let state = self.try_state(node).await?;
        let timeout_sec = match state {
            TryInLog::Pending { applied_at } | TryInLog::Cancelled { applied_at, .. } => {
                State::load(&self.out)?.try_timeout_near(node, applied_at)
            }
            TryInLog::Settled => None,
        };
        match try_guard::verdict(node, state, timeout_sec, unix_now()) {
            Verdict::Proceed => {}
            Verdict::Note(text) => eprintln!("{}", tr!("session-note", text = text)),
            Verdict::Refuse(e) if !force => return Err(e),
            Verdict::Refuse(e) => eprintln!("{}", tr!("session-forced", message = e.message)),
        }
        Ok(())
    }
}
