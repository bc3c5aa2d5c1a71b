//! The field-by-field half of struct types, implemented by `#[derive(Talos)]`.

use super::collections::{sorted_mapping, summary_key};
use super::decode::{construct_error, is_null};
use super::{DecodeCx, DeletePath};
use crate::yaml::{Node, NodeValue};

/// A Go struct seen field by field; lets `,inline` embedded structs take part in their
/// parent's decoding, encoding and deletes. Implemented by `#[derive(Talos)]`.
pub trait StructFields: Default {
    /// Decodes the field with YAML key `key`; false when no field has that key.
    fn decode_field(&mut self, key: &str, value: &Node, cx: &mut DecodeCx) -> bool;
    /// `None` when no field has that key, else the field's unknown-keys summary.
    fn field_unknown_keys(key: &str, value: &Node, release: crate::Release) -> Result<Option<Option<Node>>, String>;
    /// Appends `key: value` pairs in Go field order, honouring `omitempty`.
    fn encode_fields(&self, out: &mut Vec<(Node, Node)>, release: crate::Release);
    /// Walks a delete into the field named by the path's head; `None` when there is none.
    fn delete_field(&mut self, path: DeletePath<'_>) -> Option<Result<(), String>>;
    /// `None` when no field has that key, else the field's match text.
    fn field_match(&self, key: &str) -> Option<Option<String>>;
    /// Appends `key: schema` for each field, inlined fields' own fields in their place.
    fn json_properties(
        cx: &mut crate::value::json_schema::SchemaCx,
        props: &mut Vec<(String, crate::value::json_schema::Json)>,
    );
}

/// go-yaml's decoding of a mapping into a struct: known keys decode into their fields,
/// unknown keys are ignored here (the unknown-keys check reports them).
pub fn decode_struct<T: StructFields>(node: &Node, cx: &mut DecodeCx, go_type: &str) -> T {
    let mut out = T::default();
    if is_null(node) {
        return out;
    }
    match &node.value {
        NodeValue::Mapping(entries, _) if cx.check_duplicate_keys(entries) => {}
        NodeValue::Mapping(entries, _) => {
            for (k, v) in super::mapping_entries(entries, cx).iter() {
                if let Some(key) = k.as_scalar() {
                    out.decode_field(&key.text, v, cx);
                }
            }
        }
        _ => construct_error(cx, node, go_type),
    }
    out
}

/// `xyaml.CheckUnknownKeys` for a struct: unknown keys keep their original value node.
pub fn struct_unknown_keys<T: StructFields + super::Value>(
    node: &Node,
    release: crate::Release,
) -> Result<Option<Node>, String> {
    let entries = match &node.value {
        NodeValue::Mapping(entries, _) => entries,
        NodeValue::Sequence(..) => return Err(super::unexpected_shape(node, &T::go_type())),
        NodeValue::Scalar(_) => return Ok(None),
    };
    let mut found = Vec::new();
    for (k, v) in entries {
        let Some(key) = k.as_scalar() else {
            return Err("unexpected mapping key type".into());
        };
        match T::field_unknown_keys(&key.text, v, release)? {
            None => found.push((summary_key(k, &key.text), v.clone())),
            Some(Some(summary)) => found.push((summary_key(k, &key.text), summary)),
            Some(None) => {}
        }
    }
    Ok(if found.is_empty() { None } else { Some(sorted_mapping(found)) })
}
