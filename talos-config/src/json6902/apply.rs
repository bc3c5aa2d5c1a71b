//! evanphx/json-patch v5.9.11 (root package) `Patch.Apply` semantics and error texts.

use super::json::{Json, go_atoi, go_decode_string, html_escape_raw, object_set};

/// Where upstream dereferences a nil pointer (a Go panic, which crashes `talosctl`); we report it.
pub(crate) const NIL_DEREF: &str = "runtime error: invalid memory address or nil pointer dereference";
/// Where upstream assigns into a nil map (a Go panic); we report it.
pub(crate) const NIL_MAP: &str = "assignment to entry in nil map";

/// One operation: its fields in first-seen order (a repeated field replaces the earlier one),
/// each value as the raw JSON the operation map holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Op {
    pub(crate) fields: Vec<(String, Json)>,
}

impl Op {
    fn field(&self, name: &str) -> Option<&Json> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// `Operation.Kind()`.
    pub(crate) fn kind(&self) -> String {
        match self.field("op") {
            Some(Json::String(raw)) => go_decode_string(raw),
            // json.Unmarshal of the text `null` into a string leaves it empty.
            Some(Json::Null) => String::new(),
            _ => "unknown".to_string(),
        }
    }

    /// `Operation.Path()` / `From()`: the decoded string or the error text.
    fn string_field(&self, name: &str, missing: &str) -> Result<String, String> {
        match self.field(name) {
            None | Some(Json::RawNil) | Some(Json::Nil) => Err(format!("{missing}: missing value")),
            Some(Json::Null) => Ok(String::new()),
            Some(Json::String(raw)) => Ok(go_decode_string(raw)),
            Some(other) => Err(format!("json: cannot unmarshal {} into Go value of type string", other.go_kind())),
        }
    }

    pub(crate) fn path(&self) -> Result<String, String> {
        self.string_field("path", "operation missing path field")
    }

    fn from(&self) -> Result<String, String> {
        self.string_field("from", "operation, missing from field")
    }

    /// `Operation.value()`: `None` is a nil `*lazyNode` (no `value` field).
    fn value(&self) -> Option<Json> {
        self.field("value").cloned()
    }
}

/// Applies the operations to a document (the JSON text `ghodss.YAMLToJSON` produced, as a tree).
pub(crate) fn apply(mut root: Json, ops: &[Op]) -> Result<Json, String> {
    match &root {
        Json::Object(_) | Json::Array(_) | Json::Null => {}
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type jsonpatch.partialDoc",
                other.go_kind()
            ));
        }
    }
    for op in ops {
        let kind = op.kind();
        match kind.as_str() {
            "add" => add(&mut root, op)?,
            "remove" => remove(&mut root, op)?,
            "replace" => replace(&mut root, op)?,
            "move" => move_op(&mut root, op)?,
            "test" => test(&mut root, op)?,
            "copy" => copy(&mut root, op)?,
            _ => return Err(format!("Unexpected kind: {kind}")),
        }
    }
    Ok(root)
}

/// RFC 6901 unescaping as upstream does it (`~1` → `/`, `~0` → `~`, left to right).
pub(crate) fn decode_patch_key(k: &str) -> String {
    let mut out = String::with_capacity(k.len());
    let mut chars = k.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.peek() {
                Some('1') => {
                    chars.next();
                    out.push('/');
                    continue;
                }
                Some('0') => {
                    chars.next();
                    out.push('~');
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

/// `findObject`: the container holding the last path segment, and that segment decoded.
/// `Ok(None)` is upstream's nil container ("doc is missing path").
fn find_object<'a>(root: &'a mut Json, path: &str) -> Result<Option<(&'a mut Json, String)>, String> {
    let split: Vec<&str> = path.split('/').collect();
    if split.len() < 2 {
        return Ok(None);
    }
    let mut cur = root;
    for part in &split[1..split.len() - 1] {
        let key = decode_patch_key(part);
        let next = match get_mut(cur, &key) {
            Ok(Some(n)) => n,
            _ => return Ok(None),
        };
        match next {
            Json::Nil => return Ok(None),
            Json::RawNil => return Err(NIL_DEREF.to_string()),
            Json::Object(_) | Json::Array(_) | Json::Null => {}
            _ => return Ok(None),
        }
        cur = next;
    }
    let key = split.last().map(|k| decode_patch_key(k)).unwrap_or_default();
    Ok(Some((cur, key)))
}

/// Resolves an array index for `get`/`set` (negative counts from the end).
fn array_index(len: usize, key: &str) -> Result<usize, String> {
    normalize_index(go_atoi(key)?, len as i64)
}

/// json-patch's index check and negative-index normalisation: `idx` must be below `size`, and a
/// negative index counts from the end (down to `-size`). Errors name the index as written.
fn normalize_index(idx: i64, size: i64) -> Result<usize, String> {
    if idx >= size {
        return Err(invalid_index(idx));
    }
    let adjusted = if idx < 0 {
        if idx < -size {
            return Err(invalid_index(idx));
        }
        idx + size
    } else {
        idx
    };
    usize::try_from(adjusted).map_err(|_| invalid_index(idx))
}

fn invalid_index(idx: i64) -> String {
    format!("Unable to access invalid index: {idx}: invalid index referenced")
}

/// `container.get`: `Ok(None)` is a nil node (missing key or JSON `null`).
fn get<'a>(c: &'a Json, key: &str) -> Result<Option<&'a Json>, String> {
    let found = match c {
        Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        Json::Array(items) => items.get(array_index(items.len(), key)?),
        _ => None,
    };
    Ok(found.filter(|v| !matches!(v, Json::Nil)))
}

