//! The buffer's text and the protocol's positions (lines, UTF-16 code units), and the keys
//! above the cursor, read from indentation so that it works in a half-typed buffer.

use lsp_types::{Position, Range};

/// The byte offset of a protocol position (clamped to the line's end, and to the text's end).
fn offset(text: &str, position: Position) -> usize {
    let mut start = 0;
    for _ in 0..position.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..line_end].char_indices() {
        if units >= position.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

/// Applies one change of `textDocument/didChange`: a range replaced, or the whole text.
pub(crate) fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        Some(range) => {
            let (start, end) = (offset(text, range.start), offset(text, range.end));
            let (start, end) = (start.min(end), end.max(start));
            text.replace_range(start..end, new_text);
        }
        None => *text = new_text.to_string(),
    }
}

/// The 0-based line and character column of a protocol position.
pub(crate) fn line_column(text: &str, position: Position) -> (usize, usize) {
    let at = offset(text, position);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (position.line as usize, text[line_start..at].chars().count())
}

fn line_text(text: &str, line: usize) -> &str {
    text.split('\n').nth(line).unwrap_or_default()
}

/// The protocol position of a 0-based line and character column.
pub(crate) fn position(text: &str, line: usize, column: usize) -> Position {
    let units: usize = line_text(text, line).chars().take(column).map(char::len_utf16).sum();
    Position { line: line as u32, character: units as u32 }
}

/// Where the token starting at (line, column) ends: the key before its `:`, else the line's end.
pub(crate) fn token_end(text: &str, line: usize, column: usize) -> Position {
    let rest: String = line_text(text, line).chars().skip(column).collect();
    let len = rest.find(':').map_or(rest.chars().count(), |i| rest[..i].chars().count());
    position(text, line, column + len.max(1))
}

/// The document kind and the keys of the mappings that hold the cursor, from the lines above it
/// (each less indented than the last): what completion offers keys for.
pub(crate) fn parent_keys(text: &str, line: usize, column: usize) -> (String, Vec<String>) {
    let lines: Vec<&str> = text.split('\n').collect();
    let first = lines[..line.min(lines.len())].iter().rposition(|l| l.starts_with("---")).map_or(0, |i| i + 1);
    let mut keys = Vec::new();
    let mut indent = column;
    for l in lines[first..line.min(lines.len())].iter().rev() {
        let stripped = l.trim_start();
        if stripped.is_empty() || stripped.starts_with('#') {
            continue;
        }
        let own = l.len() - stripped.len();
        // `- key:` items: the key sits after the dash.
        let (own, body) = match stripped.strip_prefix("- ") {
            Some(item) => (own + 2, item),
            None => (own, stripped),
        };
        if own < indent {
            if let Some((key, _)) = body.split_once(':') {
                keys.push(key.trim().to_string());
            }
            indent = own;
            if indent == 0 {
                break;
            }
        }
    }
    keys.reverse();
    let kind = lines[first..]
        .iter()
        .take_while(|l| !l.starts_with("---"))
        .find_map(|l| l.strip_prefix("kind:"))
        .map_or_else(|| "v1alpha1".to_string(), |k| k.trim().to_string());
    (kind, keys)
}

/// How far a line is indented (a list item's `- ` counted as indentation).
pub(crate) fn indentation(text: &str, line: usize) -> usize {
    let l = line_text(text, line);
    let rest = l.trim_start();
    let dash = if rest.starts_with("- ") { 2 } else { 0 };
    l.len() - rest.len() + dash
}

/// The key of `key: value` when the cursor is after the colon on its line.
pub(crate) fn key_before_cursor(text: &str, line: usize, column: usize) -> Option<String> {
    let before: String = line_text(text, line).chars().take(column).collect();
    let (key, _) = before.split_once(':')?;
    let key = key.trim().trim_start_matches("- ").trim();
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_apply_at_utf16_positions() {
        let mut text = "a: é😀b\nc: d\n".to_string();
        let range = Range { start: Position { line: 0, character: 6 }, end: Position { line: 1, character: 1 } };
        apply_change(&mut text, Some(range), "X");
        assert_eq!(text, "a: é😀X: d\n");
        assert_eq!(line_column("x\nab😀c", Position { line: 1, character: 4 }), (1, 3));
        assert_eq!(position("x\nab😀c", 1, 3), Position { line: 1, character: 4 });
    }

    #[test]
    fn keys_above_the_cursor() {
        let text = "machine:\n  kubelet:\n    extraArgs:\n      x: y\n  \n---\nkind: LinkConfig\nname: eth0\n";
        assert_eq!(parent_keys(text, 4, 2), ("v1alpha1".into(), vec!["machine".to_string()]));
        assert_eq!(
            parent_keys(text, 3, 6),
            ("v1alpha1".into(), vec!["machine".into(), "kubelet".into(), "extraArgs".into()])
        );
        assert_eq!(parent_keys(text, 8, 0), ("LinkConfig".into(), vec![]));
    }
}
