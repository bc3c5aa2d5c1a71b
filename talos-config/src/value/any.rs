//! Free-form values: Go's `any` as go-yaml decodes it, and Talos's `Unstructured`.

use std::collections::BTreeMap;

use super::collections::{MapValue, encode_map};
use super::decode::is_null;
use super::{DecodeCx, DeletePath, LOOKUP_FAILED, MergeFlags, Value};
use crate::yaml::node::deep;
use crate::yaml::resolve::{Resolved, format_float, resolve_v4};
use crate::yaml::{Node, NodeValue, ScalarStyle};

/// A Go `any` holding what go-yaml v4 decodes into it.
///
/// Values nest as deep as the YAML they come from (10,000 levels): cloning, comparing and
/// dropping never overflow the stack, on any thread.
#[derive(Debug, Default)]
pub enum Any {
    /// `nil`.
    #[default]
    Null,
    /// A `bool`.
    Bool(bool),
    /// An `int` (or `uint64` beyond it), as decimal text.
    Int(String),
    /// A `float64`.
    Float(f64),
    /// A `string`.
    String(String),
    /// A `time.Time`, as the RFC 3339 text go-yaml prints.
    Time(String),
    /// A `[]any`.
    List(Vec<Any>),
    /// A `map[string]any`, keys in order.
    Map(BTreeMap<String, Any>),
}

impl Clone for Any {
    fn clone(&self) -> Any {
        deep(|| match self {
            Any::Null => Any::Null,
            Any::Bool(b) => Any::Bool(*b),
            Any::Int(i) => Any::Int(i.clone()),
            Any::Float(f) => Any::Float(*f),
            Any::String(s) => Any::String(s.clone()),
            Any::Time(t) => Any::Time(t.clone()),
            Any::List(items) => Any::List(items.clone()),
            Any::Map(map) => Any::Map(map.clone()),
        })
    }
}

impl PartialEq for Any {
    fn eq(&self, other: &Any) -> bool {
        deep(|| match (self, other) {
            (Any::Null, Any::Null) => true,
            (Any::Bool(a), Any::Bool(b)) => a == b,
            (Any::Int(a), Any::Int(b)) | (Any::String(a), Any::String(b)) | (Any::Time(a), Any::Time(b)) => a == b,
            (Any::Float(a), Any::Float(b)) => a == b,
            (Any::List(a), Any::List(b)) => a == b,
            (Any::Map(a), Any::Map(b)) => a == b,
            _ => false,
        })
    }
}

/// Dropping never recurses: nested lists and maps are moved to a list on the heap first.
impl Drop for Any {
    fn drop(&mut self) {
        let mut pending = Vec::new();
        defer_children(self, &mut pending);
        while let Some(mut value) = pending.pop() {
            defer_children(&mut value, &mut pending);
        }
    }
}

/// Moves the children of a list or map to `pending` (scalars are freed in place).
fn defer_children(value: &mut Any, pending: &mut Vec<Any>) {
    match value {
        Any::List(items) => pending.append(items),
        Any::Map(map) => pending.extend(std::mem::take(map).into_values()),
        _ => {}
    }
}

impl Any {
    /// Go's dynamic type name, for merge type mismatches.
    fn go_dynamic_type(&self) -> &'static str {
        match self {
            Any::Null => "<nil>",
            Any::Bool(_) => "bool",
            Any::Int(_) => "int",
            Any::Float(_) => "float64",
            Any::String(_) => "string",
            Any::Time(_) => "time.Time",
            Any::List(_) => "[]interface {}",
            Any::Map(_) => "map[string]interface {}",
        }
    }

    /// Go's zero test for scalars inside the merge engine (`""`, `0`, `0.0` are zero; `false`
    /// is copied anyway).
    fn is_zero_scalar(&self) -> bool {
        match self {
            Any::String(s) => s.is_empty(),
            Any::Int(i) => i == "0",
            Any::Float(f) => *f == 0.0,
            _ => false,
        }
    }
}

impl Value for Any {
    fn go_type() -> String {
        "interface {}".into()
    }

    /// Anything decodes into a Go `interface{}`: nothing below it is checked.
    fn unknown_keys_for(_node: &Node, _release: crate::Release) -> Result<Option<Node>, String> {
        Ok(None)
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        deep(|| decode_any(node, cx))
    }

    fn encode(&self) -> Node {
        deep(|| self.encode_at_depth())
    }

    fn is_empty(&self) -> bool {
        match self {
            Any::Null => true,
            Any::Bool(b) => !b,
            Any::List(l) => l.is_empty(),
            Any::Map(m) => m.is_empty(),
            Any::Time(_) => false,
            other => other.is_zero_scalar(),
        }
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        deep(|| self.merge_at_depth(right))
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        deep(|| match self {
            Any::Map(m) => delete_any_key(m, path),
            _ => Err(LOOKUP_FAILED.into()),
        })
    }
}

