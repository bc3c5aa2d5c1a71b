//! Helpers shared by the `model_kinds*` tests (included with `mod`).

#![allow(dead_code)]

use talos_config::Document;
use talos_config::testing::DecodeCx;
use talos_config::testing::lookup;
use talos_yaml::emit_v4::emit_v4;
use talos_yaml::parse::parse_documents;

use crate::common;

/// The peer testdata produced by Talos v1.13.9 (`None`, said loudly, when missing).
pub fn peer_dir() -> Option<std::path::PathBuf> {
    common::peer_dir()
}

/// Decodes every document of `text` (strict, as the loader does).
pub fn decode_all(text: &str) -> Vec<Box<dyn Document>> {
    let roots = parse_documents(text.as_bytes()).expect("parse");
    let mut out = Vec::new();
    for root in roots {
        if root.as_mapping().is_none() {
            continue;
        }
        let kind = root.get("kind").and_then(|k| k.as_scalar()).map(|s| s.text.clone()).unwrap_or_default();
        let entry = lookup(&kind).unwrap_or_else(|| panic!("{kind} not registered"));
        let mut cx = DecodeCx::new();
        let doc = (entry.decode)(&root, &mut cx);
        assert_eq!(cx.into_error(), None, "decode errors");
        assert_eq!((entry.unknown_keys)(&root).expect("unknown keys"), None, "unknown keys");
        out.push(doc);
    }
    out
}

/// Decodes exactly one document.
pub fn decode_one(text: &str) -> Box<dyn Document> {
    let mut docs = decode_all(text);
    assert_eq!(docs.len(), 1, "expected one document");
    docs.remove(0)
}

/// Decodes one document of type `T`.
pub fn decode_as<T: Clone + 'static>(text: &str) -> T {
    let doc = decode_one(text);
    doc.as_any().downcast_ref::<T>().expect("document type").clone()
}

/// `merge.Merge(left, right)` on two documents given as YAML, printed by the Talos encoder.
pub fn merge_docs(left: &str, right: &str) -> Result<String, String> {
    let mut l = decode_one(left);
    let r = decode_one(right);
    l.merge_from(r.as_ref())?;
    Ok(emit_v4(&l.encode()))
}
