//! Talos's config diff: the unified line diff `talosctl apply-config --dry-run` and a node's
//! "can't be applied in immediate mode" refusal print (Talos v1.13.9's `textdiff.Diff`, over
//! the neticdk Myers differ; see docs/explain.md), and [`compare`]: two configs document by
//! document, with typed changes and secrets redacted.

mod patch;

pub use patch::{Unexpressible, patch_between};

use std::collections::{HashMap, HashSet};

use talos_yaml::node::deep;
use talos_yaml::{Node, NodeValue};

use crate::{Config, DocumentId, FieldPath, Segment};

/// Above this many lines in both texts together, Talos prints only a one-line header.
const MAX_LINES: usize = 75_000;

/// Above this many LCS cells the diff degrades to one hunk replacing everything.
const MAX_CELLS: usize = 4_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Keep,
    Del,
    Add,
}

fn ops(a: &[&str], b: &[&str]) -> Vec<(Op, usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let mut out = Vec::with_capacity(n + m);
    if n.saturating_mul(m) > MAX_CELLS {
        out.extend((0..n).map(|i| (Op::Del, i, 0)));
        out.extend((0..m).map(|j| (Op::Add, n, j)));
        return out;
    }
    // lcs[i][j] = LCS length of a[i..], b[j..].
    let w = m + 1;
    let mut lcs = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] =
                if a[i] == b[j] { lcs[(i + 1) * w + j + 1] + 1 } else { lcs[(i + 1) * w + j].max(lcs[i * w + j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push((Op::Keep, i, j));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i * w + j + 1] > lcs[(i + 1) * w + j]) {
            // On a tie the deletion goes first: Talos prints a gap's deletions before its insertions.
            out.push((Op::Add, i, j));
            j += 1;
        } else {
            out.push((Op::Del, i, j));
            i += 1;
        }
    }
    out
}

/// A hunk range as the formatter writes it: always `start,len` (1-based; for an empty side the
/// line before it).
fn range(start: usize, len: usize) -> String {
    if len == 0 { format!("{start},0") } else { format!("{},{len}", start + 1) }
}

/// Talos's `textdiff.Diff` of two texts (docs/explain.md): empty when they are
/// equal; else headers `--- a` / `+++ b`, hunks with 3 lines of context whose ranges are always
/// `start,len`, changes 7 or more lines apart in separate hunks, no "No newline" marker; above
/// 75,000 lines in all, the one-line `diff too large to display` header.
///
/// ```
/// let old = "version: v1alpha1\nmachine:\n    type: controlplane\n    token: foo\n    certSANs: []\ncluster: null\n";
/// let new = old.replace("controlplane", "worker");
/// assert_eq!(
///     talos_config::diff::unified(old, &new),
///     "--- a\n+++ b\n@@ -1,6 +1,6 @@\n version: v1alpha1\n machine:\n-    type: controlplane\n+    type: worker\n     token: foo\n     certSANs: []\n cluster: null\n"
/// );
/// ```
pub fn unified(old: &str, new: &str) -> String {
    unified_shown(old, new, old, new)
}

/// The diff of two configs as Talos's apply dry run shows it (the whole encodings, [`unified`]),
/// with the values of the secret fields Talos's `RedactSecrets` knows replaced by `REDACTED`
/// ([`Config::encode_redacted`]); a changed secret is still a changed line. Empty when equal.
///
/// ```
/// use talos_config::Config;
///
/// let a = Config::from_bytes(b"version: v1alpha1\nmachine:\n  token: aaaaaa.aaaaaaaaaaaaaaaa\n")?;
/// let b = Config::from_bytes(b"version: v1alpha1\nmachine:\n  token: bbbbbb.bbbbbbbbbbbbbbbb\n")?;
/// assert_eq!(
///     talos_config::diff::redacted_text_diff(&a, &b),
///     "--- a\n+++ b\n@@ -1,6 +1,6 @@\n version: v1alpha1\n machine:\n     type: \"\"\n-    token: REDACTED\n+    token: REDACTED\n     certSANs: []\n cluster: null\n"
/// );
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn redacted_text_diff(a: &Config, b: &Config) -> String {
    unified_shown(&a.encode(), &b.encode(), &a.encode_redacted(), &b.encode_redacted())
}

