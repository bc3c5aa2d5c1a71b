//! One model for everything a check reports: a merge error, Talos's validation errors and
//! warnings, and lint findings are all [`Diagnostic`]s.

use std::fmt;

use crate::{DocumentId, Error, FieldPath, Site};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
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

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rule of a merge error: the inputs could not be made into one config.
pub(crate) const MERGE_RULE: &str = "talos-merge";
/// The rule of Talos's validation errors.
pub(crate) const VALIDATION_RULE: &str = "talos-validation";
/// The rule of Talos's validation warnings.
pub(crate) const WARNING_RULE: &str = "talos-warning";

/// One problem found: by the merge (`talos-merge`), by Talos's validation (`talos-validation`,
/// `talos-warning`, with Talos's exact text), or by a lint rule (`lint::rules`).
///
/// `Display` prints `input:line:column: severity[rule]: message`, with `(no position)` in
/// place of the site when none is known.
///
/// ```
/// use talos_config::{CheckOptions, PatchSource, Severity, check};
///
/// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let patch = PatchSource::new("labels.yaml", "machine:\n  nodeLabels:\n    \"team name\": blue\n");
/// let checked = check(&base, &[patch], &CheckOptions::default())?;
/// let label = checked.diagnostics().iter().find(|d| d.message() == "name \"team name\" is invalid").unwrap();
/// assert_eq!(label.severity(), Severity::Error);
/// assert_eq!(label.rule(), "talos-validation");
/// assert_eq!(label.document().map(|d| d.to_string()).as_deref(), Some("v1alpha1"));
/// assert_eq!(label.field().map(|f| f.to_string()).as_deref(), Some(r#"machine.nodeLabels["team name"]"#));
/// assert_eq!(label.to_string(), "labels.yaml:3:5: error[talos-validation]: name \"team name\" is invalid");
/// # Ok::<(), talos_config::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Diagnostic {
    rule: String,
    severity: Severity,
    message: String,
    document: Option<DocumentId>,
    field: Option<FieldPath>,
    site: Option<Site>,
    fix: Option<String>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    rename: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `rule` with no document, field, site or fix yet.
    pub(crate) fn new(rule: &str, severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            rule: rule.to_string(),
            severity,
            message: message.into(),
            document: None,
            field: None,
            site: None,
            fix: None,
            rename: None,
        }
    }

    /// The diagnostic about `field` of `document`.
    pub(crate) fn at(mut self, document: DocumentId, field: Option<FieldPath>) -> Diagnostic {
        self.document = Some(document);
        self.field = field;
        self
    }

    /// The diagnostic with a fix.
    pub(crate) fn with_fix(mut self, fix: impl Into<String>) -> Diagnostic {
        self.fix = Some(fix.into());
        self
    }

    /// The diagnostic whose fix renames the key at its site to `key`.
    pub(crate) fn with_rename(mut self, key: Option<String>) -> Diagnostic {
        self.rename = key;
        self
    }

    /// The diagnostic at `site`.
    pub(crate) fn with_site(mut self, site: Option<Site>) -> Diagnostic {
        self.site = site;
        self
    }

    /// Sets where the diagnostic is.
    pub(crate) fn set_site(&mut self, site: Option<Site>) {
        self.site = site;
    }

    /// Forgets the field once it has been located: the diagnostic is about its whole document.
    pub(crate) fn clear_field(&mut self) {
        self.field = None;
    }

    /// A merge error as a diagnostic: at its input and position, or at the start of its input
    /// when only the input is known.
    pub(crate) fn from_merge_error(err: &Error) -> Diagnostic {
        Diagnostic::new(MERGE_RULE, Severity::Error, err.message())
            .with_site(err.site())
            .with_fix("fix the input named here as the message says; nothing else was checked")
    }

    /// The rule's id: `talos-merge`, `talos-validation`, `talos-warning`, or a lint rule's id.
    pub fn rule(&self) -> &str {
        &self.rule
    }

    /// Whether Talos itself reports this (`talos-merge`, `talos-validation`, `talos-warning`):
    /// what `talosctl machineconfig patch`, `talosctl validate` and a node say, as opposed to a
    /// lint rule's finding.
    ///
    /// ```
    /// use talos_config::{CheckOptions, Checks, PatchSource, check};
    /// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    /// let patch = PatchSource::new("p.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"1\"\n");
    /// let checked = check(&base, &[patch], &CheckOptions { checks: Checks::Lint, ..CheckOptions::default() })?;
    /// let lint: Vec<&str> = checked.diagnostics().iter().filter(|d| !d.is_talos()).map(|d| d.rule()).collect();
    /// assert_eq!(lint, ["kubelet-unknown-flag"]);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn is_talos(&self) -> bool {
        [MERGE_RULE, VALIDATION_RULE, WARNING_RULE].contains(&self.rule.as_str())
    }

    /// How bad it is.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// What is wrong: Talos's exact text where Talos produced it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The document it is about, when it is about one (a merge error is about none).
    pub fn document(&self) -> Option<&DocumentId> {
        self.document.as_ref()
    }

    /// The field it is about, inside [`document`](Diagnostic::document).
    pub fn field(&self) -> Option<&FieldPath> {
        self.field.as_ref()
    }

    /// The input, line and column that set the field (or its closest enclosing value); `None`
    /// for a value no input wrote (a default Talos fills in).
    pub fn site(&self) -> Option<&Site> {
        self.site.as_ref()
    }

    /// How to fix it, when there is a clear way.
    pub fn fix(&self) -> Option<&str> {
        self.fix.as_deref()
    }

    /// When the fix is mechanical, renaming the key at [`Diagnostic::site`]: the new key (what
    /// an editor's code action writes). `max-pod` -> `max-pods` for a misspelled kubelet flag.
    ///
    /// ```
    /// use talos_config::{CheckOptions, Checks, PatchSource, check};
    /// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    /// let patch = PatchSource::new("08.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n");
    /// let checked = check(&base, &[patch], &CheckOptions { checks: Checks::Lint, ..CheckOptions::default() })?;
    /// let finding = checked.diagnostics().iter().find(|d| d.rule() == "kubelet-unknown-flag").unwrap();
    /// assert_eq!(finding.renamed_key(), Some("max-pods"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn renamed_key(&self) -> Option<&str> {
        self.rename.as_deref()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.site {
            Some(site) => write!(f, "{site}: ")?,
            None => f.write_str("(no position): ")?,
        }
        write!(f, "{}[{}]: {}", self.severity, self.rule, self.message)
    }
}
