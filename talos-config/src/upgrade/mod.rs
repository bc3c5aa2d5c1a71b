//! Before the upgrade: what a config set (a base and its patches, as [`check`] takes them) means
//! on another Talos release, found offline.
//!
//! [`upgrade`] checks the set as both releases would (merge, Talos's validation, lint) and
//! reports the difference as [`Diagnostic`]s with their own rules, each at the input line that
//! wrote the value:
//!
//! - `upgrade-unknown` (error): a document kind or a field the target release does not know;
//!   Talos names only the first, this names each one;
//! - `upgrade-new` and `upgrade-gone`: a diagnostic (Talos's error or warning, or a lint
//!   finding) that only the target release gives, or that it no longer gives;
//! - `upgrade-merge`: the same inputs merge into another value on the target release (its
//!   patcher and encoder rules differ);
//! - `upgrade-moves` (info): a setting the target release reads from another place (from
//!   v1.14, a Kubernetes setting of the v1alpha1 document that has its own document), with the
//!   document and field it belongs in ([`Move`]).
//!
//! ```
//! use talos_config::upgrade::{UpgradeOptions, upgrade};
//! use talos_config::{PatchSource, Release};
//!
//! let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
//! let patch = PatchSource::new("kubelet.yaml", "apiVersion: v1alpha1\nkind: KubeletConfig\nextraArgs:\n  max-pods: \"150\"\n");
//! let back = UpgradeOptions { from: Release::V1_14_0_RC1, to: Release::V1_13_9, ..UpgradeOptions::default() };
//! let report = upgrade(&base, &[patch], &back)?;
//! assert!(report.refused());
//! assert_eq!(
//!     report.diagnostics()[0].to_string(),
//!     "kubelet.yaml:2:1: error[upgrade-unknown]: Talos v1.13.9 has no KubeletConfig document"
//! );
//! # Ok::<(), talos_config::Error>(())
//! ```

mod groups;
mod groups_cluster;
mod groups_machine;
mod plan;
mod rewrite;
mod unknown;

pub use rewrite::{Move, RewriteError, Rewritten, rewrite};

use crate::lint::Rule;
use crate::net::Prefix;
use crate::{CheckOptions, Checked, Checks, Diagnostic, Error, Mode, PatchSource, Release, Severity, check};

/// The rule of a document kind or field the target release does not know.
pub const UNKNOWN_RULE: &str = "upgrade-unknown";
/// The rule of a diagnostic only the target release gives.
pub const NEW_RULE: &str = "upgrade-new";
/// The rule of a diagnostic the target release no longer gives.
pub const GONE_RULE: &str = "upgrade-gone";
/// The rule of a value the inputs merge into differently on the target release.
pub const MERGE_RULE: &str = "upgrade-merge";
/// The rule of a setting the target release reads from another document.
pub const MOVES_RULE: &str = "upgrade-moves";

/// Every rule an upgrade diagnostic can carry, documented, in report order.
///
/// ```
/// let ids: Vec<&str> = talos_config::upgrade::rules().iter().map(|r| r.id).collect();
/// assert_eq!(ids, ["upgrade-unknown", "upgrade-new", "upgrade-merge", "upgrade-moves", "upgrade-gone"]);
/// ```
pub fn rules() -> &'static [Rule] {
    RULES
}

