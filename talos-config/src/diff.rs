//! Talos's config diff: the unified line diff `talosctl apply-config --dry-run` and a node's
//! "can't be applied in immediate mode" refusal print (Talos v1.13.9's `textdiff.Diff`, over
//! the neticdk Myers differ; see docs/explain.md).

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
    if old == new {
        return String::new();
    }
    let (old_lines, new_lines) = (old.matches('\n').count(), new.matches('\n').count());
    if old_lines + new_lines > MAX_LINES {
        return format!("@@ -1,{old_lines} +1,{new_lines} @@ diff too large to display\n");
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
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
                Op::Keep => (' ', a[i]),
                Op::Del => ('-', a[i]),
                Op::Add => ('+', b[j]),
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
