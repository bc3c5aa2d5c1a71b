//! The rules Talos attaches to its Go types, carried here by Rust types.
//!
//! Every field type of every document implements [`Value`]: how go-yaml decodes it (and what
//! `xyaml.CheckUnknownKeys` reports), how the Talos encoder prints it (`omitempty` zero test
//! included), how `merge.Merge` combines a patch into it, and how `$patch: delete` walks into
//! it. Structs get their implementation from `#[derive(Talos)]`; the few types with custom Go
//! behaviour implement it by hand.

mod any;
mod collections;
mod decode;
pub mod json_schema;
mod scalars;
mod structs;
pub mod url;

pub use any::{Any, Unstructured};
pub(crate) use collections::go_slice_type;
pub use collections::{
    MapValue, decode_seq, decode_seq_taking, delete_element, encode_map, map_unknown_keys, seq_unknown_keys,
    sorted_mapping, summary_key,
};
pub use collections::{NilableVec, Replaced};
pub(crate) use decode::mapping_entries;
pub(crate) use decode::tag_error;
pub use decode::{DecodeCx, construct_error, explicit_tag_error, text_unmarshaler_refuses};
pub use decode::{decode_binary, is_null};
pub use scalars::{Duration, FileMode};
pub(crate) use scalars::{decode_int, octal_mode_value};
pub use structs::{StructFields, decode_struct, struct_unknown_keys};

use crate::yaml::Node;

/// Flags of one `merge(left, right, replace, overwrite)` call of the Go merge engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeFlags {
    /// Set while merging the pointee of two non-nil pointers: zero scalars then overwrite.
    pub overwrite: bool,
    /// The release whose merge rules apply (types whose merge changed between releases).
    pub release: crate::Release,
}

impl MergeFlags {
    /// The flags of a top-level merge as `release` merges.
    pub fn top(release: crate::Release) -> MergeFlags {
        MergeFlags { overwrite: false, release }
    }

    /// The flags of a nested value's merge (a struct field, a map value).
    pub fn nested(self) -> MergeFlags {
        MergeFlags { overwrite: false, ..self }
    }

    /// The flags of the merge of two non-nil pointers' pointees.
    pub fn pointee(self) -> MergeFlags {
        MergeFlags { overwrite: true, ..self }
    }
}

/// Where a `$patch: delete` walk is going: the remaining YAML keys, and for a list element the
/// field and value that select it.
#[derive(Clone, Copy, Debug)]
pub struct DeletePath<'a> {
    /// Remaining path segments (`[i]` for list positions).
    pub segments: &'a [String],
    /// For list-element deletes: the element's field key and the value to match.
    pub element: Option<(&'a str, &'a str)>,
}

impl<'a> DeletePath<'a> {
    /// The path after its first segment.
    pub fn rest(&self) -> DeletePath<'a> {
        DeletePath { segments: self.segments.get(1..).unwrap_or(&[]), element: self.element }
    }

    /// The first segment, if any.
    pub fn head(&self) -> Option<&'a str> {
        self.segments.first().map(String::as_str)
    }

    /// True when the first segment is the last one.
    pub fn is_last(&self) -> bool {
        self.segments.len() == 1
    }
}

/// Upstream's texts for a failed delete walk.
pub const LOOKUP_FAILED: &str = "lookup failed";
/// Upstream's text for a list-element delete whose path goes on after the element.
pub const COMPLEX_SLICE_PATH: &str = "searching for complex paths in slices is not supported";

/// The per-type rules. See the module documentation.
pub trait Value: Clone + Default + std::fmt::Debug + PartialEq {
    /// The Go type name as go-yaml and the merge engine print it (`string`, `[]string`,
    /// `v1alpha1.NetworkDeviceList`, `*v1alpha1.MachineConfig`).
    fn go_type() -> String;

    /// True when the Go type is a pointer, interface, map or slice: a YAML `null` decodes into
    /// it (as nil). Into any other type a `null` fails silently, so go-yaml drops a `null`
    /// element of a list of such values.
    fn go_nillable() -> bool {
        false
    }

    /// True when the Go type implements `encoding.TextUnmarshaler`: go-yaml then refuses a
    /// mapping or sequence before anything else, naming the type as declared (pointer
    /// included): ``cannot construct !!seq into *nethelpers.BondMode (TextUnmarshaler)``.
    fn text_unmarshaler() -> bool {
        false
    }

    /// Decodes `node` like go-yaml's `Decode` into a fresh Go value of this type. Type errors are
    /// recorded in `cx` (decoding goes on, as go-yaml does), and the zero value stands in.
    fn decode(node: &Node, cx: &mut DecodeCx) -> Self;