const RULES: &[Rule] = &[
    Rule {
        id: UNKNOWN_RULE,
        severity: Severity::Error,
        summary: "A document kind or field the target release does not have.",
        why: "The target release's loader refuses the whole config at the first one it meets; this names each one, \
              at the input line that wrote it.",
        example: "apiVersion: v1alpha1\nkind: KubeletConfig   # going back from v1.14 to v1.13.9",
        fix: "Remove it, or express it the target release's way, before the nodes run that release.",
    },
    Rule {
        id: NEW_RULE,
        severity: Severity::Error,
        summary: "A problem only the target release reports (Talos's validation, its merge, or a lint rule); \
                  the severity is the target's.",
        why: "The target release checks more, or differently: a node running it refuses (or warns about) a config \
              the current release accepts.",
        example: "machine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true]   # a list, refused by v1.12",
        fix: "Fix what the message says before the upgrade; the message is the target release's own.",
    },
    Rule {
        id: MERGE_RULE,
        severity: Severity::Warning,
        summary: "The same inputs merge into another value on the target release.",
        why: "The patcher and encoder rules change between releases (an absent `$patch: delete`, a repeated \
              document, an omitted empty field): the node ends with another config from the same patches.",
        example: "apiVersion: v1alpha1\nkind: NetworkDefaultActionConfig\n$patch: delete   # absent: added before \
                  v1.14, skipped from it",
        fix: "Check that the target release's value is what the node should run; change the patch if not.",
    },
    Rule {
        id: MOVES_RULE,
        severity: Severity::Info,
        summary: "A setting the target release reads from its own document.",
        why: "From v1.14 the Kubernetes settings of the v1alpha1 document have documents of their own; the old \
              place still works through Talos's bridge, and a document of the new kind replaces it.",
        example: "machine:\n  kubelet:\n    extraArgs:\n      max-pods: \"150\"   # KubeletConfig: extraArgs",
        fix: "`labctl upgrade --rewrite` writes the same settings in the target release's documents.",
    },
    Rule {
        id: GONE_RULE,
        severity: Severity::Info,
        summary: "A problem the current release reports and the target release no longer does.",
        why: "The target release dropped or relaxed a check, or words it differently (then it is also an \
              `upgrade-new`).",
        example: "machine:\n  install: null   # required up to v1.13, not from v1.14",
        fix: "Nothing to do; worth knowing if a workaround for it can go.",
    },
];

/// What [`upgrade`] compares.
///
/// ```
/// use talos_config::upgrade::UpgradeOptions;
/// use talos_config::Release;
/// let options = UpgradeOptions { to: Release::V1_14_0_RC1, ..UpgradeOptions::default() };
/// assert_eq!(options.from, Release::DEFAULT);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpgradeOptions {
    /// The release the nodes run now (default: the default release).
    pub from: Release,
    /// The release they will run (default: the default release).
    pub to: Release,
    /// The runtime mode Talos's validation runs for (default `container`).
    pub mode: Mode,
    /// Address ranges the cluster must not use (lint's `subnet-overlap`).
    pub host_ranges: Vec<Prefix>,
}

impl Default for UpgradeOptions {
    fn default() -> UpgradeOptions {
        UpgradeOptions { from: Release::DEFAULT, to: Release::DEFAULT, mode: Mode::Container, host_ranges: Vec::new() }
    }
}

/// What [`upgrade`] found: the set checked as each release, and the differences.
#[derive(Clone, Debug)]
pub struct Upgrade {
    before: Checked,
    after: Checked,
    diagnostics: Vec<Diagnostic>,
}

impl Upgrade {
    /// The set checked as the release the nodes run now.
    pub fn before(&self) -> &Checked {
        &self.before
    }

    /// The set checked as the target release.
    pub fn after(&self) -> &Checked {
        &self.after
    }

    /// The differences, in this order: what the target does not know, what only it reports (in
    /// its order), values that merge differently, settings that move, what it no longer
    /// reports.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// How many differences have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity() == severity).count()
    }

    /// Whether the target release refuses the set: a document or field it does not know, a
    /// patch it cannot apply, or one of its validation errors.
    pub fn refused(&self) -> bool {
        let refusal = |d: &Diagnostic| d.severity() == Severity::Error && d.is_talos();
        self.after.diagnostics().iter().any(refusal) || self.diagnostics.iter().any(|d| d.rule() == UNKNOWN_RULE)
    }
}

