//! What every rule reads, and the shape of a finding before its position is looked up.

use super::{Finding, LintOptions};
use crate::model::v1alpha1;
use crate::{Config, DocumentId, FieldPath, Severity};

/// What every rule may read.
pub(super) struct Cx<'a> {
    pub(super) config: &'a Config,
    pub(super) options: &'a LintOptions<'a>,
    /// The patches as given (the secret rule reads their own text).
    pub(super) patches: &'a [crate::PatchSource],
}

impl<'a> Cx<'a> {
    pub(super) fn legacy(&self) -> Option<&'a v1alpha1::Config> {
        self.config.get::<v1alpha1::Config>()
    }
}

/// A finding about a field of the legacy document; its position is looked up later.
pub(super) fn finding(rule: &'static str, severity: Severity, message: String, path: FieldPath) -> Finding {
    finding_in(rule, severity, message, DocumentId::legacy(), path)
}

/// A finding about a field of `document`.
pub(super) fn finding_in(
    rule: &'static str,
    severity: Severity,
    message: String,
    document: DocumentId,
    path: FieldPath,
) -> Finding {
    Finding { rule, severity, message, document, path: Some(path), site: None, suggestion: None, rename: None }
}

/// A path written as validation writes it.
pub(super) fn path(text: &str) -> FieldPath {
    FieldPath::parse(text)
}
