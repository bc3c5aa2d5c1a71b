//! The go-yaml v4 emitter as Talos's encoder drives it (`yaml.Marshal`: indent 4, unlimited
//! width, non-compact sequences): merge.md §9.3-§9.5.

use super::node::Node;

/// Emits one document (no `---`), ending with a line break.
pub fn emit_v4(_doc: &Node) -> String {
    String::new()
}
