//! Go slices and maps, and the `merge:"replace"` wrapper.

use std::collections::BTreeMap;

use super::decode::{construct_error, is_null};
use super::{COMPLEX_SLICE_PATH, DecodeCx, DeletePath, LOOKUP_FAILED, MergeFlags, Value};
use crate::yaml::{Node, NodeValue};

/// A Go slice `[]T` (nil and empty are both the empty `Vec`; see [`Replaced`] for the one place
/// where Talos tells them apart). Merging appends.
impl<T: Value> Value for Vec<T> {
    fn go_type() -> String {
        format!("[]{}", T::go_type())
    }

    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::array_of(T::json_schema(cx))
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        decode_seq(node, cx, &Self::go_type())
    }

    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        decode_seq_taking(node, cx, &Self::go_type())
    }

    fn schema_paths(prefix: &str, out: &mut Vec<String>) {
        T::schema_paths(&format!("{prefix}[]"), out);
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        seq_unknown_keys::<T>(node, &Self::go_type(), release)
    }

    fn encode(&self) -> Node {
        self.encode_for(crate::Release::DEFAULT)
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        Node::sequence(self.iter().map(|v| v.encode_for(release)).collect())
    }

    fn encode_owned_for(self, release: crate::Release) -> Node {
        Node::sequence(self.into_iter().map(|v| v.encode_owned_for(release)).collect())
    }

    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }

    fn replace_keeps_left(&self) -> bool {
        false
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        self.extend(right.iter().cloned());
        Ok(())
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        delete_element(self, path)
    }
}

/// Decodes a sequence node element by element.
pub fn decode_seq<T: Value>(node: &Node, cx: &mut DecodeCx, go_type: &str) -> Vec<T> {
    if is_null(node) {
        return Vec::new();
    }
    match &node.value {
        // go-yaml drops a `null` element that the element type cannot hold.
        NodeValue::Sequence(items, _) => {
            items.iter().filter(|i| T::go_nillable() || !is_null(i)).map(|i| T::decode(i, cx)).collect()
        }
        _ => {
            construct_error(cx, node, go_type);
            Vec::new()
        }
    }
}

/// [`decode_seq`] with [`Value::decode_taking`] of each element.
pub fn decode_seq_taking<T: Value>(node: &mut Node, cx: &mut DecodeCx, go_type: &str) -> Vec<T> {
    if is_null(node) {
        return Vec::new();
    }
    match &mut node.value {
        NodeValue::Sequence(items, _) => {
            items.iter_mut().filter(|i| T::go_nillable() || !is_null(i)).map(|i| T::decode_taking(i, cx)).collect()
        }
        _ => {
            construct_error(cx, node, go_type);
            Vec::new()
        }
    }
}

/// The unknown-keys summary of a sequence: only the elements that have unknown keys.
/// `go_type` names the slice type in the error for a mapping.
pub fn seq_unknown_keys<T: Value>(node: &Node, go_type: &str, release: crate::Release) -> Result<Option<Node>, String> {
    let items = match &node.value {
        NodeValue::Sequence(items, _) => items,
        NodeValue::Mapping(..) => return Err(super::unexpected_shape(node, go_type, release)),
        NodeValue::Scalar(_) => return Ok(None),
    };
    let mut found = Vec::new();
    for item in items {
        if let Some(summary) = T::unknown_keys_for(item, release)? {
            found.push(summary);
        }
    }
    Ok(if found.is_empty() { None } else { Some(Node::sequence(found)) })
}

/// Removes the first element whose selecting field matches (upstream `ApplyTo` on a slice).
pub fn delete_element<T: Value>(items: &mut Vec<T>, path: DeletePath<'_>) -> Result<(), String> {
    if !path.is_last() {
        return Err(COMPLEX_SLICE_PATH.into());
    }
    match path.head() {
        Some("") => return Err("searching for '' in a slice is not supported".into()),
        Some(head) if !head.starts_with('[') => {
            return Err("searching for non-integer keys in slices is not supported".into());
        }
        _ => {}
    }
    let Some((key, value)) = path.element else {
        return Err(LOOKUP_FAILED.into());
    };
    match items.iter().position(|item| item.field_match_text(key).as_deref() == Some(value)) {
        Some(i) => {
            items.remove(i);
            Ok(())
        }
        None => Err(LOOKUP_FAILED.into()),
    }
}

