//! JSON6902 (RFC 6902 JSON Patch) patches as `talosctl machineconfig patch` applies them:
//! evanphx/json-patch v5.9.11 (root package) semantics and error texts, with the ghodss/yaml
//! (yaml.v2) conversions around it (docs/merge.md §1.2 steps 2–3, §3).

// Some helpers are reached only by the crate's tests (`testing`).
#![cfg_attr(not(feature = "testing"), allow(dead_code))]

mod apply;
mod convert;
pub(crate) mod json;

pub use convert::YamlListError;

use apply::Op;
use json::Json;

use crate::yaml::emit_v2::emit_v2;
use crate::yaml::parse::{count_documents_in, parse_documents_in, parse_first_document_in};

/// An RFC 6902 patch: ordered operations, each keeping the raw JSON of its fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonPatch {
    ops: Vec<Op>,
}

impl JsonPatch {
    /// Decodes the JSON form (`jsonpatch.DecodePatch`: `encoding/json` into
    /// `[]map[string]*json.RawMessage`). The error is Go's text as Talos's binaries (Go 1.25 and
    /// 1.26) print it, e.g. `json: cannot unmarshal number into Go value of type
    /// jsonpatch.Operation` (Go 1.27's `encoding/json` names the item, `Patch.0`).
    pub fn from_json(bytes: &[u8]) -> Result<JsonPatch, String> {
        let items = match &mut json::parse(bytes)? {
            Json::Null => return Ok(JsonPatch::default()),
            Json::Array(items) => std::mem::take(items),
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
                    other.go_kind()
                ));
            }
        };
        let mut first_err = None;
        let mut ops = Vec::with_capacity(items.len());
        for mut item in items {
            match &mut item {
                Json::Object(fields) => ops.push(Op {
                    // A JSON `null` field is a nil `*json.RawMessage`.
                    fields: std::mem::take(fields)
                        .into_iter()
                        .map(|(k, v)| (k, if v == Json::Nil { Json::RawNil } else { v }))
                        .collect(),
                }),
                Json::Nil | Json::Null => ops.push(Op::default()),
                other => {
                    if first_err.is_none() {
                        first_err = Some(format!(
                            "json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
                            other.go_kind()
                        ));
                    }
                    ops.push(Op::default());
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(JsonPatch { ops }),
        }
    }

    /// Decodes the YAML-list form (go-yaml v4 `Unmarshal` into `[]map[string]any` of the first
    /// document, every value then `encoding/json.Marshal`led). See [`JsonPatch::decode_yaml_list`]
    /// for telling a decode failure from a marshal failure.
    pub fn from_yaml_list(bytes: &[u8]) -> Result<JsonPatch, String> {
        Self::decode_yaml_list(bytes, crate::yaml::Dialect::default()).map_err(|e| e.to_string())
    }

    /// Like [`JsonPatch::from_yaml_list`], but says whether go-yaml failed (upstream `LoadPatch`
    /// then falls back to the JSON or strategic error) or `json.Marshal` failed (upstream
    /// returns that error, e.g. `json: unsupported value: NaN`). Parsed as the release's go-yaml
    /// (`dialect`) parses it.
    pub fn decode_yaml_list(bytes: &[u8], dialect: crate::yaml::Dialect) -> Result<JsonPatch, YamlListError> {
        // `yaml.Unmarshal` reads the first document only: later ones are never parsed.
        let first = parse_first_document_in(bytes, dialect).map_err(|e| YamlListError::Decode(e.to_string()))?;
        let docs: Vec<_> = first.into_iter().map(|d| d.root).collect();
        let ops = convert::yaml_list_ops(&docs)?;
        Ok(JsonPatch { ops: ops.into_iter().map(|fields| Op { fields }).collect() })
    }

    /// Appends `other`'s operations (consecutive JSON patches are coalesced, §1.1 step 3).
    pub fn append(&mut self, other: JsonPatch) {
        self.ops.extend(other.ops);
    }

    /// Number of operations.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// True when there are no operations.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Each operation's kind as upstream reads it (`add`, …; `unknown` when `op` is missing or
    /// not a string).
    pub fn op_kinds(&self) -> Vec<String> {
        self.ops.iter().map(Op::kind).collect()
    }

    /// Each operation's decoded `path` (`None` when missing or not a string).
    pub fn paths(&self) -> Vec<Option<String>> {
        self.ops.iter().map(|op| op.path().ok()).collect()
    }

    /// Each operation as compact JSON with its fields in first-seen order (e.g.
    /// `{"op":"add","path":"/a","value":["x"]}`).
    pub fn ops_json(&self) -> Vec<String> {
        self.ops.iter().map(|op| Json::Object(op.fields.clone()).to_text()).collect()
    }
}

/// §3 `configpatcher.JSON6902`: counts the documents, converts the config to JSON (yaml.v2, YAML
/// 1.1), applies the patch and converts back (yaml.v2 emitter). The error is Talos's full text,
/// e.g. `failure applying rfc6902 patches to talos machine config: Unexpected kind: crash`.
pub fn apply_json6902(config: &[u8], patch: &JsonPatch) -> Result<String, String> {
    apply_json6902_in(config, patch, crate::yaml::Dialect::default())
}

