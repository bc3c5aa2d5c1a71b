//! The one error type of the library: what went wrong ([`ErrorKind`]), Talos's own text, and,
//! where the error comes from one input, that input's name and the line and column.

use std::fmt;
use std::sync::Arc;

use crate::Site;

/// What kind of step failed. New kinds may be added: match with a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A config could not be decoded: YAML syntax, unknown keys, wrong types, unknown kinds,
    /// duplicate or conflicting documents, `config not found`.
    Decode,
    /// A patch is neither a strategic merge patch nor a JSON6902 patch.
    PatchLoad,
    /// A strategic merge step failed (documents of different kinds, container checks).
    Merge,
    /// A `$patch: delete` found nothing to delete, or could not delete it.
    Delete,
    /// A JSON6902 operation failed.
    Json6902,
    /// A value's text is not valid for its type (a duration, a CIDR, a runtime mode, ...).
    InvalidValue,
}

impl ErrorKind {
    /// A short lower-case name: `decode`, `patch-load`, `merge`, `delete`, `json6902`,
    /// `invalid-value`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Decode => "decode",
            ErrorKind::PatchLoad => "patch-load",
            ErrorKind::Merge => "merge",
            ErrorKind::Delete => "delete",
            ErrorKind::Json6902 => "json6902",
            ErrorKind::InvalidValue => "invalid-value",
        }
    }
}

/// Everything that can go wrong loading, patching or encoding a machine configuration.
///
/// `Display` prints exactly what `talosctl` prints for the same failure; [`Error::site`] says
/// where, when it is known.
///
/// ```
/// use talos_config::{ErrorKind, PatchSource, merge_sources};
///
/// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let bad = PatchSource::new("bad.yaml", "machine:\n  typo: 1\n");
/// let err = merge_sources(&base, &[bad]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::PatchLoad);
/// assert_eq!(err.to_string(), "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    typo: 1\n");
/// assert_eq!(err.site().map(|s| s.to_string()).as_deref(), Some("bad.yaml:2:3"));
/// ```
///
/// Every error is Talos's own text about the inputs: none wraps another error, so
/// [`source`](std::error::Error::source) is `None`.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    input: Option<Arc<str>>,
    line: Option<usize>,
    column: Option<usize>,
}

impl Error {
    /// An error of `kind` with Talos's `message` and no position.
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into(), input: None, line: None, column: None }
    }

    pub(crate) fn decode(message: impl Into<String>, line: Option<usize>, column: Option<usize>) -> Error {
        Error { line, column, ..Error::new(ErrorKind::Decode, message) }
    }

    pub(crate) fn merge(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Merge, message)
    }

    pub(crate) fn invalid_value(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidValue, message)
    }

    /// What kind of step failed.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Talos's text (the same as `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The name of the input the error is in, as the caller gave it, when known.
    pub fn input(&self) -> Option<&str> {
        self.input.as_deref()
    }

    /// The 1-based line in [`input`](Error::input), when known.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The 1-based column in [`input`](Error::input), when known.
    pub fn column(&self) -> Option<usize> {
        self.column
    }

    /// The input, line and column, when the input is known; a missing line or column reads as
    /// 1 (the start of the input), as in the error's diagnostic.
    pub fn site(&self) -> Option<Site> {
        let input = self.input.clone()?;
        Some(Site { input, line: self.line.unwrap_or(1), column: self.column.unwrap_or(1) })
    }

    /// The same error, attributed to the named input.
    pub(crate) fn in_input(mut self, name: &str) -> Error {
        self.input = Some(name.into());
        self
    }

    /// The same error with another kind (a decode error of a patch is a patch-load error).
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.kind = kind;
        self
    }

    /// The same error without a line and column (they belonged to a text no input holds).
    pub(crate) fn without_position(mut self) -> Error {
        self.line = None;
        self.column = None;
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("message", &self.message)
            .field("input", &self.input)
            .field("line", &self.line)
            .field("column", &self.column)
            .finish()
    }
}

impl std::error::Error for Error {}
