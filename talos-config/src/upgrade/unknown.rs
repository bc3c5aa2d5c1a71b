//! `upgrade-unknown`: the documents and fields of a merged config that the target release does
//! not know, each one (Talos's loader stops at the first).

use talos_yaml::{Mark, Node, NodeValue};

use super::UNKNOWN_RULE;
use crate::{Diagnostic, FieldPath, Release, Severity};

/// Every document kind and field of `merged` (a merged config's bytes) that `to` does not
/// register, in document order.
pub(super) fn find(merged: &[u8], to: Release) -> Vec<Diagnostic> {
    let Ok(roots) = talos_yaml::parse::parse_documents(merged) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for root in &roots {
        let document = crate::provenance::document_id(root);
        let Some(entry) = crate::model::registry::lookup_for(document.kind(), to) else {
            if crate::model::registry::registry().any(|e| e.kind == document.kind()) {
                let message = format!("Talos {to} has no {} document", document.kind());
                out.push(
                    Diagnostic::new(UNKNOWN_RULE, Severity::Error, message)
                        .at(document, Some(kind_key()))
                        .with_fix("remove the document, or keep these nodes on a release that has it"),
                );
            }
            continue;
        };
        let Ok(Some(summary)) = (entry.unknown_keys_for)(root, to) else {
            continue;
        };
        let mut keys = Vec::new();
        unknown_keys(&summary, &mut keys);
        for mark in keys {
            let Some(path) = crate::check::path_at(root, mark.line, mark.column, FieldPath::root()) else {
                continue;
            };
            let message = format!("Talos {to} has no field {path} in {} documents", document.kind());
            out.push(
                Diagnostic::new(UNKNOWN_RULE, Severity::Error, message)
                    .at(document.clone(), Some(path))
                    .with_fix("remove the field, or keep these nodes on a release that has it"),
            );
        }
    }
    out
}

/// The field a whole document's finding is located by: its `kind:` key.
pub(super) fn kind_key() -> FieldPath {
    FieldPath::root().key("kind")
}

/// The positions of the unknown keys in a strict decoder's summary: an entry whose value is the
/// input's own node (it has a position) is an unknown key; a value built for the summary (no
/// position) holds the unknown keys below a known one.
fn unknown_keys(summary: &Node, out: &mut Vec<Mark>) {
    talos_yaml::node::deep(|| match &summary.value {
        NodeValue::Mapping(entries, _) => {
            for (key, value) in entries {
                if value.mark == Mark::default() {
                    unknown_keys(value, out);
                } else {
                    out.push(key.mark);
                }
            }
        }
        NodeValue::Sequence(items, _) => items.iter().for_each(|item| unknown_keys(item, out)),
        NodeValue::Scalar(_) => {}
    })
}