/// [`unified`] of `old` and `new`, each line shown from `shown_old`/`shown_new` (the same texts
/// with secrets hidden, line for line); when their lines do not correspond, the diff of the
/// shown texts.
pub(crate) fn unified_shown(old: &str, new: &str, shown_old: &str, shown_new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (shown_a, shown_b): (Vec<&str>, Vec<&str>) =
        (shown_old.split_inclusive('\n').collect(), shown_new.split_inclusive('\n').collect());
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    if (a.len(), b.len()) != (shown_a.len(), shown_b.len()) {
        return unified(shown_old, shown_new);
    }
    let (old_lines, new_lines) = (old.matches('\n').count(), new.matches('\n').count());
    if old_lines + new_lines > MAX_LINES {
        return format!("@@ -1,{old_lines} +1,{new_lines} @@ diff too large to display\n");
    }
    let ops = ops(&a, &b);
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, o)| o.0 != Op::Keep).map(|(k, _)| k).collect();
    let (Some(&first), Some(_)) = (changed.first(), changed.last()) else {
        return String::new();
    };
    const CTX: usize = 3;
    // Group changes at most 2*CTX apart (so 6 kept lines between two changes make two hunks).
    let mut groups: Vec<(usize, usize)> = vec![(first, first)];
    for &k in &changed[1..] {
        if let Some(last) = groups.last_mut()
            && k - last.1 <= 2 * CTX
        {
            last.1 = k;
            continue;
        }
        groups.push((k, k));
    }
    let mut out = String::from("--- a\n+++ b\n");
    for (s, e) in groups {
        let lo = s.saturating_sub(CTX);
        let hi = (e + CTX + 1).min(ops.len());
        let slice = &ops[lo..hi];
        let a_start = slice.first().map(|o| o.1).unwrap_or(0);
        let b_start = slice.first().map(|o| o.2).unwrap_or(0);
        let a_len = slice.iter().filter(|o| o.0 != Op::Add).count();
        let b_len = slice.iter().filter(|o| o.0 != Op::Del).count();
        out.push_str(&format!("@@ -{} +{} @@\n", range(a_start, a_len), range(b_start, b_len)));
        for &(op, i, j) in slice {
            let (mark, line) = match op {
                Op::Keep => (' ', shown_a[i]),
                Op::Del => ('-', shown_a[i]),
                Op::Add => ('+', shown_b[j]),
            };
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Comparing two configs, secrets redacted

/// How a value changed between two configs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// Only the second config has it.
    Added,
    /// Only the first config has it.
    Removed,
    /// Both have it, with different values.
    Changed,
}

impl ChangeKind {
    /// `added`, `removed` or `changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

/// One changed value (the smallest changed section), secrets redacted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The document.
    pub document: DocumentId,
    /// The value's path inside the document (the root for a whole document).
    pub path: FieldPath,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The first config's value as YAML (a scalar's text), when it has one.
    pub old: Option<String>,
    /// The second config's value as YAML (a scalar's text), when it has one.
    pub new: Option<String>,
}

/// One document's diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentDiff {
    /// The document.
    pub document: DocumentId,
    /// Added, removed or changed as a whole.
    pub kind: ChangeKind,
    /// The unified diff of the document's two encodings ([`unified`]), secrets redacted.
    pub diff: String,
}

/// What [`compare`] found: per-document diffs and typed changes, in document order (the
/// first config's, then the documents only the second has).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigDiff {
    /// The documents that differ.
    pub documents: Vec<DocumentDiff>,
    /// Every changed value.
    pub changes: Vec<Change>,
}