fn get_mut<'a>(c: &'a mut Json, key: &str) -> Result<Option<&'a mut Json>, String> {
    match c {
        Json::Object(members) => Ok(members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)),
        Json::Array(items) => {
            let idx = array_index(items.len(), key)?;
            Ok(items.get_mut(idx))
        }
        _ => Ok(None),
    }
}

/// `container.add`.
fn container_add(c: &mut Json, key: &str, val: Json) -> Result<(), String> {
    match c {
        Json::Object(members) => {
            object_set(members, key.to_string(), val);
            Ok(())
        }
        Json::Array(items) => {
            if key == "-" {
                items.push(val);
                return Ok(());
            }
            let idx = go_atoi(key).map_err(|e| format!("value was not a proper array index: '{key}': {e}"))?;
            // One past the end appends.
            let at = normalize_index(idx, items.len() as i64 + 1)?;
            items.insert(at.min(items.len()), val);
            Ok(())
        }
        _ => Err(NIL_MAP.to_string()),
    }
}

/// `container.set` (only after a successful `get`).
fn container_set(c: &mut Json, key: &str, val: Json) -> Result<(), String> {
    match c {
        Json::Object(members) => {
            object_set(members, key.to_string(), val);
            Ok(())
        }
        Json::Array(items) => {
            let idx = array_index(items.len(), key)?;
            if let Some(slot) = items.get_mut(idx) {
                *slot = val;
            }
            Ok(())
        }
        _ => Err(NIL_MAP.to_string()),
    }
}

/// `container.remove`; returns the removed node.
fn container_remove(c: &mut Json, key: &str) -> Result<Json, String> {
    match c {
        Json::Array(items) => {
            let idx = go_atoi(key)?;
            let at = normalize_index(idx, items.len() as i64)?;
            if at >= items.len() {
                return Err(invalid_index(idx));
            }
            Ok(items.remove(at))
        }
        Json::Object(members) => match members.iter().position(|(k, _)| k == key) {
            Some(pos) => Ok(members.remove(pos).1),
            None => Err(format!("Unable to remove nonexistent key: {key}: missing value")),
        },
        _ => Err(format!("Unable to remove nonexistent key: {key}: missing value")),
    }
}

fn value_or_nil(v: Option<Json>) -> Json {
    v.unwrap_or(Json::Nil)
}

fn add(root: &mut Json, op: &Op) -> Result<(), String> {
    let path = op.path().map_err(|_| "add operation failed to decode path: missing value".to_string())?;
    let Some((con, key)) = find_object(root, &path)? else {
        return Err(format!("add operation does not apply: doc is missing path: \"{path}\": missing value"));
    };
    container_add(con, &key, value_or_nil(op.value()))
        .map_err(|e| wrap_panic(e, |e| format!("error in add for path: '{path}': {e}")))
}

fn remove(root: &mut Json, op: &Op) -> Result<(), String> {
    let path = op.path().map_err(|_| "remove operation failed to decode path: missing value".to_string())?;
    let Some((con, key)) = find_object(root, &path)? else {
        return Err(format!("remove operation does not apply: doc is missing path: \"{path}\": missing value"));
    };
    container_remove(con, &key).map(|_| ()).map_err(|e| format!("error in remove for path: '{path}': {e}"))
}

