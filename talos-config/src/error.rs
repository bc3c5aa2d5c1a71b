//! The one error type of the library. Its `Display` is Talos's own text; where the error comes
//! from one input, the input's name and the line and column are carried beside it.

/// Where in which input an error was found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The input's name as the caller gave it (a file path, `-p` argument, ...), if known.
    pub input: Option<String>,
    /// 1-based line, if known.
    pub line: Option<usize>,
    /// 1-based column, if known.
    pub column: Option<usize>,
}

impl Location {
    /// A location at a line (and column) of an unnamed input.
    pub fn at(line: usize, column: usize) -> Location {
        Location { input: None, line: Some(line), column: Some(column) }
    }
}

/// Everything that can go wrong loading, patching or encoding a machine configuration.
///
/// `Display` prints exactly what `talosctl` prints for the same failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The config could not be decoded (YAML syntax, unknown keys, wrong types, unknown kinds,
    /// duplicate or conflicting documents, `config not found`).
    #[error("{message}")]
    Decode {
        /// Talos's text.
        message: String,
        /// Where, as far as known.
        location: Location,
    },
    /// A patch could not be loaded (neither a strategic patch nor a JSON6902 patch).
    #[error("{message}")]
    PatchLoad {
        /// Talos's text.
        message: String,
        /// Where, as far as known.
        location: Location,
    },
    /// A strategic merge step failed (merge, `$patch: delete`, container checks).
    #[error("{message}")]
    Merge {
        /// Talos's text.
        message: String,
        /// Where, as far as known.
        location: Location,
    },
    /// A JSON6902 step failed.
    #[error("{message}")]
    Json6902 {
        /// Talos's text.
        message: String,
        /// Where, as far as known.
        location: Location,
    },
}

impl Error {
    /// Where the error was found, as far as known.
    pub fn location(&self) -> &Location {
        match self {
            Error::Decode { location, .. }
            | Error::PatchLoad { location, .. }
            | Error::Merge { location, .. }
            | Error::Json6902 { location, .. } => location,
        }
    }

    /// Talos's text (same as `Display`).
    pub fn message(&self) -> &str {
        match self {
            Error::Decode { message, .. }
            | Error::PatchLoad { message, .. }
            | Error::Merge { message, .. }
            | Error::Json6902 { message, .. } => message,
        }
    }

    /// The same error, attributed to the named input.
    pub fn in_input(mut self, name: &str) -> Error {
        match &mut self {
            Error::Decode { location, .. }
            | Error::PatchLoad { location, .. }
            | Error::Merge { location, .. }
            | Error::Json6902 { location, .. } => location.input = Some(name.to_string()),
        }
        self
    }

    /// The same error without a line and column (they belonged to a text no input holds).
    pub(crate) fn without_position(mut self) -> Error {
        match &mut self {
            Error::Decode { location, .. }
            | Error::PatchLoad { location, .. }
            | Error::Merge { location, .. }
            | Error::Json6902 { location, .. } => {
                location.line = None;
                location.column = None;
            }
        }
        self
    }

    pub(crate) fn decode(message: impl Into<String>, line: Option<usize>, column: Option<usize>) -> Error {
        Error::Decode { message: message.into(), location: Location { input: None, line, column } }
    }

    pub(crate) fn merge(message: impl Into<String>) -> Error {
        Error::Merge { message: message.into(), location: Location::default() }
    }
}
