//! A place in one input ([`Site`]): what diagnostics, errors and provenance point at.

use std::fmt;
use std::sync::Arc;

/// A place in one input: its name as the caller gave it, and a 1-based line and column.
///
/// ```
/// use talos_config::Site;
/// let site = Site { input: "08-kubelet.yaml".into(), line: 4, column: 7 };
/// assert_eq!(site.to_string(), "08-kubelet.yaml:4:7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Site {
    /// The input's name (a file path, `inline patch #1`, ...).
    pub input: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.input, self.line, self.column)
    }
}
