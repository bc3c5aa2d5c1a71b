//! The field-by-field half of struct types, implemented by `#[derive(Talos)]`.

use super::collections::{sorted_mapping, summary_key};
use super::decode::{construct_error, is_null};
use super::{DecodeCx, DeletePath};
use crate::yaml::{Node, NodeValue};

/// A Go struct seen field by field; lets `,inline` embedded structs take part in their
/// parent's decoding, encoding and deletes. Implemented by `#[derive(Talos)]`.
pub trait StructFields: Default {
    /// Decodes the field with YAML key `key` ([`Value::decode_taking`](super::Value::decode_taking):
    /// its strings are moved out of `value`); false when no field has that key.
    fn decode_field(&mut self, key: &str, value: &mut Node, cx: &mut DecodeCx) -> bool;
    /// `None` when no field has that key, else the field's unknown-keys summary.
    fn field_unknown_keys(key: &str, value: &Node, release: crate::Release) -> Result<Option<Option<Node>>, String>;
    /// Appends `key: value` pairs in Go field order, honouring `omitempty`, each field moved
    /// into the tree ([`Value::encode_owned_for`](super::Value::encode_owned_for)).
    fn encode_fields(self, out: &mut Vec<(Node, Node)>, release: crate::Release);
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
/// unknown keys are ignored here (the unknown-keys check reports them). The fields' strings are
/// moved out of the node ([`Value::decode_taking`](super::Value::decode_taking)); a mapping with
/// a merge key decodes from the merged copy of its entries (the node is left whole).
pub fn decode_struct<T: StructFields>(node: &mut Node, cx: &mut DecodeCx, go_type: &str) -> T {
    let mut out = T::default();
    decode_struct_fields(node, cx, go_type, &mut |key, value, cx| {
        out.decode_field(key, value, cx);
    });
    out
}

/// The body of [`decode_struct`], once for every struct type (the field decoder is the only
/// part that differs): keeps the library's build time down.
fn decode_struct_fields(
    node: &mut Node,
    cx: &mut DecodeCx,
    go_type: &str,
    decode_field: &mut dyn FnMut(&str, &mut Node, &mut DecodeCx),
) {
    if is_null(node) {
        return;
    }
    let NodeValue::Mapping(entries, _) = &mut node.value else {
        construct_error(cx, node, go_type);
        return;
    };
    if cx.check_duplicate_keys(entries) {
        return;
    }
    let mut merged = match super::mapping_entries(entries, cx) {
        std::borrow::Cow::Owned(merged) => Some(merged),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let entries = match &mut merged {
        Some(merged) => merged.as_mut_slice(),
        None => entries.as_mut_slice(),
    };
    for (k, v) in entries.iter_mut() {
        if let Some(key) = k.as_scalar() {
            decode_field(&key.text, v, cx);
        }
    }
}

/// `xyaml.CheckUnknownKeys` for a struct: unknown keys keep their original value node.
pub fn struct_unknown_keys<T: StructFields + super::Value>(
    node: &Node,
    release: crate::Release,
) -> Result<Option<Node>, String> {
    struct_unknown_keys_with(node, release, &T::go_type, &T::field_unknown_keys)
}

/// What a struct field reports to `xyaml.CheckUnknownKeys`: `None` for an unknown key,
/// `Some(summary)` for a known one.
type FieldUnknownKeys<'a> = dyn Fn(&str, &Node, crate::Release) -> Result<Option<Option<Node>>, String> + 'a;

/// The body of [`struct_unknown_keys`], once for every struct type.
fn struct_unknown_keys_with(
    node: &Node,
    release: crate::Release,
    go_type: &dyn Fn() -> String,
    field_unknown_keys: &FieldUnknownKeys<'_>,
) -> Result<Option<Node>, String> {
    let entries = match &node.value {
        NodeValue::Mapping(entries, _) => entries,
        NodeValue::Sequence(..) => return Err(super::unexpected_shape(node, &go_type(), release)),
        NodeValue::Scalar(_) => return Ok(None),
    };
    let mut found = Vec::new();
    for (k, v) in entries {
        let Some(key) = k.as_scalar() else {
            return Err("unexpected mapping key type".into());
        };
        match field_unknown_keys(&key.text, v, release)? {
            None => found.push((summary_key(k, &key.text), v.clone())),
            Some(Some(summary)) => found.push((summary_key(k, &key.text), summary)),
            Some(None) => {}
        }
    }
    Ok(if found.is_empty() { None } else { Some(sorted_mapping(found)) })
}