/// Go panics are not wrapped by upstream's error decoration.
fn wrap_panic(e: String, wrap: impl FnOnce(String) -> String) -> String {
    if e == NIL_MAP || e == NIL_DEREF { e } else { wrap(e) }
}

fn replace(root: &mut Json, op: &Op) -> Result<(), String> {
    let path = op.path().map_err(|e| format!("replace operation failed to decode path: {e}"))?;
    if path.is_empty() {
        // The whole document is replaced by an object or array value; any other value (null
        // included) is refused with a text that wraps a nil error (evanphx v5.9.11 `replace`).
        match op.value() {
            None => return Err(NIL_DEREF.to_string()),
            Some(v @ (Json::Object(_) | Json::Array(_))) => *root = v,
            Some(_) => return Err("replace operation value must be object or array: %!w(<nil>)".to_string()),
        }
        return Ok(());
    }
    let Some((con, key)) = find_object(root, &path)? else {
        return Err(format!("replace operation does not apply: doc is missing path: {path}: missing value"));
    };
    if get(con, &key).is_err() {
        return Err(format!("replace operation does not apply: doc is missing key: {path}: missing value"));
    }
    container_set(con, &key, value_or_nil(op.value()))
        .map_err(|e| wrap_panic(e, |e| format!("error in remove for path: '{path}': {e}")))
}

