//! Validation exactly as Talos v1.13 runs it: `talosctl validate` (`container.Validate`) and a
//! node's `ApplyConfiguration`. Errors keep Talos's tree (go-multierror lists, nested
//! `v1alpha1.Config:`/`<docID>:`/`invalid machine node labels:` items, `errors.Join` texts) so
//! that `Display` gives Talos's exact text, and every leaf may carry the YAML path of the field
//! it is about, which Talos's text lacks.

mod kinds;
pub mod node;
pub mod v1alpha1;

pub use crate::document::validation::{Context, Findings, Issue, Mode, Options, Validate, render_list};

use crate::Config;
use crate::document::Document;

/// A rejected config: Talos's error tree. `Display` is Talos's exact text (what
/// `talosctl validate` prints, minus its one trailing newline; what a node returns as the
/// `InvalidArgument` message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", render_list(&self.issues))]
pub struct ValidationError {
    /// The top-level items of Talos's go-multierror list.
    pub issues: Vec<Issue>,
}

/// The legacy v1alpha1 document of the config being validated, if it has one.
pub(crate) fn legacy<'a>(cx: &Context<'a>) -> Option<&'a crate::model::v1alpha1::Config> {
    cx.get::<crate::model::v1alpha1::Config>()
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
    /// The field of each warning, in the same order (`None` where Talos's check names none).
    warning_paths: Vec<Option<String>>,
}

impl Report {
    /// Every warning with the YAML path of its field, where known (paths as in
    /// [`ValidationError::fields`]).
    ///
    /// ```
    /// use talos_config::{Config, Mode, Options};
    /// let cfg = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: controlplane\ncluster:\n  network:\n    cni:\n      name: custom\n").unwrap();
    /// let report = cfg.validate(Mode::Container, Options::default());
    /// assert_eq!(
    ///     report.warning_fields(),
    ///     [(Some("cluster.network.cni.urls"), "\"urls\" field should not be empty for \"custom\" CNI")]
    /// );
    /// ```
    pub fn warning_fields(&self) -> Vec<(Option<&str>, &str)> {
        self.warnings
            .iter()
            .enumerate()
            .map(|(i, w)| (self.warning_paths.get(i).and_then(|p| p.as_deref()), w.as_str()))
            .collect()
    }
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
        let cx = Context { mode, options, docs: &docs };
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
            let found = doc.validate(&cx);
            let id = crate::document::label(*doc);
            warnings.extend(found.warnings.into_iter().map(|mut w| {
                w.qualify_paths(&id);
                w
            }));
            if !found.errors.is_empty() {
                let mut errors = found.errors;
                errors.iter_mut().for_each(|e| e.qualify_paths(&id));
                issues.push(Issue::joined(id, errors));
            }
        }
        for doc in &docs {
            issues.extend(doc.conflicts(&cx));
        }
        Report {
            warning_paths: warnings.iter().map(|w| w.path.clone()).collect(),
            warnings: warnings.into_iter().map(|w| w.message).collect(),
            error: (!issues.is_empty()).then_some(ValidationError { issues }),
        }
    }
}