/// A map value: tells Go's nil values apart for the map-merge rule "merge only into a non-nil
/// existing value".
pub trait MapValue: Value {
    /// True when the Go value is nil (a nil pointer, slice, map or interface).
    fn is_nil(&self) -> bool {
        false
    }
}

impl MapValue for String {}
impl MapValue for bool {}
impl<T: Value> MapValue for Option<T> {
    fn is_nil(&self) -> bool {
        self.is_none()
    }
}

/// A Go `map[string]V`. Printed with go-yaml's key order; merged key by key.
impl<V: MapValue> Value for BTreeMap<String, V> {
    fn go_type() -> String {
        format!("map[string]{}", V::go_type())
    }

    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        let values = V::json_schema(cx);
        cx.map_of(values)
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        let mut out = BTreeMap::new();
        if is_null(node) {
            return out;
        }
        match &node.value {
            NodeValue::Mapping(entries, _) if cx.check_duplicate_keys(entries) => {}
            NodeValue::Mapping(entries, _) => {
                for (k, v) in super::mapping_entries(entries, cx).iter() {
                    // A `null` key does not decode into a Go string: go-yaml skips the entry.
                    if is_null(k) {
                        continue;
                    }
                    let key = String::decode(k, cx);
                    out.insert(key, V::decode(v, cx));
                }
            }
            _ => construct_error(cx, node, &Self::go_type()),
        }
        out
    }

    fn schema_paths(prefix: &str, out: &mut Vec<String>) {
        V::schema_paths(&format!("{prefix}{{}}"), out);
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        map_unknown_keys::<V>(node, &Self::go_type(), release)
    }

    fn encode(&self) -> Node {
        self.encode_for(crate::Release::DEFAULT)
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        encode_map(self.iter().map(|(k, v)| (k.as_str(), v.encode_for(release))))
    }

    fn is_empty(&self) -> bool {
        BTreeMap::is_empty(self)
    }

    fn replace_keeps_left(&self) -> bool {
        false
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        for (key, rv) in right {
            match self.get_mut(key) {
                Some(lv) if !lv.is_nil() => lv
                    .merge(rv, flags.nested())
                    .map_err(|e| format!("merge map key {}[{key}]: {e}", Self::go_type()))?,
                _ => {
                    self.insert(key.clone(), rv.clone());
                }
            }
        }
        Ok(())
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        let key = path.head().ok_or(LOOKUP_FAILED)?;
        if path.is_last() {
            return self.remove(key).map(|_| ()).ok_or_else(|| LOOKUP_FAILED.into());
        }
        match self.get_mut(key) {
            Some(v) => v.delete(path.rest()),
            None => Err(LOOKUP_FAILED.into()),
        }
    }
}

/// The unknown-keys summary of a map: per key, the summaries of the values.
/// `go_type` names the map type in the error for a sequence.
pub fn map_unknown_keys<V: Value>(node: &Node, go_type: &str, release: crate::Release) -> Result<Option<Node>, String> {
    let entries = match &node.value {
        NodeValue::Mapping(entries, _) => entries,
        NodeValue::Sequence(..) => return Err(super::unexpected_shape(node, go_type, release)),
        NodeValue::Scalar(_) => return Ok(None),
    };
    let mut found = Vec::new();
    for (k, v) in entries {
        let Some(key) = k.as_scalar() else {
            return Err("unexpected mapping key type".into());
        };
        if let Some(summary) = V::unknown_keys_for(v, release)? {
            found.push((summary_key(k, &key.text), summary));
        }
    }
    Ok(if found.is_empty() { None } else { Some(sorted_mapping(found)) })
}

/// A key of an unknown-keys summary: upstream collects the summary in a Go `map[string]any`, so
/// a key is printed as a Go string (quoted only when needed, whatever its style in the input);
/// it keeps its position, which says where the first unknown key is.
pub fn summary_key(original: &Node, text: &str) -> Node {
    let mut key = Node::go_string(text);
    key.mark = original.mark;
    key
}

