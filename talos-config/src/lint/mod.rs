//! Lint: what Talos accepts and the node then breaks on, found offline.
//!
//! The rules run through `talos_config::check` with `Checks::Lint`: it merges the inputs exactly
//! like `merge_sources`, validates the result like `talosctl validate` (its errors stay errors,
//! with Talos's text), then runs every rule of [`rules`]. Each finding is a `Diagnostic` with
//! the field path it is about and the input, line and column that set that value.
//!
//! ```
//! use talos_config::{CheckOptions, Checks, PatchSource, Severity, check};
//!
//! let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
//! let patch = PatchSource::new("08-kubelet.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n");
//! let options = CheckOptions { checks: Checks::Lint, ..CheckOptions::default() };
//! let checked = check(&base, &[patch], &options)?;
//! let finding = checked.diagnostics().iter().find(|d| d.rule() == "kubelet-unknown-flag").unwrap();
//! assert_eq!(finding.severity(), Severity::Error);
//! assert_eq!(finding.field().unwrap().to_string(), "machine.kubelet.extraArgs.max-pod");
//! assert_eq!(finding.site().unwrap().to_string(), "08-kubelet.yaml:4:7");
//! assert_eq!(finding.fix(), Some("did you mean `max-pods`? Rename the key."));
//! # Ok::<(), talos_config::Error>(())
//! ```

mod bridge;
mod cx;
mod more;
mod rules;

use crate::net::Prefix;
use crate::provenance::Provenance;
use crate::{Config, Diagnostic, DocumentId, FieldPath, PatchSource, Severity, Site};

/// One problem a rule found, before it becomes a [`Diagnostic`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) rule: &'static str,
    pub(crate) severity: Severity,
    pub(crate) message: String,
    pub(crate) document: DocumentId,
    pub(crate) path: Option<FieldPath>,
    pub(crate) site: Option<Site>,
    pub(crate) suggestion: Option<String>,
    /// The key the suggestion renames the reported key to.
    pub(crate) rename: Option<String>,
}

impl Finding {
    fn into_diagnostic(self) -> Diagnostic {
        let d =
            Diagnostic::new(self.rule, self.severity, self.message).at(self.document, self.path).with_site(self.site);
        let d = d.with_rename(self.rename);
        match self.suggestion {
            Some(fix) => d.with_fix(fix),
            None => d,
        }
    }
}

/// A lint rule, documented: what it finds, why it matters, an example and the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rule {
    /// The id its diagnostics carry ([`Diagnostic::rule`]).
    pub id: &'static str,
    /// The severity of its main finding.
    pub severity: Severity,
    /// What it finds.
    pub summary: &'static str,
    /// Why Talos does not catch it, and what happens on the node.
    pub why: &'static str,
    /// A patch that triggers it.
    pub example: &'static str,
    /// How to fix it.
    pub fix: &'static str,
}

/// Every rule a diagnostic of `Checks::Lint` can carry but `talos-merge` (a merge error),
/// documented, in the order their diagnostics are reported: Talos's own validation
/// (`talos-validation`, `talos-warning`) first, then the lint rules.
///
/// ```
/// let ids: Vec<&str> = talos_config::lint::rules().iter().map(|r| r.id).collect();
/// assert_eq!(ids[..3], ["talos-validation", "talos-warning", "kubelet-unknown-flag"]);
/// ```
pub fn rules() -> &'static [Rule] {
    rules::RULES
}

/// What the rules are told beyond the inputs.
pub(crate) struct LintOptions<'a> {
    pub(crate) host_ranges: &'a [Prefix],
}

/// Runs the rules on the merged `config`, in the order of [`rules`]; positions come later
/// ([`locate`]).
pub(crate) fn run(config: &Config, patches: &[PatchSource], host_ranges: &[Prefix]) -> Vec<Diagnostic> {
    let options = LintOptions { host_ranges };
    let cx = cx::Cx { config, options: &options, patches };
    run_rules(&cx).into_iter().map(Finding::into_diagnostic).collect()
}

/// Gives each diagnostic without a position the input position of its field. The inputs are
/// traced only when some diagnostic needs a position, so a clean config costs nothing more.
pub(crate) fn locate(diagnostics: &mut [Diagnostic], base: &PatchSource, patches: &[PatchSource]) {
    let wanted = |d: &Diagnostic| d.site().is_none() && d.document().is_some() && d.field().is_some();
    if !diagnostics.iter().any(wanted) {
        return;
    }
    let trace = Provenance::trace(base, patches);
    for d in diagnostics.iter_mut().filter(|d| wanted(d)) {
        if let (Some(doc), Some(field)) = (d.document(), d.field()) {
            let site = trace.locate(doc, field).map(|l| l.site);
            d.set_site(site);
        }
    }
}

/// Runs every rule, in the order of [`rules`].
fn run_rules(cx: &cx::Cx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    rules::kubelet_flags(cx, &mut out);
    rules::subnet_overlap(cx, &mut out);
    more::extra_args_denied(cx, &mut out);
    more::node_labels(cx, &mut out);
    more::files(cx, &mut out);
    more::cert_sans(cx, &mut out);
    more::superseded(cx, &mut out);
    rules::secrets_in_patches(cx, &mut out);
    out
}
