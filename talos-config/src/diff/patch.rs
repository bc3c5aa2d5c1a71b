//! A strategic merge patch from two configs: the patch that turns the first into the second,
//! checked by applying it before it is returned.

use talos_yaml::node::deep;
use talos_yaml::{Node, NodeValue, ScalarStyle};

use super::tree_changes;
use crate::{Config, DocumentId, FieldPath, PatchSource, merge_sources_for};

/// Lists a patch replaces instead of appending to (`spec/merge.md` §8.1), per document kind.
const REPLACED: [(&str, &str); 4] = [
    ("v1alpha1", "cluster.network.podSubnets"),
    ("v1alpha1", "cluster.network.serviceSubnets"),
    ("NetworkRuleConfig", "ingress"),
    ("NetworkRuleConfig", "portSelector.ports"),
];

/// Why no patch could be made: the changes no strategic merge patch expresses.
///
/// `Display` names each field (`path` in the v1alpha1 document, `Kind/name:path` in another),
/// or says that only the documents' order or layout differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unexpressible {
    /// The fields that differ after applying the best patch; empty when only the documents'
    /// order or layout differs.
    pub fields: Vec<(DocumentId, FieldPath)>,
}

impl std::fmt::Display for Unexpressible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|(doc, path)| if doc.is_legacy() { path.to_string() } else { format!("{doc}:{path}") })
            .collect();
        let fields = if fields.is_empty() { "(the documents' order or layout)".to_string() } else { fields.join(", ") };
        write!(
            f,
            "no Talos patch turns the first config into the second: {fields} (a list that loses, changes or reorders items, a value set back to empty or zero, or a change in how a value is written; apply a JSON6902 patch, or send the second config whole)"
        )
    }
}

impl std::error::Error for Unexpressible {}

/// The strategic merge patch (YAML, one document per changed document) such that
/// `labctl merge a -p @patch` gives exactly `b`'s encoding: changed and added values set,
/// removed ones `$patch: delete`d, added lists appended, removed documents deleted, new
/// documents added whole. It is applied to `a` before it is returned; if the result is not `b`,
/// the error names the fields a patch cannot express.
///
/// ```
/// use talos_config::Config;
/// use talos_config::diff::patch_between;
///
/// let a = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    old: x\n")?;
/// let b = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    new: y\n")?;
/// assert_eq!(
///     patch_between(&a, &b).unwrap(),
///     "machine:\n    nodeLabels:\n        old:\n            $patch: delete\n        new: \"y\"\n"
/// );
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn patch_between(a: &Config, b: &Config) -> Result<String, Unexpressible> {
    let left = documents(a);
    let right = documents(b);
    let mut out = String::new();
    let dialect = a.release().yaml();
    let mut push = |node: Node| {
        if !out.is_empty() {
            out.push_str("---\n");
        }
        out.push_str(&crate::yaml::emit_v4::emit_v4_in(&node, dialect));
    };
    for l in &left {
        match right.iter().find(|r| r.id == l.id) {
            Some(r) => {
                if let Some(body) = map_patch(&l.kind, &l.tree, &r.tree, &FieldPath::root()) {
                    push(with_meta(&l.meta, body));
                }
            }
            None => push(with_meta(&l.meta, vec![(key("$patch"), Node::plain("delete"))])),
        }
    }
    for r in right.iter().filter(|r| !left.iter().any(|l| l.id == r.id)) {
        push(r.tree.clone());
    }
    verify(a, b, out)
}

/// Applies the patch to `a` and compares with `b`.
fn verify(a: &Config, b: &Config, patch: String) -> Result<String, Unexpressible> {
    let wanted = b.encode();
    let base = PatchSource::new("a", a.encode());
    if patch.is_empty() {
        return if base.bytes == wanted.as_bytes() { Ok(patch) } else { Err(differences(a, b)) };
    }
    let got = merge_sources_for(&base, &[PatchSource::new("patch", patch.clone())], a.release());
    match got {
        Ok(bytes) if bytes == wanted.as_bytes() => Ok(patch),
        Ok(bytes) => match Config::from_vec_for(bytes, a.release()) {
            Ok(result) => Err(differences(&result, b)),
            Err(_) => Err(differences(a, b)),
        },
        Err(_) => Err(differences(a, b)),
    }
}

