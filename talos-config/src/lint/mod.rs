//! Lint: what Talos accepts and the node then breaks on, found offline.
//!
//! [`lint`] merges a base config and patches exactly like [`apply_patches`](crate::apply_patches()),
//! validates the result like `talosctl validate` (its errors stay errors, with Talos's text),
//! then runs the [`RULES`]. Every [`Finding`] carries the field path it is about and, through
//! [`Provenance`], the input, line and column that set that value.
//!
//! ```
//! use talos_config::PatchSource;
//! use talos_config::lint::{LintOptions, Severity, lint};
//!
//! let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
//! let patch = PatchSource::new("08-kubelet.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n");
//! let report = lint(&base, &[patch], &LintOptions::default())?;
//! let finding = report.findings.iter().find(|f| f.rule == "kubelet-unknown-flag").unwrap();
//! assert_eq!(finding.severity, Severity::Error);
//! assert_eq!(finding.path.as_ref().unwrap().to_string(), "machine.kubelet.extraArgs.max-pod");
//! assert_eq!(finding.site.as_ref().unwrap().to_string(), "08-kubelet.yaml:4:7");
//! assert_eq!(finding.suggestion.as_deref(), Some("did you mean `max-pods`? Rename the key."));
//! # Ok::<(), talos_config::Error>(())
//! ```

mod cx;
mod more;
mod rules;

use crate::net::Prefix;
use crate::provenance::{FieldPath, Provenance, Site};
use crate::{Config, Error, Mode, Options, Patch, PatchSource, merge_sources};

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The node will refuse the config or break on it.
    Error,
    /// Probably wrong, or on its way out.
    Warning,
    /// Worth knowing; also used when a rule cannot decide.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule's id (one of [`RULES`]).
    pub rule: &'static str,
    /// How bad it is.
    pub severity: Severity,
    /// What is wrong, in the user's terms (Talos's own text for validation errors).
    pub message: String,
    /// The document (`v1alpha1`, `Kind` or `Kind/name`), when the finding is about one.
    pub document: Option<String>,
    /// The field the finding is about, inside `document`.
    pub path: Option<FieldPath>,
    /// The input, line and column that set that field (or the closest enclosing one).
    pub site: Option<Site>,
    /// How to fix it, when there is a clear way.
    pub suggestion: Option<String>,
}

/// A rule, documented: what it finds, why it matters, an example and the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The id findings carry.
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

pub use rules::RULES;

/// What [`lint`] is told beyond the inputs.
#[derive(Clone, Debug)]
pub struct LintOptions {
    /// The runtime mode Talos's validation runs for (`container` for the lab's Docker nodes).
    pub mode: Mode,
    /// Address ranges the cluster must not use (the host network, a VPN, the lab's host
    /// cluster): pod and service subnets overlapping them are reported.
    pub host_ranges: Vec<Prefix>,
}

impl Default for LintOptions {
    fn default() -> LintOptions {
        LintOptions { mode: Mode::Container, host_ranges: Vec::new() }
    }
}

/// What [`lint`] found.
#[derive(Clone, Debug, Default)]
pub struct LintReport {
    /// Every finding: Talos's validation errors and warnings first, then the rules' findings
    /// in the order of [`RULES`].
    pub findings: Vec<Finding>,
}

impl LintReport {
    /// How many findings have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == severity).count()
    }

    /// Whether the result should fail a CI job: any error, or with `strict` any warning.
    pub fn fails(&self, strict: bool) -> bool {
        self.count(Severity::Error) > 0 || (strict && self.count(Severity::Warning) > 0)
    }
}

