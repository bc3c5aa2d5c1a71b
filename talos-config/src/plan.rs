//! What a node will do with a new config before it is sent: whether `talosctl apply-config`
//! with `--mode auto` applies it live or reboots, and which fields force the reboot.
//!
//! The rule is Talos v1.13.9's `CanApplyImmediate` (docs/explain.md): only the legacy v1alpha1
//! document counts; in the new one, `debug` and `cluster` are taken from the current config, and
//! so are 18 `machine` fields when both configs have a `machine` section and 5
//! `machine.features` fields when both have `features`; any other difference needs a reboot.
//! Other documents never do.
//!
//! ```
//! use talos_config::Config;
//! use talos_config::plan::{Outcome, plan_apply};
//!
//! let current = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n")?;
//! let labels = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    pool: blue\n")?;
//! assert_eq!(plan_apply(&current, &labels).unwrap().auto, Outcome::NoReboot);
//!
//! let env = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  env:\n    A: b\n")?;
//! let plan = plan_apply(&current, &env).unwrap();
//! assert_eq!(plan.auto, Outcome::Reboot);
//! assert_eq!(plan.reboot_fields[0].to_string(), "machine.env");
//! # Ok::<(), talos_config::Error>(())
//! ```

use talos_yaml::Node;

use crate::Config;
use crate::document::Hooks;
use crate::model::v1alpha1::Config as V1;
use crate::provenance::FieldPath;

/// What `--mode auto` resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Applied live: `Applied configuration without a reboot`.
    NoReboot,
    /// Saved, then the node reboots: `Applied configuration with a reboot`.
    Reboot,
}

/// The prediction for one config change.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApplyPlan {
    /// What `--mode auto` does.
    pub auto: Outcome,
    /// For a reboot, every changed legacy-document field that forces it (the smallest changed
    /// section: an added `machine.env` is one path). Empty for [`Outcome::NoReboot`].
    pub reboot_fields: Vec<FieldPath>,
    /// For a reboot, the node's answer to `--mode no-reboot` and `--mode try`
    /// (`this config change can't be applied in immediate mode` and Talos's diff). Like Talos's
    /// own text it may contain secrets that changed; print it only where the config itself may
    /// be shown.
    pub refusal: Option<String>,
    /// [`ApplyPlan::refusal`] with the values of the secret fields replaced by `REDACTED` (as
    /// [`crate::diff::compare`] hides them): the text to show where secrets must not be.
    pub redacted_refusal: Option<String>,
}

impl ApplyPlan {
    /// Whether `--mode no-reboot` (and `--mode try`, which needs the same) would be accepted.
    pub fn live_possible(&self) -> bool {
        self.auto == Outcome::NoReboot
    }
}

/// Predicts what a node running `current` does with `new` (`CanApplyImmediate`, outside
/// maintenance mode, where every change is live). `Err` carries Talos's text when either config
/// has no v1alpha1 document (`current config is not v1alpha1` / `new config is not v1alpha1`).
pub fn plan_apply(current: &Config, new: &Config) -> Result<ApplyPlan, crate::Error> {
    let not_v1 = |which: &str| crate::Error::invalid_value(format!("{which} config is not v1alpha1"));
    let cur = current.get::<V1>().ok_or_else(|| not_v1("current"))?;
    let mut new = new.get::<V1>().ok_or_else(|| not_v1("new"))?.clone();
    keep_live_fields(cur, &mut new);
    if *cur == new {
        return Ok(ApplyPlan {
            auto: Outcome::NoReboot,
            reboot_fields: Vec::new(),
            refusal: None,
            redacted_refusal: None,
        });
    }
    let release = current.release();
    let (before, after) = (cur.encode_for(release), new.encode_for(release));
    let mut found = Vec::new();
    crate::diff::tree_changes(&before, &after, &FieldPath::root(), &mut found);
    let reboot_fields = found.into_iter().map(|(path, _, _)| path).collect();
    let (mut hidden_before, mut hidden_after) = (before.clone(), after.clone());
    crate::redact::redact_document("v1alpha1", &mut hidden_before);
    crate::redact::redact_document("v1alpha1", &mut hidden_after);
    let dialect = release.yaml();
    let (before, after) = (emit(before, dialect), emit(after, dialect));
    let refusal = |diff: String| format!("this config change can't be applied in immediate mode\ndiff:\n{diff}");
    Ok(ApplyPlan {
        auto: Outcome::Reboot,
        reboot_fields,
        refusal: Some(refusal(crate::diff::unified(&before, &after))),
        redacted_refusal: Some(refusal(crate::diff::unified_shown(
            &before,
            &after,
            &emit(hidden_before, dialect),
            &emit(hidden_after, dialect),
        ))),
    })
}

/// Copies into `new` the fields a node applies live, so that only the others are compared.
fn keep_live_fields(cur: &V1, new: &mut V1) {
    new.debug = cur.debug;
    new.cluster.clone_from(&cur.cluster);
    let (Some(cm), Some(nm)) = (cur.machine.as_ref(), new.machine.as_mut()) else { return };
    nm.ca.clone_from(&cm.ca);
    nm.accepted_cas.clone_from(&cm.accepted_cas);
    nm.time.clone_from(&cm.time);
    nm.cert_sans.clone_from(&cm.cert_sans);
    nm.install.clone_from(&cm.install);
    nm.network.clone_from(&cm.network);
    nm.sysfs.clone_from(&cm.sysfs);
    nm.sysctls.clone_from(&cm.sysctls);
    nm.logging.clone_from(&cm.logging);
    nm.control_plane.clone_from(&cm.control_plane);
    nm.kubelet.clone_from(&cm.kubelet);
    nm.kernel.clone_from(&cm.kernel);
    nm.registries.clone_from(&cm.registries);
    nm.pods.clone_from(&cm.pods);
    nm.seccomp_profiles.clone_from(&cm.seccomp_profiles);
    nm.node_annotations.clone_from(&cm.node_annotations);
    nm.node_labels.clone_from(&cm.node_labels);
    nm.node_taints.clone_from(&cm.node_taints);
    let (Some(cf), Some(nf)) = (cm.features.as_ref(), nm.features.as_mut()) else { return };
    nf.kubernetes_talos_api_access.clone_from(&cf.kubernetes_talos_api_access);
    nf.kube_prism.clone_from(&cf.kube_prism);
    nf.host_dns.clone_from(&cf.host_dns);
    nf.image_cache.clone_from(&cf.image_cache);
    nf.node_address_sort_algorithm.clone_from(&cf.node_address_sort_algorithm);
}

/// One document printed as the release's Talos prints it with comments disabled.
fn emit(node: Node, dialect: crate::yaml::Dialect) -> String {
    crate::yaml::emit_v4::emit_v4_in(&node, dialect)
}
