//! Test support for the model: decode a YAML stream into typed documents and encode it again,
//! the way `configloader` + the Talos encoder do (a shortcut until the full loader is used).

use crate::document::Document;
use crate::model::registry::lookup;
use crate::value::DecodeCx;
use crate::yaml::emit_v4::{emit_v4, emit_v4_with_comments};
use crate::yaml::parse::parse_documents;

/// Decodes every document of `text` (kind chosen by `kind:`, legacy when absent), checks unknown
/// keys, and re-encodes them joined by `---\n` (legacy document first).
pub fn roundtrip(text: &[u8]) -> Result<String, String> {
    let mut docs: Vec<Box<dyn Document>> = Vec::new();
    for root in parse_documents(text).map_err(|e| e.to_string())? {
        if root.as_mapping().is_none() {
            continue;
        }
        let kind = root.get("kind").and_then(|k| k.as_scalar()).map(|s| s.text.as_str()).unwrap_or("v1alpha1");
        let entry = lookup(kind).ok_or_else(|| format!("{kind:?} not registered"))?;
        let mut cx = DecodeCx::new();
        let doc = (entry.decode)(&root, &mut cx);
        if let Some(e) = cx.into_error() {
            return Err(e);
        }
        if let Some(unknown) = (entry.unknown_keys)(&root)? {
            return Err(format!("unknown keys found during decoding:\n{}", emit_v4_with_comments(&unknown)));
        }
        docs.push(doc);
    }
    docs.sort_by_key(|d| d.kind() != "v1alpha1");
    Ok(docs.iter().map(|d| emit_v4(&d.encode())).collect::<Vec<_>>().join("---\n"))
}