/// Merges `patches` onto `base` (as `talosctl machineconfig patch`), validates the result for
/// `options.mode`, and runs every rule. Nothing is written.
///
/// `Err` is the merge's own error (a patch that does not load or apply), with its input and
/// position where known; the config could not be built, so nothing else is checked.
pub fn lint(base: &PatchSource, patches: &[PatchSource], options: &LintOptions) -> Result<LintReport, Error> {
    let merged = merge_sources(base, patches)?;
    let config = Config::from_vec(merged).map_err(|e| match patches.last() {
        // Only a JSON6902 step leaves text the engine did not write: its patch is to blame, at
        // no line of its own.
        Some(last) if Patch::load(&last.bytes).is_ok_and(|p| p.is_json6902()) => {
            e.without_position().in_input(&last.name)
        }
        _ => e.in_input(&base.name),
    })?;
    let trace = Provenance::trace(base, patches);
    let mut findings = validation_findings(&config, options.mode, Options { strict: false, installed: false });
    let cx = cx::Cx { config: &config, options, patches };
    findings.extend(run_rules(&cx));
    locate(&mut findings, &trace);
    Ok(LintReport { findings })
}

/// Talos's validation alone (what `talosctl validate` checks) as findings with positions: for
/// CI output of a config that needs no merging. `Err` when the config does not load.
///
/// ```
/// use talos_config::lint::validation_findings_of;
/// use talos_config::{Mode, Options, PatchSource};
///
/// let config = PatchSource::new("node.yaml", "version: v1alpha1\npersist: true\n");
/// let report = validation_findings_of(&config, Mode::Container, Options::default())?;
/// assert_eq!(report.findings[0].message, "machine instructions are required");
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn validation_findings_of(config: &PatchSource, mode: Mode, options: Options) -> Result<LintReport, Error> {
    let loaded = Config::from_bytes(&config.bytes).map_err(|e| e.in_input(&config.name))?;
    let trace = Provenance::trace(config, &[]);
    let mut findings = validation_findings(&loaded, mode, options);
    locate(&mut findings, &trace);
    Ok(LintReport { findings })
}

/// Fills in each finding's position from its document and path.
fn locate(findings: &mut [Finding], trace: &Provenance) {
    for f in findings {
        if f.site.is_none()
            && let (Some(doc), Some(path)) = (&f.document, &f.path)
        {
            f.site = trace.locate(doc, path).map(|l| l.site);
        }
    }
}

/// Runs every rule, in the order of [`RULES`].
fn run_rules(cx: &cx::Cx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    rules::kubelet_flags(cx, &mut out);
    more::extra_args_denied(cx, &mut out);
    rules::subnet_overlap(cx, &mut out);
    more::node_labels(cx, &mut out);
    more::files(cx, &mut out);
    more::cert_sans(cx, &mut out);
    more::superseded(cx, &mut out);
    rules::secrets_in_patches(cx, &mut out);
    out
}

/// Talos's validation, one finding per error leaf and per warning.
fn validation_findings(config: &Config, mode: Mode, options: Options) -> Vec<Finding> {
    let report = config.validate(mode, options);
    let mut out = Vec::new();
    if let Some(err) = &report.error {
        for (path, message) in err.fields() {
            let (document, path) = split_document(path);
            out.push(Finding {
                rule: "talos-validation",
                severity: Severity::Error,
                message: message.to_string(),
                document: Some(document),
                path,
                site: None,
                suggestion: None,
            });
        }
    }
    for (path, w) in report.warning_fields() {
        let (document, path) = split_document(path);
        out.push(Finding {
            rule: "talos-warning",
            severity: Severity::Warning,
            message: w.to_string(),
            document: Some(document),
            path,
            site: None,
            suggestion: None,
        });
    }
    out
}

/// A validation path is plain for the legacy document and `Kind/name:path` for the others.
fn split_document(path: Option<&str>) -> (String, Option<FieldPath>) {
    match path {
        None => ("v1alpha1".to_string(), None),
        Some(p) => match p.rsplit_once(':').filter(|(doc, _)| doc.starts_with(|c: char| c.is_ascii_uppercase())) {
            Some((doc, rest)) => (doc.to_string(), Some(FieldPath::parse(rest))),
            None => ("v1alpha1".to_string(), Some(FieldPath::parse(p))),
        },
    }
}