/// Compares two configs document by document (matched by kind and name), each encoded as Talos
/// encodes it, with the values of the secret fields Talos's `RedactSecrets` knows replaced by
/// `REDACTED` (and a SideroLink join token inside `apiUrl`). Equal secrets are not reported;
/// a changed secret shows as changed, with both values redacted.
///
/// ```
/// use talos_config::Config;
/// use talos_config::diff::{ChangeKind, compare};
///
/// let a = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  token: aaaaaa.aaaaaaaaaaaaaaaa\n")?;
/// let b = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  token: bbbbbb.bbbbbbbbbbbbbbbb\n")?;
/// let diff = compare(&a, &b);
/// assert_eq!(diff.changes[0].path.to_string(), "machine.token");
/// assert_eq!((diff.changes[0].kind, diff.changes[0].old.as_deref()), (ChangeKind::Changed, Some("REDACTED")));
/// assert!(!diff.documents[0].diff.contains("aaaaaa") && !diff.documents[0].diff.contains("bbbbbb"));
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn compare(a: &Config, b: &Config) -> ConfigDiff {
    // Printed as the first config's release prints (go-yaml rc.3 writes `|4` where rc.4 writes `|`).
    let emit = |node: &Node| emit_in(node, a.release().yaml());
    let left = encoded_documents(a);
    let right = encoded_documents(b);
    let mut out = ConfigDiff::default();
    for (id, kind, tree, raw) in &left {
        match right.iter().find(|(rid, ..)| rid == id) {
            Some((_, _, rtree, rraw)) => {
                let mut found = Vec::new();
                tree_changes(raw, rraw, &FieldPath::root(), &mut found);
                if found.is_empty() {
                    continue;
                }
                let doc = DocumentDiff {
                    document: id.clone(),
                    kind: ChangeKind::Changed,
                    diff: unified(&emit(tree), &emit(rtree)),
                };
                out.documents.push(doc);
                push_changes(&mut out.changes, id, kind, &found, a.release().yaml());
            }
            None => {
                out.documents.push(DocumentDiff {
                    document: id.clone(),
                    kind: ChangeKind::Removed,
                    diff: unified(&emit(tree), ""),
                });
                out.changes.push(whole(id, ChangeKind::Removed, Some(emit(tree)), None));
            }
        }
    }
    for (id, _, tree, _) in right.iter().filter(|(id, ..)| !left.iter().any(|(lid, ..)| lid == id)) {
        out.documents.push(DocumentDiff {
            document: id.clone(),
            kind: ChangeKind::Added,
            diff: unified("", &emit(tree)),
        });
        out.changes.push(whole(id, ChangeKind::Added, None, Some(emit(tree))));
    }
    out
}

fn whole(id: &DocumentId, kind: ChangeKind, old: Option<String>, new: Option<String>) -> Change {
    Change { document: id.clone(), path: FieldPath::root(), kind, old, new }
}

/// Each document: its id, kind, redacted tree and raw tree (for finding changed secrets).
fn encoded_documents(config: &Config) -> Vec<(DocumentId, String, Node, Node)> {
    config
        .docs()
        .map(|d| {
            let id = d.id();
            let raw = d.encode_for(config.release());
            let mut redacted = raw.clone();
            crate::redact::redact_document(d.kind(), &mut redacted);
            (id, d.kind().to_string(), redacted, raw)
        })
        .collect()
}

fn emit_in(node: &Node, dialect: crate::yaml::Dialect) -> String {
    crate::yaml::emit_v4::emit_v4_in(node, dialect)
}

/// Typed changes of one document; values of secret fields are redacted.
fn push_changes(
    out: &mut Vec<Change>,
    id: &DocumentId,
    kind: &str,
    found: &[(FieldPath, Option<&Node>, Option<&Node>)],
    dialect: crate::yaml::Dialect,
) {
    for (path, old, new) in found {
        let secret_path: Vec<String> = path
            .segments()
            .iter()
            .map(|s| match s {
                Segment::Key(k) => k.clone(),
                Segment::Index(_) => "[]".to_string(),
            })
            .collect();
        let show = |n: &Option<&Node>| {
            n.map(|n| {
                let mut n = n.clone();
                let mut p = secret_path.clone();
                crate::redact::redact_at(kind, &mut n, &mut p);
                match n.as_scalar() {
                    Some(s) => s.text.clone(),
                    None => emit_in(&n, dialect),
                }
            })
        };
        let change_kind = match (old, new) {
            (None, Some(_)) => ChangeKind::Added,
            (Some(_), None) => ChangeKind::Removed,
            _ => ChangeKind::Changed,
        };
        out.push(Change {
            document: id.clone(),
            path: path.clone(),
            kind: change_kind,
            old: show(old),
            new: show(new),
        });
    }
}