/// [`Any`]'s `decode`, one level (the caller guards the stack).
fn decode_any(node: &Node, cx: &mut DecodeCx) -> Any {
    match &node.value {
        NodeValue::Scalar(s) => {
            if node.tag.as_deref() == Some("!!binary") {
                // go-yaml's `!!binary` decoding ([`super::decode_binary`]).
                return Any::String(String::decode(node, cx));
            }
            let explicit = node.tag.as_deref().is_some_and(super::decode::is_resolvable_tag);
            if (s.style != ScalarStyle::Plain && !explicit) || node.tag.as_deref() == Some("!!str") {
                return Any::String(s.text.clone());
            }
            match resolve_v4(&s.text) {
                Resolved::Null => Any::Null,
                Resolved::Bool(b) => Any::Bool(b),
                Resolved::Int(i) => Any::Int(i),
                Resolved::Float(f) => Any::Float(f),
                Resolved::Timestamp(t) => Any::Time(t),
                Resolved::Str => Any::String(s.text.clone()),
            }
        }
        NodeValue::Sequence(items, _) => Any::List(items.iter().map(|i| Any::decode(i, cx)).collect()),
        NodeValue::Mapping(entries, _) if cx.check_duplicate_keys(entries) => Any::Null,
        NodeValue::Mapping(entries, _) => {
            let mut map = BTreeMap::new();
            for (k, v) in super::mapping_entries(entries, cx).iter() {
                let key = match k.as_scalar() {
                    Some(s) => s.text.clone(),
                    None => {
                        cx.error(k, "invalid map key");
                        continue;
                    }
                };
                map.insert(key, Any::decode(v, cx));
            }
            Any::Map(map)
        }
    }
}

impl Any {
    fn encode_at_depth(&self) -> Node {
        match self {
            Any::Null => Node::null(),
            Any::Bool(b) => b.encode(),
            Any::Int(i) => Node::plain(i.clone()),
            Any::Float(f) => Node::plain(format_float(*f)),
            Any::String(s) => Node::go_string(s.clone()),
            Any::Time(t) => Node::plain(t.clone()),
            Any::List(items) => Node::sequence(items.iter().map(Value::encode).collect()),
            Any::Map(m) => encode_map(m.iter().map(|(k, v)| (k.as_str(), v.encode()))),
        }
    }

    fn merge_at_depth(&mut self, right: &Self) -> Result<(), String> {
        if std::mem::discriminant(self) != std::mem::discriminant(right) {
            return Err(format!(
                "merge type mismatch left {} right {}",
                self.go_dynamic_type(),
                right.go_dynamic_type()
            ));
        }
        match (self, right) {
            (Any::Map(l), Any::Map(r)) => merge_any_map(l, r),
            (Any::List(l), Any::List(r)) => {
                l.extend(r.iter().cloned());
                Ok(())
            }
            (l, r) => {
                if !r.is_zero_scalar() {
                    *l = r.clone();
                }
                Ok(())
            }
        }
    }
}

impl MapValue for Any {
    fn is_nil(&self) -> bool {
        *self == Any::Null
    }
}

/// Merges `map[string]any` values key by key.
fn merge_any_map(left: &mut BTreeMap<String, Any>, right: &BTreeMap<String, Any>) -> Result<(), String> {
    for (key, rv) in right {
        match left.get_mut(key) {
            Some(lv) if !lv.is_nil() => {
                if rv.is_nil() {
                    // Upstream panics here (reflection on a nil interface); we refuse instead.
                    return Err(format!(
                        "merge map key map[string]interface {{}}[{key}]: merge type mismatch left {} right <nil>",
                        lv.go_dynamic_type()
                    ));
                }
                lv.merge(rv, MergeFlags::default())
                    .map_err(|e| format!("merge map key map[string]interface {{}}[{key}]: {e}"))?;
            }
            _ => {
                left.insert(key.clone(), rv.clone());
            }
        }
    }
    Ok(())
}

fn delete_any_key(map: &mut BTreeMap<String, Any>, path: DeletePath<'_>) -> Result<(), String> {
    let key = path.head().ok_or(LOOKUP_FAILED)?;
    if path.is_last() {
        return map.remove(key).map(|_| ()).ok_or_else(|| LOOKUP_FAILED.into());
    }
    match map.get_mut(key) {
        Some(v) => v.delete(path.rest()),
        None => Err(LOOKUP_FAILED.into()),
    }
}

/// Talos's `Unstructured`: a struct with one inline `map[string]any`, so any keys are accepted
/// and printed sorted. An empty mapping decodes to the zero value (nil map).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Unstructured {
    /// `None` is Go's nil map.
    pub object: Option<BTreeMap<String, Any>>,
}

impl Value for Unstructured {
    fn go_type() -> String {
        "v1alpha1.Unstructured".into()
    }

    /// An inline `map[string]interface{}`: any key, any value.
    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        match &node.value {
            NodeValue::Sequence(..) => Err(super::unexpected_shape(node, &Self::go_type(), release)),
            _ => Ok(None),
        }
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Unstructured::default();
        }
        match &node.value {
            NodeValue::Mapping(entries, _) if entries.is_empty() => Unstructured::default(),
            NodeValue::Mapping(..) => match &mut Any::decode(node, cx) {
                Any::Map(m) => Unstructured { object: Some(std::mem::take(m)) },
                _ => Unstructured::default(),
            },
            _ => {
                super::construct_error(cx, node, &Self::go_type());
                Unstructured::default()
            }
        }
    }

    fn encode(&self) -> Node {
        match &self.object {
            Some(m) => encode_map(m.iter().map(|(k, v)| (k.as_str(), v.encode()))),
            None => Node::mapping(Vec::new()),
        }
    }

    fn is_empty(&self) -> bool {
        self.object.as_ref().is_none_or(BTreeMap::is_empty)
    }

    fn replace_keeps_left(&self) -> bool {
        self.object.is_none()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        let Some(r) = &right.object else {
            return Ok(());
        };
        let left = self.object.get_or_insert_with(BTreeMap::new);
        merge_any_map(left, r).map_err(|e| format!("merge field v1alpha1.Unstructured.Object: {e}"))
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        match &mut self.object {
            Some(m) => delete_any_key(m, path),
            None => Err(LOOKUP_FAILED.into()),
        }
    }
}
