//! `ApplyConfiguration`: validation, mode resolution (`CanApplyImmediate`), dry runs, the
//! active and persistent config updates, and try mode's rollback timer.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use talos_client::ApplyMode;

use super::error::NodeError;
use super::kubelet::kubelet_argv_of;
use super::resources::{Change, ChangeKind, ConfigRes};
use super::{Inner, Node, lock};
use crate::util::go_duration;

/// Applies on a node refused while this lives ([`Node::hold_applies`]).
#[derive(Debug)]
pub struct ApplyHold {
    _guard: tokio::sync::OwnedMutexGuard<()>,
}

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

/// Talos's dry-run diff of two configs (their comment-less encodings), with the values of
/// Talos's secret fields shown as `REDACTED`; `None` when equal. A config that does not load
/// (never the active one; a new one is validated first) is compared as its raw text.
fn redacted_diff(old: &[u8], new: &[u8]) -> Option<String> {
    let diff = match (talos_config::Config::from_bytes(old), talos_config::Config::from_bytes(new)) {
        (Ok(a), Ok(b)) => talos_config::diff::redacted_text_diff(&a, &b),
        _ => talos_config::diff::unified(&String::from_utf8_lossy(old), &String::from_utf8_lossy(new)),
    };
    (!diff.is_empty()).then_some(diff)
}

/// `CanApplyImmediate`: the library's prediction (`talos_config::plan`, Talos v1.13.9's rule),
/// so that the simulator and `labctl plan` always agree. The refusal's diff has the values of
/// Talos's secret fields replaced by `REDACTED` (README).
pub fn can_apply_immediate(old: &[u8], new: &[u8]) -> Result<(), String> {
    let (Ok(current), Ok(next)) = (talos_config::Config::from_bytes(old), talos_config::Config::from_bytes(new)) else {
        return Err("this config change can't be applied in immediate mode\ndiff:\n".to_string());
    };
    let plan = talos_config::plan::plan_apply(&current, &next).map_err(|e| e.to_string())?;
    match plan.refusal {
        None => Ok(()),
        Some(text) => Err(plan.redacted_refusal.unwrap_or(text)),
    }
}

impl Node {
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

    /// A fault switch (for tests and rehearsal): while the returned guard lives, every
    /// `ApplyConfiguration` on this node is refused as when another apply is running, with
    /// Talos's `FailedPrecondition` text. `None` while an apply is running.
    pub fn hold_applies(&self) -> Option<ApplyHold> {
        Arc::clone(&self.apply_lock).try_lock_owned().ok().map(|guard| ApplyHold { _guard: guard })
    }

    /// `MachineService.ApplyConfiguration` on this node (docs/validation.md §9.2).
    pub async fn apply(self: &Arc<Self>, req: ApplyRequest) -> Result<ApplyOutcome, NodeError> {
        let Ok(_guard) = self.apply_lock.try_lock() else {
            return Err(NodeError::FailedPrecondition("another apply configuration is already in progress".into()));
        };
        // Like machined, any request that is not in try mode cancels a pending rollback before anything else: a
        // request that is then rejected, or a dry run, cancels it too.
        if req.mode != ApplyMode::Try {
            self.cancel_try(&mut lock(&self.inner));
        }
        let warnings = talos_config::node::check_apply(&req.data, talos_config::Mode::Container, true)
            .map_err(|r| NodeError::InvalidArgument(r.message))?;
        let mut inner = lock(&self.inner);
        let immediate = can_apply_immediate(&inner.active.bytes, &req.data);
        let resolved = match (req.mode, &immediate) {
            (ApplyMode::NoReboot | ApplyMode::Try, Err(reason)) => {
                return Err(NodeError::InvalidArgument(reason.clone()));
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
            let diff = redacted_diff(&inner.active.bytes, &req.data).unwrap_or_else(|| "No changes.".to_string());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::worker;

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
        assert!(out.details.contains("\n-    token: REDACTED\n+    token: REDACTED\n"), "{}", out.details);
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
}