/// A mapping node with entries sorted in go-yaml's key order.
pub fn sorted_mapping(mut entries: Vec<(Node, Node)>) -> Node {
    // The emitter's own stable sort: go-yaml's key order is not a total order, and std's sort
    // may panic on such a comparison.
    crate::yaml::emit_v4::sort_keys_v4(&mut entries);
    Node::mapping(entries)
}

/// Encodes map entries with string keys, sorted in go-yaml's key order.
pub fn encode_map<'a>(entries: impl Iterator<Item = (&'a str, Node)>) -> Node {
    sorted_mapping(entries.map(|(k, v)| (Node::go_string(k), v)).collect())
}

/// A field tagged `merge:"replace"` in Talos: a non-nil patch value replaces the whole value
/// (an empty list clears it) unless it is a struct whose fields are all zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replaced<T>(pub Option<T>);

impl<T: Value> Replaced<T> {
    /// The value, or the zero value when nil.
    pub fn get(&self) -> T {
        self.0.clone().unwrap_or_default()
    }
}

impl<T> std::ops::Deref for Replaced<T> {
    type Target = Option<T>;

    fn deref(&self) -> &Option<T> {
        &self.0
    }
}

impl<T: Value> Value for Replaced<T> {
    fn go_type() -> String {
        T::go_type()
    }

    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        T::json_schema(cx)
    }

    fn go_nillable() -> bool {
        T::go_nillable()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) { Replaced(None) } else { Replaced(Some(T::decode(node, cx))) }
    }

    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) { Replaced(None) } else { Replaced(Some(T::decode_taking(node, cx))) }
    }

    fn schema_paths(prefix: &str, out: &mut Vec<String>) {
        T::schema_paths(prefix, out);
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        T::unknown_keys_for(node, release)
    }

    fn encode(&self) -> Node {
        self.encode_for(crate::Release::DEFAULT)
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        match &self.0 {
            Some(v) => v.encode_for(release),
            None => T::default().encode_for(release),
        }
    }

    fn encode_owned_for(self, release: crate::Release) -> Node {
        match self.0 {
            Some(v) => v.encode_owned_for(release),
            None => T::default().encode_for(release),
        }
    }

    fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(Value::is_empty)
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        if let Some(r) = &right.0
            && !r.replace_keeps_left()
        {
            self.0 = Some(r.clone());
        }
        Ok(())
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        match &mut self.0 {
            Some(v) => v.delete(path),
            None => Err(LOOKUP_FAILED.into()),
        }
    }
}

/// A Go slice whose nil and empty states differ to Talos (a few checks test `!= nil`): YAML
/// `[]` is an empty, non-nil slice; an absent key or `null` is nil. Merging appends, like
/// `Vec<T>`; a nil left side takes the patch's (possibly empty) slice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NilableVec<T>(pub Option<Vec<T>>);

impl<T> NilableVec<T> {
    /// True for Go's nil slice.
    pub fn is_nil(&self) -> bool {
        self.0.is_none()
    }

    /// The items (none for nil).
    pub fn items(&self) -> &[T] {
        self.0.as_deref().unwrap_or(&[])
    }
}

impl<T: Value> Value for NilableVec<T> {
    fn go_type() -> String {
        <Vec<T>>::go_type()
    }

    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        <Vec<T>>::json_schema(cx)
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) { NilableVec(None) } else { NilableVec(Some(<Vec<T>>::decode(node, cx))) }
    }

    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) { NilableVec(None) } else { NilableVec(Some(<Vec<T>>::decode_taking(node, cx))) }
    }

    fn schema_paths(prefix: &str, out: &mut Vec<String>) {
        T::schema_paths(&format!("{prefix}[]"), out);
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        seq_unknown_keys::<T>(node, &Self::go_type(), release)
    }

    fn encode(&self) -> Node {
        self.encode_for(crate::Release::DEFAULT)
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        Node::sequence(self.items().iter().map(|v| v.encode_for(release)).collect())
    }

    fn is_empty(&self) -> bool {
        self.items().is_empty()
    }

    fn replace_keeps_left(&self) -> bool {
        self.0.is_none()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        match (&mut self.0, &right.0) {
            (_, None) => {}
            (None, Some(r)) => self.0 = Some(r.clone()),
            (Some(l), Some(r)) => l.extend(r.iter().cloned()),
        }
        Ok(())
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        match &mut self.0 {
            Some(items) => delete_element(items, path),
            None if !path.is_last() => Err(COMPLEX_SLICE_PATH.into()),
            None => Err(LOOKUP_FAILED.into()),
        }
    }
}

