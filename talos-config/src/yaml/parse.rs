//! YAML text to node trees, with go-yaml v4's error texts.

use super::node::Node;

/// A YAML syntax error. `Display` is go-yaml v4's text, e.g.
/// `yaml: while scanning for the next token at line 5: found character that cannot start any token`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    pub message: String,
    /// 1-based line of the problem, when known.
    pub line: Option<usize>,
    /// 1-based column of the problem, when known.
    pub column: Option<usize>,
}

/// Parses every document of a YAML stream, as go-yaml v4's decoder yields them: one root node
/// per document (an empty document, e.g. after a trailing `---`, is a plain empty scalar).
/// Aliases are expanded. Invalid UTF-8 is an error.
pub fn parse_documents(_input: &[u8]) -> Result<Vec<Node>, YamlError> {
    Ok(Vec::new())
}