fn move_op(root: &mut Json, op: &Op) -> Result<(), String> {
    let from = op.from().map_err(|e| format!("move operation failed to decode from: {e}"))?;
    let Some((con, key)) = find_object(root, &from)? else {
        return Err(format!("move operation does not apply: doc is missing from path: {from}: missing value"));
    };
    get(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let val = container_remove(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let path = op.path().map_err(|e| format!("move operation failed to decode path: {e}"))?;
    let Some((con, key)) = find_object(root, &path)? else {
        return Err(format!("move operation does not apply: doc is missing destination path: {path}: missing value"));
    };
    container_add(con, &key, val).map_err(|e| wrap_panic(e, |e| format!("error in move for path: '{path}': {e}")))
}

fn copy(root: &mut Json, op: &Op) -> Result<(), String> {
    let from = op.from().map_err(|e| format!("copy operation failed to decode from: {e}"))?;
    let Some((con, key)) = find_object(root, &from)? else {
        return Err(format!("copy operation does not apply: doc is missing from path: {from}: missing value"));
    };
    let val = get(con, &key)
        .map_err(|e| format!("error in copy for from: '{from}': {e}"))?
        .map(deep_copy)
        .unwrap_or(Json::Nil);
    let path = op.path().map_err(|_| "copy operation failed to decode path: missing value".to_string())?;
    let Some((con, key)) = find_object(root, &path)? else {
        return Err(format!("copy operation does not apply: doc is missing destination path: {path}: missing value"));
    };
    container_add(con, &key, val).map_err(|e| wrap_panic(e, |e| format!("error while adding value during copy: {e}")))
}

/// `deepCopy`: the node marshalled (HTML-escaped, nulls normalised) and kept as a raw message.
fn deep_copy(v: &Json) -> Json {
    fn nested(v: &Json) -> Json {
        match v {
            Json::Nil | Json::RawNil | Json::Null => Json::Nil,
            other => top(other),
        }
    }
    fn top(v: &Json) -> Json {
        crate::yaml::node::deep(|| match v {
            Json::Nil => Json::Nil,
            Json::RawNil | Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(*b),
            Json::Number(n) => Json::Number(n.clone()),
            Json::String(raw) => Json::String(html_escape_raw(raw)),
            Json::Array(items) => Json::Array(items.iter().map(nested).collect()),
            Json::Object(members) => {
                let mut sorted: Vec<(String, Json)> = members.iter().map(|(k, v)| (k.clone(), nested(v))).collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                Json::Object(sorted)
            }
        })
    }
    top(v)
}

fn test(root: &mut Json, op: &Op) -> Result<(), String> {
    let path = op.path().map_err(|e| format!("test operation failed to decode path: {e}"))?;
    let failed = || format!("testing value {path} failed: test failed");
    if path.is_empty() {
        let Some(value) = op.value() else {
            return Err(NIL_DEREF.to_string());
        };
        return if go_equal(root, &value)? { Ok(()) } else { Err(failed()) };
    }
    let Some((con, key)) = find_object(root, &path)? else {
        return Err(format!("test operation does not apply: is missing path: {path}: missing value"));
    };
    let val = get(con, &key).map_err(|e| format!("error in test for path: '{path}': {e}"))?;
    match (val, op.value()) {
        // A missing or null value passes a test without `value` (upstream checks `op.value() ==
        // nil` first) or with `"value": null`.
        (None, Some(Json::RawNil)) | (None, None) => Ok(()),
        (None, Some(_)) | (Some(_), None) => Err(failed()),
        (Some(v), Some(o)) => {
            if go_equal(v, &o)? {
                Ok(())
            } else {
                Err(failed())
            }
        }
    }
}

/// `lazyNode.equal(n, o)` for two non-nil nodes; `Err` where upstream dereferences nil.
fn go_equal(n: &Json, o: &Json) -> Result<bool, String> {
    crate::yaml::node::deep(|| {
        match n {
            Json::Object(_) | Json::Null => {
                let empty = Vec::new();
                let other = match o {
                    Json::Object(m) => m,
                    Json::Null => &empty,
                    _ => return Ok(false),
                };
                let mine = match n {
                    Json::Object(m) => m,
                    _ => &empty,
                };
                if mine.len() != other.len() {
                    return Ok(false);
                }
                for (k, v) in mine {
                    let Some((_, ov)) = other.iter().find(|(ok, _)| ok == k) else {
                        return Ok(false);
                    };
                    let v_nil = matches!(v, Json::Nil);
                    let ov_nil = matches!(ov, Json::Nil);
                    if v_nil != ov_nil {
                        return Ok(false);
                    }
                    if v_nil {
                        continue;
                    }
                    if !go_equal(v, ov)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Json::Array(mine) => {
                let empty = Vec::new();
                let other = match o {
                    Json::Array(a) => a,
                    Json::Null => &empty,
                    _ => return Ok(false),
                };
                if mine.len() != other.len() {
                    return Ok(false);
                }
                for (v, ov) in mine.iter().zip(other) {
                    if matches!(v, Json::Nil) || matches!(ov, Json::Nil) {
                        return Err(NIL_DEREF.to_string());
                    }
                    if !go_equal(v, ov)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Json::Nil => Err(NIL_DEREF.to_string()),
            // Leaves: compacted raw bytes must match.
            Json::RawNil => Ok(matches!(o, Json::RawNil)),
            leaf => Ok(match (leaf, o) {
                (Json::Bool(a), Json::Bool(b)) => a == b,
                (Json::Number(a), Json::Number(b)) => a == b,
                (Json::String(a), Json::String(b)) => a == b,
                _ => false,
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::json::parse;
    use super::*;

    fn doc(s: &str) -> Json {
        parse(s.as_bytes()).unwrap_or(Json::Null)
    }

    fn ops(s: &str) -> Vec<Op> {
        match parse(s.as_bytes()).as_mut() {
            Ok(Json::Array(items)) => std::mem::take(items)
                .into_iter()
                .map(|mut item| match &mut item {
                    Json::Object(fields) => Op {
                        fields: std::mem::take(fields)
                            .into_iter()
                            .map(|(k, v)| (k, if v == Json::Nil { Json::RawNil } else { v }))
                            .collect(),
                    },
                    _ => Op::default(),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn run(d: &str, p: &str) -> Result<String, String> {
        apply(doc(d), &ops(p)).map(|j| j.to_text())
    }

    #[test]
    fn add_semantics() {
        assert_eq!(run(r#"{"a":1}"#, r#"[{"op":"add","path":"/a","value":2}]"#), Ok(r#"{"a":2}"#.into()));
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/-1","value":"z"}]"#),
            Ok(r#"{"a":["x","y","z"]}"#.into())
        );
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/-2","value":"z"}]"#),
            Ok(r#"{"a":["x","z","y"]}"#.into())
        );
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/-3","value":"z"}]"#),
            Ok(r#"{"a":["z","x","y"]}"#.into())
        );
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/-4","value":"z"}]"#),
            Err("error in add for path: '/a/-4': Unable to access invalid index: -4: invalid index referenced".into())
        );
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/01","value":"z"}]"#),
            Ok(r#"{"a":["x","z","y"]}"#.into())
        );
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/-","value":"z"}]"#),
            Ok(r#"{"a":["x","y","z"]}"#.into())
        );
        assert_eq!(
            run(r#"{"a":["x","y"]}"#, r#"[{"op":"add","path":"/a/2","value":"z"}]"#),
            Ok(r#"{"a":["x","y","z"]}"#.into())
        );
        assert_eq!(run(r#"{}"#, r#"[{"op":"add","path":"/a~1b~0c","value":1}]"#), Ok(r#"{"a/b~c":1}"#.into()));
        assert_eq!(run(r#"{}"#, r#"[{"op":"add","path":"/x"}]"#), Ok(r#"{"x":null}"#.into()));
        // A path without a leading slash addresses the root with its last segment.
        assert_eq!(run(r#"{}"#, r#"[{"op":"add","path":"a/b","value":1}]"#), Ok(r#"{"b":1}"#.into()));
    }

    #[test]
    fn replace_and_copy_quirks() {
        assert_eq!(run(r#"{"a":1}"#, r#"[{"op":"replace","path":"/b","value":2}]"#), Ok(r#"{"a":1,"b":2}"#.into()));
        assert_eq!(
            run(r#"{"a":[1,2]}"#, r#"[{"op":"replace","path":"/a/-1","value":3}]"#),
            Ok(r#"{"a":[1,3]}"#.into())
        );
        assert_eq!(run(r#"{"a":1}"#, r#"[{"op":"copy","from":"/x","path":"/b"}]"#), Ok(r#"{"a":1,"b":null}"#.into()));
        assert_eq!(run(r#"{"a":1}"#, r#"[{"op":"replace","path":"","value":[1]}]"#), Ok(r#"[1]"#.into()));
        // Recorded from Talos v1.13.9: a scalar or null for the whole document is refused.
        for value in ["5", "\"x\"", "null"] {
            assert_eq!(
                run(r#"{"a":1}"#, &format!(r#"[{{"op":"replace","path":"","value":{value}}}]"#)),
                Err("replace operation value must be object or array: %!w(<nil>)".into())
            );
        }
        assert_eq!(run(r#"{"a":1}"#, r#"[{"op":"move","from":"/a","path":"/b"}]"#), Ok(r#"{"b":1}"#.into()));
    }

    #[test]
    fn test_op_quirks() {
        assert_eq!(run(r#"{"a":{}}"#, r#"[{"op":"test","path":"/x","value":null}]"#), Ok(r#"{"a":{}}"#.into()));
        assert!(run(r#"{"a":1.0}"#, r#"[{"op":"test","path":"/a","value":1.0}]"#).is_ok());
        assert_eq!(
            run(r#"{"a":1.0}"#, r#"[{"op":"test","path":"/a","value":1}]"#),
            Err("testing value /a failed: test failed".into())
        );
        assert!(
            run(r#"{"a":{"b":[1,{"c":"d"}]}}"#, r#"[{"op":"test","path":"/a","value":{"b":[1,{"c":"d"}]}}]"#).is_ok()
        );
        assert!(run(r#"{"a":[1]}"#, r#"[{"op":"test","path":"","value":{"a":[1]}}]"#).is_ok());
        assert_eq!(run(r#"{"a":[null]}"#, r#"[{"op":"test","path":"/a","value":[null]}]"#), Err(NIL_DEREF.into()));
        assert_eq!(
            run(r#"{"a":1}"#, r#"[{"op":"test","path":"/a"}]"#),
            Err("testing value /a failed: test failed".into())
        );
        // Recorded from Talos v1.13.9: no `value` passes on a missing key and on a null.
        assert_eq!(run(r#"{"a":{}}"#, r#"[{"op":"test","path":"/a/b"}]"#), Ok(r#"{"a":{}}"#.into()));
        assert_eq!(run(r#"{"a":null}"#, r#"[{"op":"test","path":"/a"}]"#), Ok(r#"{"a":null}"#.into()));
    }

    #[test]
    fn root_must_be_a_container() {
        assert_eq!(
            apply(Json::String("x".into()), &[]).map(|j| j.to_text()),
            Err("json: cannot unmarshal string into Go value of type jsonpatch.partialDoc".into())
        );
        assert_eq!(apply(Json::Null, &ops(r#"[{"op":"add","path":"/a","value":1}]"#)), Err(NIL_MAP.into()));
        assert_eq!(
            apply(Json::Null, &ops(r#"[{"op":"remove","path":"/a"}]"#)),
            Err("error in remove for path: '/a': Unable to remove nonexistent key: a: missing value".into())
        );
    }

    #[test]
    fn raw_nil_traversal_does_not_panic() {
        assert_eq!(
            run(r#"{}"#, r#"[{"op":"add","path":"/a","value":null},{"op":"add","path":"/a/b","value":1}]"#),
            Err(NIL_DEREF.into())
        );
    }

    const MACHINE: &str =
        r#"{"machine":{"certSANs":["a","b"],"network":{"hostname":"h"},"x":1},"cluster":{"apiServer":{}}}"#;

    fn err(p: &str) -> String {
        run(MACHINE, p).err().unwrap_or_default()
    }

    #[test]
    fn every_spec_error_text() {
        let cases: &[(&str, &str)] = &[
            (r#"[{"op":"crash","path":"/a"}]"#, "Unexpected kind: crash"),
            (r#"[{"path":"/a"}]"#, "Unexpected kind: unknown"),
            (r#"[{"op":5,"path":"/a"}]"#, "Unexpected kind: unknown"),
            (r#"[{"op":null,"path":"/a"}]"#, "Unexpected kind: unknown"),
            (
                r#"[{"op":"add","path":"/machine/foo/bar","value":1}]"#,
                "add operation does not apply: doc is missing path: \"/machine/foo/bar\": missing value",
            ),
            (
                r#"[{"op":"replace","path":"/machine/certSANs/2","value":"c"}]"#,
                "replace operation does not apply: doc is missing key: /machine/certSANs/2: missing value",
            ),
            (
                r#"[{"op":"replace","path":"/machine/certSANs/x","value":"c"}]"#,
                "replace operation does not apply: doc is missing key: /machine/certSANs/x: missing value",
            ),
            (
                r#"[{"op":"remove","path":"/machine/foo"}]"#,
                "error in remove for path: '/machine/foo': Unable to remove nonexistent key: foo: missing value",
            ),
            (
                r#"[{"op":"remove","path":"/a/b"}]"#,
                "remove operation does not apply: doc is missing path: \"/a/b\": missing value",
            ),
            (
                r#"[{"op":"remove","path":"/cluster/apiServer/admissionControl/0"}]"#,
                "remove operation does not apply: doc is missing path: \"/cluster/apiServer/admissionControl/0\": missing value",
            ),
            (
                r#"[{"op":"add","path":"/machine/certSANs/5","value":"c"}]"#,
                "error in add for path: '/machine/certSANs/5': Unable to access invalid index: 5: invalid index referenced",
            ),
            (
                r#"[{"op":"remove","path":"/machine/certSANs/5"}]"#,
                "error in remove for path: '/machine/certSANs/5': Unable to access invalid index: 5: invalid index referenced",
            ),
            (
                r#"[{"op":"add","path":"/machine/certSANs/x","value":"c"}]"#,
                "error in add for path: '/machine/certSANs/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
            ),
            (
                r#"[{"op":"remove","path":"/machine/certSANs/x"}]"#,
                "error in remove for path: '/machine/certSANs/x': strconv.Atoi: parsing \"x\": invalid syntax",
            ),
            (
                r#"[{"op":"remove","path":"/machine/certSANs/-"}]"#,
                "error in remove for path: '/machine/certSANs/-': strconv.Atoi: parsing \"-\": invalid syntax",
            ),
            (
                r#"[{"op":"move","from":"/machine/y","path":"/machine/z"}]"#,
                "error in move for path: 'y': Unable to remove nonexistent key: y: missing value",
            ),
            (r#"[{"op":"test","path":"/machine/x","value":2}]"#, "testing value /machine/x failed: test failed"),
            (r#"[{"op":"add","value":1}]"#, "add operation failed to decode path: missing value"),
            (r#"[{"op":"remove"}]"#, "remove operation failed to decode path: missing value"),
            (
                r#"[{"op":"replace","value":1}]"#,
                "replace operation failed to decode path: operation missing path field: missing value",
            ),
            (
                r#"[{"op":"test","value":1}]"#,
                "test operation failed to decode path: operation missing path field: missing value",
            ),
            (
                r#"[{"op":"move","from":"/machine/x"}]"#,
                "move operation failed to decode path: operation missing path field: missing value",
            ),
            (
                r#"[{"op":"move","path":"/a"}]"#,
                "move operation failed to decode from: operation, missing from field: missing value",
            ),
            (
                r#"[{"op":"copy","path":"/a"}]"#,
                "copy operation failed to decode from: operation, missing from field: missing value",
            ),
            (r#"[{"op":"copy","from":"/machine/x"}]"#, "copy operation failed to decode path: missing value"),
            (
                r#"[{"op":"replace","path":"/a/b","value":1}]"#,
                "replace operation does not apply: doc is missing path: /a/b: missing value",
            ),
            (
                r#"[{"op":"move","from":"/a/b","path":"/c"}]"#,
                "move operation does not apply: doc is missing from path: /a/b: missing value",
            ),
            (
                r#"[{"op":"move","from":"/machine/x","path":"/a/b"}]"#,
                "move operation does not apply: doc is missing destination path: /a/b: missing value",
            ),
            (
                r#"[{"op":"copy","from":"/a/b","path":"/c"}]"#,
                "copy operation does not apply: doc is missing from path: /a/b: missing value",
            ),
            (
                r#"[{"op":"copy","from":"/machine/x","path":"/a/b"}]"#,
                "copy operation does not apply: doc is missing destination path: /a/b: missing value",
            ),
            (
                r#"[{"op":"test","path":"/a/b","value":1}]"#,
                "test operation does not apply: is missing path: /a/b: missing value",
            ),
            (
                r#"[{"op":"test","path":"/machine/certSANs/9","value":1}]"#,
                "error in test for path: '/machine/certSANs/9': Unable to access invalid index: 9: invalid index referenced",
            ),
            (
                r#"[{"op":"copy","from":"/machine/certSANs/9","path":"/a"}]"#,
                "error in copy for from: '/machine/certSANs/9': Unable to access invalid index: 9: invalid index referenced",
            ),
            (
                r#"[{"op":"add","path":"/machine/x/y","value":1}]"#,
                "add operation does not apply: doc is missing path: \"/machine/x/y\": missing value",
            ),
            (
                r#"[{"op":"replace","path":5,"value":1}]"#,
                "replace operation failed to decode path: json: cannot unmarshal number into Go value of type string",
            ),
            (r#"[{"op":"add","path":"/machine/certSANs/-1","value":"z"},{"op":"bogus"}]"#, "Unexpected kind: bogus"),
        ];
        for (patch, want) in cases {
            assert_eq!(err(patch), *want, "patch {patch}");
        }
    }

    #[test]
    fn array_and_key_behaviours() {
        let out = |p: &str| run(MACHINE, p).unwrap_or_default();
        assert!(out(r#"[{"op":"remove","path":"/machine/certSANs/-1"}]"#).contains(r#""certSANs":["a"]"#));
        assert!(
            out(r#"[{"op":"replace","path":"/machine/certSANs/0","value":"z"}]"#).contains(r#""certSANs":["z","b"]"#)
        );
        assert!(out(r#"[{"op":"replace","path":"/machine/new","value":"v"}]"#).contains(r#""new":"v""#));
        assert!(out(r#"[{"op":"copy","from":"/machine/certSANs","path":"/machine/c"}]"#).contains(r#""c":["a","b"]"#));
        assert!(out(r#"[{"op":"copy","from":"/machine/nope","path":"/machine/c"}]"#).contains(r#""c":null"#));
        assert!(
            out(r#"[{"op":"move","from":"/machine/certSANs/0","path":"/machine/certSANs/-"}]"#)
                .contains(r#""certSANs":["b","a"]"#)
        );
        assert!(out(r#"[{"op":"test","path":"/machine/nope","value":null}]"#).contains("certSANs"));
        assert!(out(r#"[{"op":"test","path":"/machine/certSANs/-1","value":"b"}]"#).contains("certSANs"));
    }

    #[test]
    fn copy_reencodes_strings() {
        // A copied value is marshalled (HTML-escaped), so it no longer equals the raw text.
        let d = r#"{"a":"x<y"}"#;
        assert!(run(d, r#"[{"op":"test","path":"/a","value":"x<y"}]"#).is_ok());
        assert_eq!(
            run(d, r#"[{"op":"copy","from":"/a","path":"/b"},{"op":"test","path":"/b","value":"x<y"}]"#),
            Err("testing value /b failed: test failed".into())
        );
    }
}