/// Implements [`Value`] for a Go named slice type `$name(pub Vec<$elem>)` with its own `Merge`:
/// decoded, checked, printed and deleted from like a slice; merged by `$merge`
/// (`fn(&mut Vec<$elem>, &[$elem], MergeFlags) -> Result<(), String>`). An optional `decode_fixup` adjusts
/// the decoded items (a custom `UnmarshalYAML`), `decode_type` names the type in decode errors.
macro_rules! go_slice_type {
    ($name:ident, $elem:ty, $go:literal, merge = $merge:expr
        $(, decode_type = $decode_type:expr)? $(, decode_fixup = $fixup:expr)? $(,)?) => {
        impl $crate::value::Value for $name {
            fn go_type() -> String {
                $go.into()
            }

            fn go_nillable() -> bool {
                true
            }

            fn json_schema(cx: &mut $crate::value::json_schema::SchemaCx) -> $crate::value::json_schema::Json {
                <Vec<$elem> as $crate::value::Value>::json_schema(cx)
            }

            fn decode(node: &$crate::yaml::Node, cx: &mut $crate::value::DecodeCx) -> Self {
                #[allow(unused_variables)]
                let go_type = Self::go_type();
                $( let go_type: String = $decode_type; )?
                #[allow(unused_mut)]
                let mut items: Vec<$elem> = $crate::value::decode_seq(node, cx, &go_type);
                $( ($fixup)(&mut items); )?
                $name(items)
            }

            fn decode_taking(node: &mut $crate::yaml::Node, cx: &mut $crate::value::DecodeCx) -> Self {
                #[allow(unused_variables)]
                let go_type = Self::go_type();
                $( let go_type: String = $decode_type; )?
                #[allow(unused_mut)]
                let mut items: Vec<$elem> = $crate::value::decode_seq_taking(node, cx, &go_type);
                $( ($fixup)(&mut items); )?
                $name(items)
            }

            fn schema_paths(prefix: &str, out: &mut Vec<String>) {
                <$elem as $crate::value::Value>::schema_paths(&format!("{prefix}[]"), out);
            }

            fn unknown_keys_for(node: &$crate::yaml::Node, release: $crate::Release) -> Result<Option<$crate::yaml::Node>, String> {
                $crate::value::seq_unknown_keys::<$elem>(node, &Self::go_type(), release)
            }

            fn encode(&self) -> $crate::yaml::Node {
                $crate::value::Value::encode_for(self, $crate::Release::DEFAULT)
            }

            fn encode_for(&self, release: $crate::Release) -> $crate::yaml::Node {
                $crate::yaml::Node::sequence(self.0.iter().map(|v| $crate::value::Value::encode_for(v, release)).collect())
            }

            fn encode_owned_for(self, release: $crate::Release) -> $crate::yaml::Node {
                $crate::yaml::Node::sequence(self.0.into_iter().map(|v| $crate::value::Value::encode_owned_for(v, release)).collect())
            }

            fn is_empty(&self) -> bool {
                self.0.is_empty()
            }

            fn replace_keeps_left(&self) -> bool {
                false
            }

            fn merge(&mut self, right: &Self, flags: $crate::value::MergeFlags) -> Result<(), String> {
                ($merge)(&mut self.0, &right.0, flags)
            }

            fn delete(&mut self, path: $crate::value::DeletePath<'_>) -> Result<(), String> {
                $crate::value::delete_element(&mut self.0, path)
            }
        }
    };
}

pub(crate) use go_slice_type;