    /// [`Value::decode`] of a node that is read no more afterwards, except by the explicit-tag
    /// check ([`explicit_tag_error`]): the same value and the same errors, with the text of
    /// untagged scalars moved out of the node instead of copied (its tags, positions and shape
    /// stay). A large config's strings are then in memory once while it decodes. The default
    /// copies, as `decode` does; strings, options, lists and structs move.
    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        Self::decode(node, cx)
    }

    /// The unknown-keys summary of `node` against this type (`xyaml.CheckUnknownKeys`):
    /// `Ok(None)` when every key is known. The default is a Go type that is neither a struct, a
    /// map, a slice nor an interface: a mapping or sequence there is an error (reached only
    /// where decoding let it through: merge keys, custom decoders).
    fn unknown_keys(node: &Node) -> Result<Option<Node>, String> {
        Self::unknown_keys_for(node, crate::Release::DEFAULT)
    }

    /// [`Value::unknown_keys`] as `release` checks them: fields it does not have are unknown.
    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        match &node.value {
            crate::yaml::NodeValue::Scalar(_) => Ok(None),
            _ => Err(unexpected_shape(node, &Self::go_type(), release)),
        }
    }

    /// Encodes like go-yaml's `Marshal` of the Go value.
    fn encode(&self) -> Node;

    /// [`Value::encode`] as `release` encodes the value: types whose encoding changed between
    /// releases, and the structs and collections holding them, say so here.
    fn encode_for(&self, _release: crate::Release) -> Node {
        self.encode()
    }

    /// [`Value::encode_for`] of a value that is not needed afterwards: the same tree, with the
    /// value's strings moved into it instead of copied, so that a large config's text is not in
    /// memory twice while it is encoded. The default copies; strings, options, lists and structs
    /// move.
    fn encode_owned_for(self, release: crate::Release) -> Node {
        self.encode_for(release)
    }

    /// go-yaml's `isZero`: true when an `omitempty` field holding this value is left out.
    fn is_empty(&self) -> bool;

    /// For a `merge:"replace"` field: true when the patch value counts as absent (Go: a struct
    /// all of whose fields are zero; never for slices and maps that are non-nil).
    fn replace_keeps_left(&self) -> bool {
        self.is_empty()
    }

    /// Merges `right` (the patch) into `self` with the Go merge engine's rules.
    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String>;

    /// Appends the YAML path of every struct field below this type (`a.b`, `[]` for a list
    /// element, `{}` for a map value) under `prefix`: the model's field set, which the tests
    /// compare with Talos's Go structs. Types that decode themselves have none.
    fn schema_paths(_prefix: &str, _out: &mut Vec<String>) {}

    /// The JSON Schema of this type's YAML form, as Talos decodes it (`{}`, anything, for a
    /// type that decodes itself and says no more).
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::any()
    }

    /// Walks a `$patch: delete` path into this value (upstream `ApplyTo`).
    fn delete(&mut self, _path: DeletePath<'_>) -> Result<(), String> {
        Err(LOOKUP_FAILED.to_string())
    }

    /// The text a list-element delete compares against when this value is the selecting field:
    /// `Some` for Go strings and `fmt.Stringer`s, `None` for anything else (never matches).
    fn match_text(&self) -> Option<String> {
        None
    }

    /// For structs: the [`Value::match_text`] of the field with the YAML key `key`.
    fn field_match_text(&self, _key: &str) -> Option<String> {
        None
    }
}

/// `xyaml.CheckUnknownKeys`'s error for a mapping or sequence where the Go type (`go_type`,
/// pointers followed) cannot hold one, naming the type as `release`'s code does.
pub fn unexpected_shape(node: &Node, go_type: &str, release: crate::Release) -> String {
    let shape = match &node.value {
        crate::yaml::NodeValue::Sequence(..) => "sequence",
        _ => "mapping",
    };
    format!("unexpected type for yaml {shape}: {}", release.go_type_name(go_type))
}

/// Convenience: merge where both sides are fresh (top-level call flags).
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
pub fn merge_values<T: Value>(left: &mut T, right: &T) -> Result<(), String> {
    left.merge(right, MergeFlags::top(crate::Release::DEFAULT))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The types v1.14 moved to package `meta` are named there from v1.14 on.
    #[test]
    fn an_unexpected_shape_names_the_release_s_go_type() {
        let seq = Node::sequence(Vec::new());
        assert_eq!(
            unexpected_shape(&seq, "v1alpha1.Unstructured", crate::Release::V1_14_0_RC1),
            "unexpected type for yaml sequence: meta.Unstructured"
        );
        assert_eq!(
            unexpected_shape(&seq, "v1alpha1.Unstructured", crate::Release::V1_13_9),
            "unexpected type for yaml sequence: v1alpha1.Unstructured"
        );
    }
}
