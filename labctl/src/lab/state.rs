//! labctl's own bookkeeping beside the lab files (`.labctl-state.json`): what the lab's files have no field for but
//! later steps need — the worker container's restart count when step 5 ran, and the try-mode applies labctl made
//! (so that a pending rollback can be reported with its due time).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::LabError;
use super::files::{OutDir, names};
use crate::i18n::tr;

/// The bookkeeping.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The worker container's `RestartCount` and `State.StartedAt` when step 5 applied its patch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_baseline: Option<RestartBaseline>,
    /// Try-mode applies, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tries: Vec<TryApply>,
    /// The cluster whose results the directory holds (set by the first `lab run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterMark>,
    /// The steps `lab run` finished (absent in folders of older labctl versions: then a step's file says it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed: Option<Vec<u8>>,
}

/// Which cluster wrote a lab directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterMark {
    /// A simulated cluster (`--sim`, `--sim-dir`) or the lab's own.
    pub simulated: bool,
    /// The talosconfig's first endpoint.
    pub endpoint: String,
    /// The control plane's `cluster.id` (empty when it could not be read).
    pub cluster_id: String,
}

impl ClusterMark {
    /// `a simulated cluster at 127.0.0.1:40123` / `the lab's cluster at 10.5.0.2`.
    pub fn describe(&self) -> String {
        let endpoint = self.endpoint.as_str();
        if self.simulated {
            tr!("state-simulated-cluster", endpoint = endpoint)
        } else {
            tr!("state-talos-cluster", endpoint = endpoint)
        }
    }
}

/// The worker container when step 5 ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestartBaseline {
    /// The container.
    pub container: String,
    /// Its `RestartCount` then.
    pub restart_count: u64,
    /// Its `State.StartedAt` then.
    pub started_at: String,
}

/// One try-mode apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TryApply {
    /// The node.
    pub node: String,
    /// When it was sent (seconds since the Unix epoch).
    pub applied_at: u64,
    /// The timeout in seconds.
    pub timeout_sec: u64,
}

impl State {
    /// Reads the state (empty when absent).
    pub fn load(out: &OutDir) -> Result<State, LabError> {
        Ok(out.read_json::<State>(names::STATE)?.unwrap_or_default())
    }

    /// Writes the state atomically.
    pub fn save(&self, out: &OutDir) -> Result<(), LabError> {
        out.write_json(names::STATE, self)
    }

    /// Records a try-mode apply to `node` now.
    pub fn record_try(&mut self, node: &str, timeout: Duration) {
        self.tries.push(TryApply { node: node.to_string(), applied_at: unix_now(), timeout_sec: timeout.as_secs() });
        let keep = self.tries.len().saturating_sub(16);
        self.tries.drain(..keep);
    }

    /// The timeout of the try-mode apply labctl made to `node` closest to `at` (within 5 s), if any.
    pub fn try_timeout_near(&self, node: &str, at: u64) -> Option<u64> {
        self.tries.iter().rev().find(|t| t.node == node && t.applied_at.abs_diff(at) <= 5).map(|t| t.timeout_sec)
    }
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}