/// Checks `base` and `patches` as `options.from` and as `options.to` would (merge, validation,
/// lint) and reports what differs. Nothing is written.
///
/// ```
/// use talos_config::upgrade::{UpgradeOptions, upgrade};
/// use talos_config::{PatchSource, Release};
///
/// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let same = upgrade(&base, &[], &UpgradeOptions::default())?;
/// assert!(same.diagnostics().is_empty());
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn upgrade(base: &PatchSource, patches: &[PatchSource], options: &UpgradeOptions) -> Result<Upgrade, Error> {
    let as_release = |release| CheckOptions {
        mode: options.mode,
        strict: false,
        host_ranges: options.host_ranges.clone(),
        checks: Checks::Lint,
        release,
    };
    let before = check(base, patches, &as_release(options.from))?;
    let after = check(base, patches, &as_release(options.to))?;
    let mut diagnostics = Vec::new();
    if let Some(merged) = before.merged() {
        diagnostics.extend(unknown::find(merged, options.to));
    }
    diagnostics.extend(appeared(&before, &after, options.to));
    diagnostics.extend(merged_differently(&before, &after, options.to));
    if let Some(merged) = before.merged() {
        diagnostics.extend(rewrite::diagnostics(&rewrite::moves(merged, options.to), options.to));
    }
    diagnostics.extend(gone(&before, &after, options.to));
    crate::lint::locate(&mut diagnostics, base, patches);
    // A kind the target lacks was located at its `kind:` key; the finding is the whole document.
    for d in diagnostics.iter_mut().filter(|d| d.rule() == UNKNOWN_RULE && d.field() == Some(&unknown::kind_key())) {
        d.clear_field();
    }
    Ok(Upgrade { before, after, diagnostics })
}

/// Whether two diagnostics say the same thing about the same place.
fn same(a: &Diagnostic, b: &Diagnostic) -> bool {
    a.rule() == b.rule()
        && a.severity() == b.severity()
        && a.message() == b.message()
        && a.document() == b.document()
        && a.field() == b.field()
}

/// The target's diagnostics the current release does not give, as `upgrade-new` with the
/// target's severity and text.
fn appeared(before: &Checked, after: &Checked, to: Release) -> Vec<Diagnostic> {
    let new = after.diagnostics().iter().filter(|d| !before.diagnostics().iter().any(|b| same(b, d)));
    new.map(|d| restated(d, NEW_RULE, d.severity(), &format!("on Talos {to}: {}", rule_words(d)))).collect()
}

/// The current release's diagnostics the target no longer gives, as `upgrade-gone` infos.
fn gone(before: &Checked, after: &Checked, to: Release) -> Vec<Diagnostic> {
    let old = before.diagnostics().iter().filter(|d| !after.diagnostics().iter().any(|a| same(a, d)));
    old.map(|d| restated(d, GONE_RULE, Severity::Info, &format!("Talos {to} no longer reports: {}", rule_words(d))))
        .collect()
}

/// `<message> (talos-validation error)`: what the diagnostic was, in its own words.
fn rule_words(d: &Diagnostic) -> String {
    format!("{} ({} {})", d.message(), d.rule(), d.severity())
}

/// `d` under another rule, severity and message, at the same place, with the same fix.
fn restated(d: &Diagnostic, rule: &str, severity: Severity, message: &str) -> Diagnostic {
    let mut out = Diagnostic::new(rule, severity, message).with_site(d.site().cloned());
    if let Some(document) = d.document() {
        out = out.at(document.clone(), d.field().cloned());
    }
    match d.fix() {
        Some(fix) => out.with_fix(fix),
        None => out,
    }
}

/// Values the inputs merge into differently on the target release (both merges succeeded),
/// compared with secrets redacted.
fn merged_differently(before: &Checked, after: &Checked, to: Release) -> Vec<Diagnostic> {
    let (Some(a), Some(b)) = (before.config(), after.config()) else {
        return Vec::new();
    };
    // `null` and absent mean the same to Talos (v1.14 omits an empty `cluster.controlPlane`).
    let same_meaning = |v: &Option<String>| v.as_deref().is_none_or(|v| v == "null");
    crate::diff::compare(a, b)
        .changes
        .into_iter()
        .filter(|change| !(same_meaning(&change.old) && same_meaning(&change.new)))
        .map(|change| {
            let shown = |v: &Option<String>| v.as_deref().map_or("(absent)".to_string(), one_line);
            let message =
                format!("merges differently on Talos {to}: {} becomes {}", shown(&change.old), shown(&change.new));
            Diagnostic::new(MERGE_RULE, Severity::Warning, message)
                .at(change.document, Some(change.path))
                .with_fix("check that the target release's value is what the node should run")
        })
        .collect()
}

/// A value's YAML on one line: its first line, `...` when there are more.
fn one_line(text: &str) -> String {
    let mut lines = text.trim_end().lines();
    let first = lines.next().unwrap_or_default();
    if lines.next().is_some() { format!("{first} ...") } else { first.to_string() }
}
