//! The yaml.v2 emitter as ghodss `JSONToYAML` drives it after a JSON6902 step: indent 2,
//! indentless sequences, sorted keys, width 80 (merge.md §3.2).

use super::node::Node;

/// Emits one document (no `---`), ending with a line break.
pub fn emit_v2(_doc: &Node) -> String {
    String::new()
}
