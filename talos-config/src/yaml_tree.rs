//! The few YAML-tree operations the upgrade rewrite and the cluster check need: read a value by
//! its path, take it out, and build a new document.

use talos_yaml::{Node, NodeValue};

/// The value at `path` (keys from the document's root), `None` when absent or `null`.
pub(crate) fn get<'a>(root: &'a Node, path: &[&str]) -> Option<&'a Node> {
    let mut node = root;
    for key in path {
        node = node.get(key)?;
    }
    (!is_null(node)).then_some(node)
}

/// The text of the scalar at `path`.
pub(crate) fn text<'a>(root: &'a Node, path: &[&str]) -> Option<&'a str> {
    get(root, path)?.as_scalar().map(|s| s.text.as_str())
}

/// Whether the scalar at `path` reads as YAML's `true`.
pub(crate) fn is_true(root: &Node, path: &[&str]) -> bool {
    text(root, path).is_some_and(|t| matches!(t, "true" | "True" | "TRUE"))
}

/// Whether the value at `path` is there and holds something (a non-empty mapping or list, or
/// a scalar other than `null`, `""`, `false` and `0`).
pub(crate) fn is_set(root: &Node, path: &[&str]) -> bool {
    get(root, path).is_some_and(|node| match &node.value {
        NodeValue::Mapping(entries, _) => !entries.is_empty(),
        NodeValue::Sequence(items, _) => !items.is_empty(),
        NodeValue::Scalar(s) => !matches!(s.text.as_str(), "" | "false" | "0"),
    })
}

/// Whether a node is YAML's null.
fn is_null(node: &Node) -> bool {
    matches!(&node.value, NodeValue::Scalar(s) if node.tag.is_none() && matches!(s.text.as_str(), "null" | "~" | "Null" | "NULL") && s.style == talos_yaml::ScalarStyle::Plain)
}

/// Takes the entry at `path` out of the tree; a mapping it leaves empty goes too.
pub(crate) fn remove(root: &mut Node, path: &[&str]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let emptied = match mapping_at(root, parents) {
        Some(entries) => {
            entries.retain(|(k, _)| !key_is(k, last));
            entries.is_empty()
        }
        None => false,
    };
    if emptied && !parents.is_empty() {
        remove(root, parents);
    }
}

/// The entries of the mapping at `path`.
fn mapping_at<'a>(root: &'a mut Node, path: &[&str]) -> Option<&'a mut Vec<(Node, Node)>> {
    let mut node = root;
    for key in path {
        let NodeValue::Mapping(entries, _) = &mut node.value else {
            return None;
        };
        node = &mut entries.iter_mut().find(|(k, _)| key_is(k, key))?.1;
    }
    match &mut node.value {
        NodeValue::Mapping(entries, _) => Some(entries),
        _ => None,
    }
}

fn key_is(key: &Node, name: &str) -> bool {
    key.as_scalar().is_some_and(|s| s.text == name)
}

/// A document of `kind` (`apiVersion: v1alpha1`) with `fields` in order.
pub(crate) fn document(kind: &str, fields: Vec<(&str, Node)>) -> Node {
    let mut entries = vec![(key("apiVersion"), Node::go_string("v1alpha1")), (key("kind"), Node::go_string(kind))];
    entries.extend(fields.into_iter().map(|(k, v)| (key(k), v)));
    Node::mapping(entries)
}

/// A mapping of `fields` in order.
pub(crate) fn mapping(fields: Vec<(&str, Node)>) -> Node {
    Node::mapping(fields.into_iter().map(|(k, v)| (key(k), v)).collect())
}

/// A mapping key.
pub(crate) fn key(name: &str) -> Node {
    Node::go_string(name)
}

/// A plain scalar (a number or a boolean).
pub(crate) fn plain(text: &str) -> Node {
    Node::plain(text)
}

/// A string scalar.
pub(crate) fn string(text: &str) -> Node {
    Node::go_string(text)
}

/// Sets `key` of a mapping to `value`, replacing an entry of that key.
pub(crate) fn set(map: &mut Node, name: &str, value: Node) {
    if let NodeValue::Mapping(entries, _) = &mut map.value {
        match entries.iter_mut().find(|(k, _)| key_is(k, name)) {
            Some(entry) => entry.1 = value,
            None => entries.push((key(name), value)),
        }
    }
}

/// The PEM text a v1alpha1 certificate or key field holds in base64; `None` when it is empty
/// or not base64.
pub(crate) fn pem(root: &Node, path: &[&str]) -> Option<String> {
    let encoded = text(root, path).filter(|t| !t.is_empty())?;
    let bytes = talos_go::base64_decode(encoded).ok()?;
    String::from_utf8(bytes).ok()
}
