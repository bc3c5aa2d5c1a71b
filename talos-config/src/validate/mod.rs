//! Validation exactly as Talos v1.13 runs it: `talosctl validate` (`container.Validate`) and a
//! node's `ApplyConfiguration`. Errors keep Talos's tree (go-multierror lists, nested
//! `v1alpha1.Config:`/`<docID>:`/`invalid machine node labels:` items, `errors.Join` texts) so
//! that `Display` gives Talos's exact text, and every leaf may carry the YAML path of the field
//! it is about, which Talos's text lacks.

mod container;
mod kinds;
pub mod node;
mod oci_spec;
mod oci_spec_fields;
pub mod v1alpha1;

pub use crate::document::validation::{Context, Findings, Issue, Mode, Options, Validate, render_list};

use crate::diagnostic::{VALIDATION_RULE, WARNING_RULE};
use crate::document::Document;
use crate::{Config, Diagnostic, DocumentId, FieldPath, Severity};

/// A rejected config: Talos's error tree. `Display` is Talos's exact text (what
/// `talosctl validate` prints, minus its one trailing newline; what a node returns as the
/// `InvalidArgument` message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The top-level items of Talos's go-multierror list.
    pub(crate) issues: Vec<Issue>,
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render_list(&self.issues))
    }
}

impl std::error::Error for ValidationError {}

/// The legacy v1alpha1 document of the config being validated, if it has one.
pub(crate) fn legacy<'a>(cx: &Context<'a>) -> Option<&'a crate::model::v1alpha1::Config> {
    cx.get::<crate::model::v1alpha1::Config>()
}

impl ValidationError {
    /// Every leaf of Talos's error tree as a `talos-validation` diagnostic, in Talos's order,
    /// with its document and, where known, its field (Talos's text names neither). Sites are
    /// left empty: `check` fills them in from the inputs.
    ///
    /// ```
    /// use talos_config::{Config, Mode, Options};
    /// let cfg = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    \"a b\": c\n").unwrap();
    /// let error = cfg.validate(Mode::Container, Options::default()).error.unwrap();
    /// let last = error.diagnostics().pop().unwrap();
    /// assert_eq!(last.message(), "name \"a b\" is invalid");
    /// assert_eq!(last.field().unwrap().to_string(), r#"machine.nodeLabels["a b"]"#);
    /// ```
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for issue in &self.issues {
            issue.leaves(&mut out);
        }
        out.into_iter().map(|leaf| diagnostic(VALIDATION_RULE, Severity::Error, leaf)).collect()
    }
}

/// The outcome of a validation: warnings, and the error if the config is rejected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Warnings in Talos's order (printed by talosctl as `WARNING: <w>`).
    pub warnings: Vec<String>,
    /// The rejection, if any.
    pub error: Option<ValidationError>,
    /// Each warning as an issue with its field, in the same order.
    warning_issues: Vec<Issue>,
}

impl Report {
    /// The errors ([`ValidationError::diagnostics`]), then every warning as a `talos-warning`
    /// diagnostic with its document and, where known, its field.
    ///
    /// ```
    /// use talos_config::{Config, Mode, Options};
    /// let cfg = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: controlplane\ncluster:\n  network:\n    cni:\n      name: custom\n").unwrap();
    /// let report = cfg.validate(Mode::Container, Options::default());
    /// let warning = report.diagnostics().pop().unwrap();
    /// assert_eq!(warning.rule(), "talos-warning");
    /// assert_eq!(warning.field().unwrap().to_string(), "cluster.network.cni.urls");
    /// assert_eq!(warning.message(), "\"urls\" field should not be empty for \"custom\" CNI");
    /// ```
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut leaves = Vec::new();
        for w in &self.warning_issues {
            w.leaves(&mut leaves);
        }
        let mut out = self.error.as_ref().map(ValidationError::diagnostics).unwrap_or_default();
        out.extend(leaves.into_iter().map(|leaf| diagnostic(WARNING_RULE, Severity::Warning, leaf)));
        out
    }
}

/// A leaf of Talos's error tree as a diagnostic of `rule`.
fn diagnostic(
    rule: &str,
    severity: Severity,
    (document, path, message): crate::document::validation::Leaf<'_>,
) -> Diagnostic {
    let document = document.cloned().unwrap_or_else(DocumentId::legacy);
    Diagnostic::new(rule, severity, message).at(document, path.map(FieldPath::parse))
}

impl Config {
    /// Validates like `container.Validate(mode, opts)`: the v1alpha1 document first, then
    /// every other document in order, then the cross-document conflicts.
    ///
    /// ```
    /// use talos_config::{Config, Mode, Options};
    /// let cfg = Config::from_bytes(b"version: v1alpha1\npersist: true\n").unwrap();
    /// let report = cfg.validate(Mode::Container, Options::default());
    /// assert_eq!(
    ///     report.error.unwrap().to_string(),
    ///     "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\n"
    /// );
    /// ```
    pub fn validate(&self, mode: Mode, options: Options) -> Report {
        let docs: Vec<&dyn Document> = self.docs().collect();
        let cx = Context { mode, options, docs: &docs, release: self.release };
        let mut issues = Vec::new();
        let mut warnings = Vec::new();
        for doc in docs.iter().filter(|d| d.kind() == "v1alpha1") {
            let found = doc.validate(&cx);
            warnings.extend(found.warnings);
            if !found.errors.is_empty() {
                issues.push(Issue::list("v1alpha1.Config", None, found.errors));
            }
        }
        for doc in docs.iter().filter(|d| d.kind() != "v1alpha1") {
            let as_node = if options.node { kinds::validate_as_node(*doc, &cx) } else { None };
            let found = as_node.unwrap_or_else(|| doc.validate(&cx));
            let id = DocumentId::of(*doc);
            warnings.extend(found.warnings.into_iter().map(|mut w| {
                w.in_document(&id);
                w
            }));
            if !found.errors.is_empty() {
                let mut errors = found.errors;
                errors.iter_mut().for_each(|e| e.in_document(&id));
                issues.push(Issue::joined(crate::document::label(*doc), errors));
            }
        }
        for doc in &docs {
            issues.extend(doc.conflicts(&cx));
        }
        issues.extend(container::container_issues(&cx));
        Report {
            warnings: warnings.iter().map(|w| w.message.clone()).collect(),
            warning_issues: warnings,
            error: (!issues.is_empty()).then_some(ValidationError { issues }),
        }
    }
}