/// [`apply_json6902`] with the documents counted by `dialect`'s go-yaml (its syntax errors).
pub(crate) fn apply_json6902_in(
    config: &[u8],
    patch: &JsonPatch,
    dialect: crate::yaml::Dialect,
) -> Result<String, String> {
    let decoding = |e: crate::yaml::parse::YamlError| format!("failure decoding talos machine config: {e}");
    const SEVERAL: &str = "JSON6902 patches are not supported for multi-document machine configuration";
    // A stream that may hold several documents is counted first (the same parse, keeping no
    // text): one that is refused is then never held in memory whole.
    if may_hold_several_documents(config) && count_documents_in(config, dialect).map_err(decoding)? != 1 {
        return Err(SEVERAL.to_string());
    }
    let docs = parse_documents_in(config, dialect).map_err(decoding)?;
    let [doc] = docs.as_slice() else {
        return Err(SEVERAL.to_string());
    };
    let json =
        convert::yaml_to_json_v2(doc).map_err(|e| format!("failure converting talos machine config to json: {e}"))?;
    let json = apply::apply(json, &patch.ops)
        .map_err(|e| format!("failure applying rfc6902 patches to talos machine config: {e}"))?;
    let node = convert::json_to_yaml_v2(&json)
        .map_err(|e| format!("failure converting talos machine config from json to yaml: {e}"))?;
    Ok(emit_v2(&node))
}

/// Whether a document marker (`---` or `...`) starts a line of `config`: without one, a stream
/// holds one document at most. (Only a shortcut: a stream that has one is parsed in full anyway.)
fn may_hold_several_documents(config: &[u8]) -> bool {
    config.split(|&b| b == b'\n' || b == b'\r').any(|line| line.starts_with(b"---") || line.starts_with(b"..."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_without_document_markers_holds_one_document_at_most() {
        assert!(!may_hold_several_documents(b"machine:\n  type: worker # --- not a marker\n"));
        assert!(may_hold_several_documents(b"---\nmachine: {}\n"));
        assert!(may_hold_several_documents(b"a: 1\n---\nb: 2\n"));
        assert!(may_hold_several_documents(b"a: 1\r\n...\r\n"));
    }

    #[test]
    fn from_json_decodes_ops() {
        let p = JsonPatch::from_json(
            br#"[{"op": "add", "path": "/machine/certSANs", "value": ["foo.com"]}, {"op":"replace","path":"/some","value": []}]"#,
        );
        let p = p.unwrap_or_default();
        assert_eq!(p.len(), 2);
        assert_eq!(p.op_kinds(), vec!["add", "replace"]);
        assert_eq!(p.paths(), vec![Some("/machine/certSANs".into()), Some("/some".into())]);
        assert_eq!(p.ops_json()[0], r#"{"op":"add","path":"/machine/certSANs","value":["foo.com"]}"#);
    }

    #[test]
    fn from_json_errors_are_go_texts() {
        let e = |s: &str| JsonPatch::from_json(s.as_bytes()).err().unwrap_or_default();
        assert_eq!(e("[1, 2]"), "json: cannot unmarshal number into Go value of type jsonpatch.Operation");
        assert_eq!(e(r#"[{}, "x"]"#), "json: cannot unmarshal string into Go value of type jsonpatch.Operation");
        assert_eq!(e("[[]]"), "json: cannot unmarshal array into Go value of type jsonpatch.Operation");
        assert_eq!(e("[true]"), "json: cannot unmarshal bool into Go value of type jsonpatch.Operation");
        assert_eq!(e(r#"{"machine": {}}"#), "json: cannot unmarshal object into Go value of type jsonpatch.Patch");
        assert_eq!(e("it's not even a json"), "invalid character 'i' looking for beginning of value");
        assert_eq!(e(""), "unexpected end of JSON input");
        assert_eq!(
            e(r#"[{"op": "add", "path": "/x", "value": }]"#),
            "invalid character '}' looking for beginning of value"
        );
        assert_eq!(e("- op: add"), "invalid character ' ' in numeric literal");
    }

    #[test]
    fn from_json_null_and_empty() {
        assert_eq!(JsonPatch::from_json(b"null").map(|p| p.len()), Ok(0));
        assert_eq!(JsonPatch::from_json(b" [] ").map(|p| p.len()), Ok(0));
        let p = JsonPatch::from_json(b"[null, {\"op\": null}]").unwrap_or_default();
        assert_eq!(p.op_kinds(), vec!["unknown", "unknown"]);
    }

    #[test]
    fn append_coalesces() {
        let mut a = JsonPatch::from_json(br#"[{"op":"add","path":"/a","value":1}]"#).unwrap_or_default();
        let b = JsonPatch::from_json(br#"[{"op":"remove","path":"/b"},{"op":"test","path":"/c","value":1}]"#)
            .unwrap_or_default();
        a.append(b);
        assert_eq!(a.len(), 3);
        assert!(!a.is_empty());
        assert_eq!(a.op_kinds(), vec!["add", "remove", "test"]);
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;

    #[test]
    fn deep_values_do_not_overflow() {
        let deep = format!("{}{}", "[".repeat(9_990), "]".repeat(9_990));
        let text = format!(
            r#"[{{"op":"add","path":"/a","value":{deep}}},{{"op":"copy","from":"/a","path":"/b"}},{{"op":"test","path":"/a","value":{deep}}}]"#
        );
        let p = JsonPatch::from_json(text.as_bytes()).unwrap_or_default();
        assert_eq!(p.len(), 3);
        // On a 256 KiB stack: the tree walks grow the stack on demand.
        let ok = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn_scoped(scope, || {
                    apply::apply(Json::Object(Vec::new()), &p.ops).and_then(|j| convert::json_to_yaml_v2(&j)).is_ok()
                })
                .map(|h| h.join().unwrap_or(false))
                .unwrap_or(false)
        });
        assert!(ok);
    }
}
