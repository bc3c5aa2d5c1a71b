//! The merged config printed with where each value came from: a trailing comment on every line
//! that holds a value, and the removed values listed at the end.

use std::collections::BTreeMap;

use talos_yaml::node::deep;
use talos_yaml::parse::parse_stream;
use talos_yaml::{Node, NodeValue};

use super::{FieldPath, Provenance, Segment};
use crate::{DocumentId, Site};

/// `merged` (the bytes [`apply_patches`](crate::apply_patches) returned for the traced inputs)
/// with `# <input>:<line>:<column>` after every line that holds a value, naming where that value
/// was last set (and `, replacing ...` the earlier settings), then one comment line per value
/// that `$patch: delete` or a JSON6902 `remove` took out.
///
/// Lines whose value the trace cannot place (a default the encoder writes, such as
/// `cluster: null`) get no comment. `Err` when `merged` is not YAML.
///
/// ```
/// use talos_config::provenance::{Provenance, annotate};
/// use talos_config::{PatchSource, apply_patches, load_patches};
///
/// let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let patch = PatchSource::new("p.yaml", "machine:\n  nodeLabels:\n    pool: blue\n");
/// let merged = apply_patches(&base.bytes, &load_patches([patch.clone()])?)?;
/// let text = annotate(&merged, &Provenance::trace(&base, &[patch])).unwrap();
/// assert_eq!(
///     text,
///     "version: v1alpha1  # base.yaml:1:1\nmachine:\n    type: worker  # base.yaml:3:3\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        pool: blue  # p.yaml:3:5\ncluster: null\n"
/// );
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn annotate(merged: &[u8], trace: &Provenance) -> Result<String, crate::Error> {
    let docs = parse_stream(merged).map_err(|e| crate::Error::decode(e.to_string(), None, None))?;
    let mut notes: BTreeMap<usize, String> = BTreeMap::new();
    for doc in &docs {
        if doc.root.as_mapping().is_none() {
            continue;
        }
        let (key, _) = super::replay::document_key(&doc.root);
        walk(&doc.root, &mut Vec::new(), &key, trace, &mut notes);
    }
    let text = String::from_utf8_lossy(merged);
    let mut out = String::with_capacity(text.len() * 2);
    for (i, line) in text.lines().enumerate() {
        out.push_str(line);
        if let Some(note) = notes.get(&(i + 1)) {
            out.push_str("  # ");
            out.push_str(note);
        }
        out.push('\n');
    }
    for d in trace.deletions() {
        let what = if d.path.segments().is_empty() { format!("document {}", d.document) } else { d.path.to_string() };
        let doc = if d.document.is_legacy() || d.path.segments().is_empty() {
            String::new()
        } else {
            format!(" in {}", d.document)
        };
        out.push_str(&format!("# removed: {what}{doc} (set at {}) by {}\n", d.removed, d.site));
    }
    Ok(out)
}

fn note(site: &Site, replaced: &[Site]) -> String {
    let mut out = site.to_string();
    if !replaced.is_empty() {
        let earlier: Vec<String> = replaced.iter().map(ToString::to_string).collect();
        out.push_str(&format!(", replacing {}", earlier.join(", ")));
    }
    out
}

/// Notes the line of every value whose path the trace knows exactly; `path` is the way here,
/// kept as one stack.
fn walk(
    node: &Node,
    path: &mut Vec<Segment>,
    doc: &DocumentId,
    trace: &Provenance,
    notes: &mut BTreeMap<usize, String>,
) {
    let place = |notes: &mut BTreeMap<usize, String>, line: usize, path: &[Segment]| {
        if let Some((site, replaced)) = trace.exact(doc, &FieldPath::from_segments(path.to_vec())) {
            notes.entry(line).or_insert_with(|| note(&site, &replaced));
        }
    };
    deep(|| match &node.value {
        NodeValue::Mapping(entries, _) => {
            for (k, v) in entries {
                let Some(key) = k.as_scalar().map(|s| s.text.clone()) else { continue };
                path.push(Segment::Key(key));
                if v.has_children() {
                    walk(v, path, doc, trace, notes);
                } else {
                    place(notes, k.mark.line, path);
                }
                path.pop();
            }
        }
        NodeValue::Sequence(items, _) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                if item.has_children() {
                    walk(item, path, doc, trace, notes);
                } else {
                    place(notes, item.mark.line, path);
                }
                path.pop();
            }
        }
        NodeValue::Scalar(_) => {}
    });
}