/// The smallest differing sections of two encoded trees: `(path, old, new)`, `None` where one
/// side has no value there. `path` is the way to `a` and `b` (the root for documents).
pub(crate) fn tree_changes<'a>(
    a: &'a Node,
    b: &'a Node,
    path: &FieldPath,
    out: &mut Vec<(FieldPath, Option<&'a Node>, Option<&'a Node>)>,
) {
    let mut stack = path.segments().to_vec();
    changes_under(a, b, &mut stack, out);
}

fn changes_under<'a>(
    a: &'a Node,
    b: &'a Node,
    path: &mut Vec<Segment>,
    out: &mut Vec<(FieldPath, Option<&'a Node>, Option<&'a Node>)>,
) {
    let here = |path: &[Segment], extra: Segment| {
        let mut steps = path.to_vec();
        steps.push(extra);
        FieldPath::from_segments(steps)
    };
    deep(|| match (&a.value, &b.value) {
        (NodeValue::Mapping(left, _), NodeValue::Mapping(right, _)) => {
            let text = |k: &Node| k.as_scalar().map(|s| s.text.clone()).unwrap_or_default();
            let right_keys: HashMap<String, &Node> = right.iter().map(|(k, v)| (text(k), v)).collect();
            let left_keys: HashSet<String> = left.iter().map(|(k, _)| text(k)).collect();
            for (k, v) in left {
                let key = text(k);
                match right_keys.get(&key) {
                    Some(rv) => {
                        path.push(Segment::Key(key));
                        changes_under(v, rv, path, out);
                        path.pop();
                    }
                    None => out.push((here(path, Segment::Key(key)), Some(v), None)),
                }
            }
            for (k, v) in right {
                let key = text(k);
                if !left_keys.contains(&key) {
                    out.push((here(path, Segment::Key(key)), None, Some(v)));
                }
            }
        }
        (NodeValue::Sequence(left, _), NodeValue::Sequence(right, _)) if left.len() == right.len() => {
            for (i, (l, r)) in left.iter().zip(right).enumerate() {
                path.push(Segment::Index(i));
                changes_under(l, r, path, out);
                path.pop();
            }
        }
        _ if a == b => {}
        _ => out.push((FieldPath::from_segments(path.clone()), Some(a), Some(b))),
    })
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn talos_vectors() {
        let old = "version: v1alpha1\nmachine:\n    type: worker\n    token: foo\n    certSANs: []\ncluster: null\n";
        let new = format!("{old}---\napiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://example.com\n");
        assert_eq!(
            unified(old, &new),
            "--- a\n+++ b\n@@ -4,3 +4,7 @@\n     token: foo\n     certSANs: []\n cluster: null\n+---\n+apiVersion: v1alpha1\n+kind: SideroLinkConfig\n+apiUrl: https://example.com\n"
        );
        assert_eq!(
            unified("line 1\nline 3\n", "line 1\nline 2\nline 3\n"),
            "--- a\n+++ b\n@@ -1,2 +1,3 @@\n line 1\n+line 2\n line 3\n"
        );
        assert_eq!(unified("a\n", "a\n"), "");
    }

    #[test]
    fn six_kept_lines_make_two_hunks() {
        let old: String = (0..20).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l3\n", "x3\n").replace("l10\n", "x10\n");
        assert_eq!(
            unified(&old, &new),
            "--- a\n+++ b\n@@ -1,7 +1,7 @@\n l0\n l1\n l2\n-l3\n+x3\n l4\n l5\n l6\n@@ -8,7 +8,7 @@\n l7\n l8\n l9\n-l10\n+x10\n l11\n l12\n l13\n"
        );
    }
}
