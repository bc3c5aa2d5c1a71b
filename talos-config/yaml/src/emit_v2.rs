//! The yaml.v2 emitter as ghodss `JSONToYAML` drives it after a JSON6902 step: indent 2,
//! indentless sequences, sorted keys, width 80 (docs/merge.md §3.2).
//!
//! The emitter core is shared with the go-yaml v4 emitter (see `emit_v4`); this file selects
//! the yaml.v2 parameters.

use super::emit_v4::{Dialect, emit_document_into, sort_keys_v2_impl};
use super::node::Node;

/// Emits one document (no `---`), ending with a line break.
///
/// Scalar styles: `GoString` follows yaml.v2's rules for Go strings (double quotes when YAML 1.1
/// would read the text as another type or as a base-60 number, literal block for any text with a
/// line break); `Plain` is for numbers, booleans and `null`; preserved styles are kept when the
/// emitter allows them. Plain, single- and double-quoted values are wrapped at column 80.
pub fn emit_v2(doc: &Node) -> String {
    let mut out = String::new();
    emit_document_into(doc, Dialect::V2, &mut out);
    out
}

/// Sorts mapping entries by yaml.v2's key order (docs/merge.md §3.2) on the scalar key text (stable;
/// non-scalar keys last). Never panics, although the Go comparison is not transitive for some
/// key sets (`10` < `1a` < `9` < `10`).
pub fn sort_keys_v2(entries: &mut [(Node, Node)]) {
    sort_keys_v2_impl(entries);
}
