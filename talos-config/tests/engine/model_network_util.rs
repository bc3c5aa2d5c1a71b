//! Helpers for the network model tests (included by the other `model_network*` tests).
#![allow(dead_code)]

use talos_yaml::{Node, NodeValue, ScalarStyle};

/// A plain scalar as the parser would produce it.
pub fn s(text: &str) -> Node {
    Node::scalar(text, ScalarStyle::Plain)
}

/// A double-quoted scalar.
pub fn q(text: &str) -> Node {
    Node::scalar(text, ScalarStyle::DoubleQuoted)
}

/// A block mapping.
pub fn m(entries: Vec<(&str, Node)>) -> Node {
    Node::mapping(entries.into_iter().map(|(k, v)| (s(k), v)).collect())
}

/// A block sequence.
pub fn l(items: Vec<Node>) -> Node {
    Node::sequence(items)
}

/// A compact flow-like rendering of a node tree (scalars unquoted, `~` for null).
pub fn flat(node: &Node) -> String {
    match &node.value {
        NodeValue::Scalar(sc) => {
            if sc.style == ScalarStyle::Plain && sc.text == "null" {
                "~".into()
            } else {
                sc.text.clone()
            }
        }
        NodeValue::Sequence(items, _) => format!("[{}]", items.iter().map(flat).collect::<Vec<_>>().join(", ")),
        NodeValue::Mapping(entries, _) => format!(
            "{{{}}}",
            entries.iter().map(|(k, v)| format!("{}: {}", flat(k), flat(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

use crate::common;

/// The peer folder (`None`, said loudly, when missing).
pub fn peer_dir() -> Option<std::path::PathBuf> {
    common::peer_dir()
}

/// Reads a peer testdata file (`None` when the peer folder is missing).
pub fn peer(name: &str) -> Option<Vec<u8>> {
    let dir = peer_dir()?;
    Some(std::fs::read(dir.join("types/network/testdata").join(name)).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Parses one YAML document and decodes it as `T`, panicking on decode errors.
pub fn doc<T: talos_config::testing::Value>(text: &str) -> T {
    let roots = talos_yaml::parse::parse_documents(text.as_bytes()).expect("yaml parses");
    let root = roots.into_iter().next().expect("one document");
    let mut cx = talos_config::testing::DecodeCx::new();
    let out = T::decode(&root, &mut cx);
    assert_eq!(cx.into_error(), None, "decode errors");
    assert_eq!(T::unknown_keys(&root), Ok(None), "unknown keys");
    out
}

/// Parses one YAML document and decodes it as `T`, returning the decode error text.
pub fn doc_err<T: talos_config::testing::Value>(text: &str) -> String {
    let roots = talos_yaml::parse::parse_documents(text.as_bytes()).expect("yaml parses");
    let root = roots.into_iter().next().expect("one document");
    let mut cx = talos_config::testing::DecodeCx::new();
    let _ = T::decode(&root, &mut cx);
    cx.into_error().unwrap_or_default()
}

/// Encodes a value as the Talos encoder prints it.
pub fn emit<T: talos_config::testing::Value>(v: &T) -> String {
    talos_yaml::emit_v4::emit_v4(&v.encode())
}

/// `merge.Merge(left, right)` on two documents (top-level pointer rule).
pub fn merge_docs<T: talos_config::Kind>(left: &mut T, right: &T) -> Result<(), String> {
    talos_config::testing::Hooks::merge_from(left, right)
}
