//! The `refactor.rewrite` code action of a whole machine config: from Talos v1.14 on, the
//! v1alpha1 document's Kubernetes settings that have documents of their own moved into them
//! (`talos_config::upgrade::rewrite`), the file replaced by the rewrite. The rewrite is encoded
//! as Talos encodes a config, so the file's comments are not kept.

use std::ops::{Range, RangeInclusive};

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Position, TextEdit, Uri, WorkspaceEdit};
use talos_config::upgrade::{UpgradeOptions, rewrite};
use talos_config::{Mode, Release};

use super::text;

/// The action when `lines` (0-based) touch the buffer's v1alpha1 document and the rewrite as
/// `release` moves at least one setting; `None` for a patch, a release without the Kubernetes
/// documents, a config that does not load, or nothing to move.
// lsp-types' `WorkspaceEdit` keys its changes by `Uri`, whose cached parts clippy takes for
// interior mutability; the key is never changed while in the map.
#[allow(clippy::mutable_key_type)]
pub(crate) fn code_action(
    uri: &Uri,
    buffer: &str,
    lines: RangeInclusive<usize>,
    release: Release,
    mode: Mode,
) -> Option<CodeActionOrCommand> {
    let document = legacy_lines(buffer)?;
    if *lines.start() >= document.end || *lines.end() < document.start {
        return None;
    }
    let options = UpgradeOptions { from: release, to: release, mode, ..UpgradeOptions::default() };
    let done = rewrite(buffer.as_bytes(), &options).ok()?;
    let moved = done.moves.iter().filter(|m| m.kept.is_none()).count();
    if moved == 0 {
        return None;
    }
    let new_text = String::from_utf8(done.bytes).ok()?;
    let edit = TextEdit { range: lsp_types::Range { start: Position::default(), end: end_of(buffer) }, new_text };
    let changes = std::collections::HashMap::from([(uri.clone(), vec![edit])]);
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: title(moved, release),
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
        ..CodeAction::default()
    }))
}

/// `Move 3 Kubernetes settings into their Talos v1.14.0-rc.1 documents`.
fn title(moved: usize, release: Release) -> String {
    if moved == 1 {
        format!("Move 1 Kubernetes setting into its Talos {release} document")
    } else {
        format!("Move {moved} Kubernetes settings into their Talos {release} documents")
    }
}

/// The 0-based lines (end excluded) of the v1alpha1 document (`version:` and no `kind:`), from
/// the `---` that starts it to the one that starts the next document.
fn legacy_lines(buffer: &str) -> Option<Range<usize>> {
    let docs = talos_yaml::parse::parse_documents(buffer.as_bytes()).ok()?;
    let legacy = docs.iter().find(|d| d.get("version").is_some() && d.get("kind").is_none())?;
    let first = legacy.mark.line.checked_sub(1)?;
    let lines: Vec<&str> = buffer.split('\n').collect();
    let start = lines[..first.min(lines.len())].iter().rposition(|l| is_marker(l)).unwrap_or(0);
    let end = lines.iter().skip(first + 1).position(|l| is_marker(l)).map_or(lines.len(), |i| first + 1 + i);
    Some(start..end)
}

/// Whether a line starts a document (`---`, alone or followed by a space).
fn is_marker(line: &str) -> bool {
    line.strip_prefix("---").is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
}

/// The protocol position of the buffer's end.
fn end_of(buffer: &str) -> Position {
    let last = buffer.split('\n').count() - 1;
    let column = buffer.rsplit('\n').next().unwrap_or_default().chars().count();
    text::position(buffer, last, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_v1alpha1_document_lines() {
        let config = "# top\nversion: v1alpha1\nmachine:\n  type: worker\n---\nkind: HostnameConfig\n";
        assert_eq!(legacy_lines(config), Some(0..4));
        let second = "apiVersion: v1alpha1\nkind: HostnameConfig\n---\nversion: v1alpha1\n--- \nkind: X\n";
        assert_eq!(legacy_lines(second), Some(2..4));
        assert_eq!(legacy_lines("machine:\n  type: worker\n"), None);
        assert_eq!(end_of("a: b\nc: é😀"), Position { line: 1, character: 6 });
        assert_eq!(end_of("a: b\n"), Position { line: 1, character: 0 });
        assert_eq!(title(1, Release::V1_14_0_RC1), "Move 1 Kubernetes setting into its Talos v1.14.0-rc.1 document");
    }
}