/// The differing fields of two configs.
fn differences(a: &Config, b: &Config) -> Unexpressible {
    let diff = super::compare(a, b);
    Unexpressible { fields: diff.changes.into_iter().map(|c| (c.document, c.path)).collect() }
}

/// One document of a config, as the patch sees it.
struct Doc {
    /// `v1alpha1`, `Kind` or `Kind/name`.
    id: String,
    kind: String,
    /// The entries that identify it in a patch (`apiVersion`, `kind`, `name`).
    meta: Vec<(Node, Node)>,
    tree: Node,
}

/// The documents of a config, encoded.
fn documents(config: &Config) -> Vec<Doc> {
    config
        .docs()
        .map(|d| {
            let id = crate::document::label(d);
            let tree = d.encode_for(config.release());
            let meta: Vec<(Node, Node)> = tree
                .as_mapping()
                .map(|entries| {
                    entries
                        .iter()
                        .filter(|(k, _)| {
                            k.as_scalar().is_some_and(|s| matches!(s.text.as_str(), "apiVersion" | "kind" | "name"))
                        })
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            Doc { id, kind: d.kind().to_string(), meta, tree }
        })
        .collect()
}

fn key(text: &str) -> Node {
    Node::scalar(text, ScalarStyle::Plain)
}

fn with_meta(meta: &[(Node, Node)], mut body: Vec<(Node, Node)>) -> Node {
    let mut entries = meta.to_vec();
    body.retain(|(k, _)| !meta.iter().any(|(mk, _)| mk == k));
    entries.extend(body);
    Node::mapping(entries)
}

fn delete_marker() -> Node {
    Node::mapping(vec![(key("$patch"), Node::plain("delete"))])
}

/// The patch entries turning mapping `a` into mapping `b`, or `None` when they are equal.
fn map_patch(kind: &str, a: &Node, b: &Node, path: &FieldPath) -> Option<Vec<(Node, Node)>> {
    let (Some(left), Some(right)) = (a.as_mapping(), b.as_mapping()) else {
        return None;
    };
    let text = |k: &Node| k.as_scalar().map(|s| s.text.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for (k, v) in left {
        let name = text(k);
        match right.iter().find(|(rk, _)| text(rk) == name) {
            None => out.push((k.clone(), delete_marker())),
            Some((rk, rv)) => {
                if let Some(p) = value_patch(kind, v, rv, &path.key(name)) {
                    out.push((rk.clone(), p));
                }
            }
        }
    }
    for (k, v) in right {
        if !left.iter().any(|(lk, _)| text(lk) == text(k)) {
            out.push((k.clone(), v.clone()));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The patch value turning `a` into `b` at `path`, or `None` when they are equal.
fn value_patch(kind: &str, a: &Node, b: &Node, path: &FieldPath) -> Option<Node> {
    deep(|| {
        let mut changes = Vec::new();
        tree_changes(a, b, path, &mut changes);
        if changes.is_empty() {
            return None;
        }
        match (&a.value, &b.value) {
            (NodeValue::Mapping(..), NodeValue::Mapping(..)) => map_patch(kind, a, b, path).map(Node::mapping),
            (NodeValue::Sequence(left, _), NodeValue::Sequence(right, style)) => {
                let replaced = REPLACED.iter().any(|(k, p)| *k == kind && *p == path.shape());
                if !replaced && right.len() > left.len() && right[..left.len()] == left[..] {
                    // Lists append: the new items alone.
                    let mut tail = b.clone();
                    tail.value = NodeValue::Sequence(right[left.len()..].to_vec(), *style);
                    return Some(tail);
                }
                // A replaced list takes the new one whole; for any other list change the check
                // after applying reports the path.
                Some(b.clone())
            }
            _ => Some(b.clone()),
        }
    })
}
