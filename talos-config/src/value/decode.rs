//! Decoding state shared by every [`super::Value::decode`] call.

use crate::yaml::resolve::{Resolved, resolve_v4};
use crate::yaml::{Node, NodeValue, ScalarStyle};

/// Collects go-yaml's construct errors while a document decodes.
#[derive(Debug, Default)]
pub struct DecodeCx {
    errors: Vec<String>,
    first: Option<crate::yaml::Mark>,
}

impl DecodeCx {
    /// A fresh context.
    pub fn new() -> DecodeCx {
        DecodeCx::default()
    }

    /// Records `line N: <message>` for `node`.
    pub fn error(&mut self, node: &Node, message: impl std::fmt::Display) {
        self.errors.push(format!("line {}: {}", node.mark.line, message));
        self.first.get_or_insert(node.mark);
    }

    /// Where the first recorded error is.
    pub fn first_mark(&self) -> Option<crate::yaml::Mark> {
        self.first
    }

    /// The recorded errors, in order.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// go-yaml's aggregate text: `yaml: construct errors:\n  line 3: ...`, or `None`.
    pub fn into_error(self) -> Option<String> {
        if self.errors.is_empty() {
            return None;
        }
        let mut out = String::from("yaml: construct errors:");
        for e in self.errors {
            out.push_str("\n  ");
            out.push_str(&e);
        }
        Some(out)
    }

    /// Checks duplicate scalar keys of a mapping the way go-yaml does while decoding; records
    /// `mapping key "k" already defined at line N`.
    pub fn check_duplicate_keys(&mut self, entries: &[(Node, Node)]) {
        // Linear: a patch may carry thousands of labels.
        let mut first_line: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (k, _) in entries {
            let Some(ks) = k.as_scalar() else { continue };
            match first_line.get(ks.text.as_str()) {
                Some(line) => {
                    let msg = format!("mapping key {} already defined at line {line}", go_quote(&ks.text));
                    self.error(k, msg);
                }
                None => {
                    first_line.insert(&ks.text, k.mark.line);
                }
            }
        }
    }
}

/// The resolved short tag of a node as go-yaml reports it in type errors (`!!str`, `!!int`,
/// `!!map`, `!!seq`, ...).
pub fn node_tag(node: &Node) -> String {
    if let Some(t) = &node.tag {
        return t.clone();
    }
    match &node.value {
        NodeValue::Mapping(..) => "!!map".into(),
        NodeValue::Sequence(..) => "!!seq".into(),
        NodeValue::Scalar(s) if s.style != ScalarStyle::Plain => "!!str".into(),
        NodeValue::Scalar(s) => resolve_v4(&s.text).tag().into(),
    }
}

/// go-yaml's error when a `!!binary` scalar is not valid base64.
pub const BINARY_ERROR: &str = "!!binary value contains invalid base64 data";

/// go-yaml's decoding of a `!!binary` scalar: `base64.StdEncoding.DecodeString` of the scalar's
/// value as it stands (only `\r` and `\n` are skipped, so a folded plain scalar whose lines
/// were joined with spaces is invalid), failing with [`BINARY_ERROR`].
pub fn decode_binary(text: &str) -> Result<Vec<u8>, &'static str> {
    crate::gofmt::base64_decode(text).map_err(|_| BINARY_ERROR)
}

/// True for a node go-yaml decodes as null (a plain empty, `~` or `null` scalar, or `!!null`).
pub fn is_null(node: &Node) -> bool {
    match &node.value {
        NodeValue::Scalar(s) => {
            if node.tag.as_deref() == Some("!!null") {
                return true;
            }
            node.tag.is_none() && s.style == ScalarStyle::Plain && resolve_v4(&s.text) == Resolved::Null
        }
        _ => false,
    }
}

/// go-yaml's type error text: ``cannot construct !!str `abc` into int`` (values over 10 bytes
/// are cut to 7 plus `...`; collections show no value).
pub fn type_error(node: &Node, go_type: &str) -> String {
    let tag = node_tag(node);
    let value = match &node.value {
        NodeValue::Scalar(s) => {
            if s.text.len() > 10 {
                let mut cut = 7;
                while !s.text.is_char_boundary(cut) {
                    cut -= 1;
                }
                format!(" `{}...`", &s.text[..cut])
            } else {
                format!(" `{}`", s.text)
            }
        }
        _ => String::new(),
    };
    format!("cannot construct {tag}{value} into {go_type}")
}

/// Records [`type_error`] for `node` in `cx`.
pub fn construct_error(cx: &mut DecodeCx, node: &Node, go_type: &str) {
    let msg = type_error(node, go_type);
    cx.error(node, msg);
}

use crate::gofmt::quote as go_quote;

/// Explicit tags go-yaml resolves a scalar against (`resolvableTag`), besides `!!str`.
pub(crate) fn is_resolvable_tag(tag: &str) -> bool {
    matches!(tag, "!!bool" | "!!int" | "!!float" | "!!null" | "!!timestamp")
}

/// go-yaml's check of explicitly tagged scalars, which aborts decoding at the first one (in
/// document order) whose text resolves to another type: `cannot construct !!str `yes` as a
/// !!bool`. An `!!int` text passes as a `!!float`.
pub fn explicit_tag_error(root: &Node) -> Option<(String, crate::yaml::Mark)> {
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        match &node.value {
            NodeValue::Scalar(s) => {
                let Some(tag) = node.tag.as_deref().filter(|t| is_resolvable_tag(t)) else { continue };
                let resolved = match resolve_v4(&s.text) {
                    Resolved::Null => "!!null",
                    Resolved::Bool(_) => "!!bool",
                    Resolved::Int(_) => "!!int",
                    Resolved::Float(_) => "!!float",
                    // A timestamp is only tried without a tag or with `!!timestamp`.
                    Resolved::Timestamp(_) if tag == "!!timestamp" => "!!timestamp",
                    Resolved::Timestamp(_) | Resolved::Str => "!!str",
                };
                if resolved != tag && !(tag == "!!float" && resolved == "!!int") {
                    return Some((format!("cannot construct {resolved} `{}` as a {tag}", s.text), node.mark));
                }
            }
            NodeValue::Sequence(items, _) => pending.extend(items.iter().rev()),
            NodeValue::Mapping(entries, _) => {
                for (k, v) in entries.iter().rev() {
                    pending.push(v);
                    pending.push(k);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_is_standard_base64_skipping_line_breaks_only() {
        assert_eq!(decode_binary("aGVs\nbG8=").unwrap(), b"hello");
        assert_eq!(decode_binary("aGVs bG8=").unwrap_err(), BINARY_ERROR);
    }
}
