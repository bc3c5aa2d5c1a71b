//! Validation exactly as Talos v1.13 runs it: `talosctl validate` (`container.Validate`) and a
//! node's `ApplyConfiguration`. Errors keep Talos's tree (go-multierror lists, nested
//! `v1alpha1.Config:`/`<docID>:`/`invalid machine node labels:` items, `errors.Join` texts) so
//! that `Display` gives Talos's exact text, and every leaf may carry the YAML path of the field
//! it is about, which Talos's text lacks.

mod issue;
mod kinds;
mod mode;
pub mod node;
pub mod v1alpha1;

pub use issue::{Issue, render_list};
pub use mode::Mode;

use crate::Config;

/// Options of one validation run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--strict`: warnings of the v1alpha1 document become errors (`warning: <w>`).
    pub strict: bool,
    /// On a node: the machine is installed already, so `metal` no longer requires
    /// `machine.install`.
    pub installed: bool,
}

/// What validating one document found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// Error items, in Talos's order.
    pub errors: Vec<Issue>,
    /// Warnings, in Talos's order.
    pub warnings: Vec<String>,
}

/// Everything a document's checks may look at.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The runtime mode validated for.
    pub mode: Mode,
    /// Strict / installed.
    pub options: Options,
    /// The whole config (for checks that look at other documents).
    pub config: &'a Config,
}

impl Context<'_> {
    /// The legacy document, if the config has one.
    pub fn v1alpha1(&self) -> Option<&crate::model::v1alpha1::Config> {
        self.config.get::<crate::model::v1alpha1::Config>()
    }
}

/// The checks of one document kind (upstream `Validate` and `V1Alpha1ConflictValidate`).
pub trait Validate {
    /// The document's own checks. For new-style documents each error is one `errors.Join`
    /// part (joined with `\n`); for the v1alpha1 document each error is one multierror item.
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        Findings::default()
    }

    /// Conflicts with the v1alpha1 document, reported after every document's own errors and
    /// without a document prefix.
    fn conflicts(&self, _cx: &Context<'_>) -> Vec<Issue> {
        Vec::new()
    }
}

/// A rejected config: Talos's error tree. `Display` is Talos's exact text (what
/// `talosctl validate` prints, minus its one trailing newline; what a node returns as the
/// `InvalidArgument` message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", render_list(&self.issues))]
pub struct ValidationError {
    /// The top-level items of Talos's go-multierror list.
    pub issues: Vec<Issue>,
}

impl ValidationError {
    /// Every leaf message with the YAML path of its field, where known, in order. Paths in the
    /// v1alpha1 document are plain (`machine.nodeLabels`); paths in other documents are
    /// qualified by the document (`StaticHostConfig/10.0.0.1:hostnames`).
    pub fn fields(&self) -> Vec<(Option<&str>, &str)> {
        let mut out = Vec::new();
        for issue in &self.issues {
            issue.leaves(&mut out);
        }
        out
    }
}

/// The outcome of a validation: warnings, and the error if the config is rejected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Warnings in Talos's order (printed by talosctl as `WARNING: <w>`).
    pub warnings: Vec<String>,
    /// The rejection, if any.
    pub error: Option<ValidationError>,
}

impl Config {
    /// Validates like `container.Validate(mode, opts)`: the v1alpha1 document first, then
    /// every other document in order, then the cross-document conflicts.
    ///
    /// ```
    /// use talos_config::{Config, validate::{Mode, Options}};
    /// let cfg = Config::from_bytes(b"version: v1alpha1\npersist: true\n").unwrap();
    /// let report = cfg.validate(Mode::Container, Options::default());
    /// assert_eq!(
    ///     report.error.unwrap().to_string(),
    ///     "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\n"
    /// );
    /// ```
    pub fn validate(&self, mode: Mode, options: Options) -> Report {
        let cx = Context { mode, options, config: self };
        let mut issues = Vec::new();
        let mut warnings = Vec::new();
        let docs: Vec<&dyn crate::document::Document> = self.docs().collect();
        for doc in docs.iter().filter(|d| d.kind() == "v1alpha1") {
            let found = doc.validate(&cx);
            warnings.extend(found.warnings);
            if !found.errors.is_empty() {
                issues.push(Issue::list("v1alpha1.Config", None, found.errors));
            }
        }
        for doc in docs.iter().filter(|d| d.kind() != "v1alpha1") {
            let found = doc.validate(&cx);
            warnings.extend(found.warnings);
            if !found.errors.is_empty() {
                let id = doc_id(*doc);
                let mut errors = found.errors;
                errors.iter_mut().for_each(|e| e.qualify_paths(&id));
                issues.push(Issue::joined(id, errors));
            }
        }
        for doc in &docs {
            issues.extend(doc.conflicts(&cx));
        }
        Report { warnings, error: (!issues.is_empty()).then_some(ValidationError { issues }) }
    }
}

/// `Kind` for unnamed documents, `Kind/name` for named ones.
fn doc_id(doc: &dyn crate::document::Document) -> String {
    if doc.named() { format!("{}/{}", doc.kind(), doc.name()) } else { doc.kind().to_string() }
}
