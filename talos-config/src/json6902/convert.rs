//! The YAML ↔ JSON conversions around the patch: go-yaml v4 decoding of YAML-list patches,
//! ghodss `YAMLToJSON` (yaml.v2, YAML 1.1) of the config, and ghodss `JSONToYAML` (yaml.v2
//! re-reading the JSON text, then marshalling).

use super::json::{
    Json, go_encode_bytes, go_encode_string, go_format_float32_key, go_json_float, go_quote, object_set,
    unsupported_float,
};
use crate::yaml::node::{Node, NodeValue, Scalar, ScalarStyle};
use crate::yaml::resolve::{Resolved, format_float, key_cmp_v2, resolve_v4, resolve_v11};

/// The tag of a node in `!!x` short form (`None` when implicit).
fn short_tag(n: &Node) -> Option<String> {
    n.tag.as_deref().map(|t| match t.strip_prefix("tag:yaml.org,2002:") {
        Some(rest) => format!("!!{rest}"),
        None => t.to_string(),
    })
}

const STANDARD_TAGS: [&str; 5] = ["!!int", "!!float", "!!bool", "!!null", "!!timestamp"];

/// A scalar as a Go `interface{}` value decoded by go-yaml.
enum GoScalar {
    Null,
    Bool(bool),
    Int(String),
    Float(f64),
    /// A string (bytes: `!!binary` may not be UTF-8).
    Str(Vec<u8>),
}

/// Decodes a scalar like go-yaml does into `interface{}`; `v4` selects go-yaml v4 rules
/// (timestamps become `time.Time`), else yaml.v2 (timestamps stay strings).
fn decode_scalar(s: &Scalar, tag: Option<&str>, v4: bool) -> Result<GoScalar, String> {
    match tag {
        Some("!!str") => return Ok(GoScalar::Str(s.text.clone().into_bytes())),
        Some("!!binary") => {
            return crate::value::decode_binary(&s.text).map(GoScalar::Str).map_err(|e| format!("yaml: {e}"));
        }
        _ => {}
    }
    let standard = tag.is_some_and(|t| STANDARD_TAGS.contains(&t));
    if !(standard || (tag.is_none() && s.style == ScalarStyle::Plain)) {
        return Ok(GoScalar::Str(s.text.clone().into_bytes()));
    }
    let resolved = if v4 { resolve_v4(&s.text) } else { resolve_v11(&s.text) };
    if let Some(t) = tag {
        let matches = resolved.tag() == t || (t == "!!float" && matches!(resolved, Resolved::Int(_)));
        if !matches {
            return Err(format!("yaml: cannot decode {} `{}` as a {t}", resolved.tag(), s.text));
        }
        if t == "!!float"
            && let Resolved::Int(i) = &resolved
        {
            return Ok(GoScalar::Float(i.parse::<f64>().unwrap_or(0.0)));
        }
    }
    Ok(match resolved {
        Resolved::Null => GoScalar::Null,
        Resolved::Bool(b) => GoScalar::Bool(b),
        Resolved::Int(i) => GoScalar::Int(i),
        Resolved::Float(f) => GoScalar::Float(f),
        Resolved::Timestamp(ts) if v4 => GoScalar::Str(ts.into_bytes()),
        Resolved::Timestamp(_) | Resolved::Str => GoScalar::Str(s.text.clone().into_bytes()),
    })
}

fn is_plain_merge_key(k: &Node) -> bool {
    matches!(k.as_scalar(), Some(s) if s.text == "<<" && s.style == ScalarStyle::Plain) && k.tag.is_none()
}

const MERGE_ERROR: &str = "yaml: map merge requires map or sequence of maps as the value";

/// The mappings a merge value stands for, in precedence order (first wins).
fn merge_sources(v: &Node) -> Result<Vec<&Node>, String> {
    match &v.value {
        NodeValue::Mapping(..) => Ok(vec![v]),
        NodeValue::Sequence(items, _) => {
            if items.iter().all(|i| i.as_mapping().is_some()) {
                Ok(items.iter().collect())
            } else {
                Err(MERGE_ERROR.to_string())
            }
        }
        _ => Err(MERGE_ERROR.to_string()),
    }
}

// ---------------------------------------------------------------------------------------------
// go-yaml v4: YAML-list patches.

/// Why a YAML-list patch was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YamlListError {
    /// go-yaml v4 could not decode the text into `[]map[string]any`; upstream then falls back to
    /// the JSON or strategic error.
    Decode(String),
    /// The list decoded, but `encoding/json.Marshal` refused a value; upstream returns this text.
    Marshal(String),
}

impl std::fmt::Display for YamlListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            YamlListError::Decode(m) | YamlListError::Marshal(m) => f.write_str(m),
        }
    }
}

/// Collects the first marshal error while decoding continues (decode errors win).
struct V4 {
    marshal_err: Option<String>,
}

impl V4 {
    fn marshal_error(&mut self, e: String) {
        if self.marshal_err.is_none() {
            self.marshal_err = Some(e);
        }
    }

    fn check_unique(&self, entries: &[(Node, Node)]) -> Result<(), String> {
        for (i, (a, _)) in entries.iter().enumerate() {
            for (b, _) in &entries[i + 1..] {
                if let (Some(x), Some(y)) = (a.as_scalar(), b.as_scalar())
                    && x.text == y.text
                {
                    return Err(format!(
                        "yaml: unmarshal errors:\n  line {}: mapping key {} already defined at line {}",
                        b.mark.line,
                        go_quote(&y.text),
                        a.mark.line
                    ));
                }
            }
        }
        Ok(())
    }

    /// A value decoded into `any`, then `json.Marshal`led; `top` selects the raw-`null` form.
    fn value(&mut self, n: &Node, top: bool) -> Result<Json, String> {
        crate::yaml::node::deep(|| {
            let tag = short_tag(n);
            match &n.value {
                NodeValue::Scalar(s) => Ok(match decode_scalar(s, tag.as_deref(), true)? {
                    GoScalar::Null => {
                        if top {
                            Json::Null
                        } else {
                            Json::Nil
                        }
                    }
                    GoScalar::Bool(b) => Json::Bool(b),
                    GoScalar::Int(i) => Json::Number(i),
                    GoScalar::Float(f) => match go_json_float(f) {
                        Some(t) => Json::Number(t),
                        None => {
                            self.marshal_error(unsupported_float(f));
                            Json::Null
                        }
                    },
                    GoScalar::Str(b) => Json::String(go_encode_bytes(&b)),
                }),
                NodeValue::Sequence(items, _) => {
                    let mut out = Vec::with_capacity(items.len());
                    for item in items {
                        out.push(self.value(item, false)?);
                    }
                    Ok(Json::Array(out))
                }
                NodeValue::Mapping(entries, _) => {
                    self.check_unique(entries)?;
                    let mut string_keys = true;
                    let members = self.mapping(entries, &mut string_keys, false)?;
                    if !string_keys {
                        self.marshal_error("json: unsupported type: map[interface {}]interface {}".to_string());
                    }
                    Ok(Json::Object(members))
                }
            }
        })
    }

    /// Decodes mapping entries (explicit keys first, merged keys only when absent).
    fn mapping(
        &mut self,
        entries: &[(Node, Node)],
        string_keys: &mut bool,
        op_level: bool,
    ) -> Result<Vec<(String, Json)>, String> {
        let mut members: Vec<(String, Json)> = Vec::new();
        let mut merges: Vec<&Node> = Vec::new();
        for (k, v) in entries {
            if is_plain_merge_key(k) {
                merges.push(v);
                continue;
            }
            let key = self.key(k, string_keys, op_level)?;
            let value = self.value(v, op_level)?;
            object_set(&mut members, key, value);
        }
        for m in merges {
            for src in merge_sources(m)? {
                let Some(src_entries) = src.as_mapping() else {
                    continue;
                };
                self.check_unique(src_entries)?;
                for (key, value) in self.mapping(src_entries, string_keys, op_level)? {
                    if !members.iter().any(|(k, _)| *k == key) {
                        members.push((key, value));
                    }
                }
            }
        }
        Ok(members)
    }

    fn key(&mut self, k: &Node, string_keys: &mut bool, op_level: bool) -> Result<String, String> {
        let Some(s) = k.as_scalar() else {
            return Err(if op_level {
                "yaml: unmarshal errors:\n  cannot unmarshal a collection into string".to_string()
            } else {
                "yaml: invalid map key".to_string()
            });
        };
        let tag = short_tag(k);
        if op_level {
            // A key decoded into a Go string is the scalar's text (null gives "").
            return Ok(match decode_scalar(s, tag.as_deref(), true)? {
                GoScalar::Null => String::new(),
                GoScalar::Str(b) if tag.as_deref() == Some("!!binary") => String::from_utf8_lossy(&b).into_owned(),
                _ => s.text.clone(),
            });
        }
        let is_str = match tag.as_deref() {
            Some("!!str") => true,
            Some(t) if STANDARD_TAGS.contains(&t) || t == "!!binary" => false,
            Some(_) => true,
            None => s.style != ScalarStyle::Plain || resolve_v4(&s.text) == Resolved::Str,
        };
        if !is_str {
            *string_keys = false;
        }
        Ok(s.text.clone())
    }
}

/// go-yaml v4 `Unmarshal(text, &[]map[string]any)` of the first document, each value then
/// `json.Marshal`led.
pub(crate) fn yaml_list_ops(docs: &[Node]) -> Result<Vec<Vec<(String, Json)>>, YamlListError> {
    let Some(root) = docs.first() else {
        return Ok(Vec::new());
    };
    let mut v4 = V4 { marshal_err: None };
    let items = match &root.value {
        NodeValue::Sequence(items, _) => items,
        NodeValue::Scalar(s) if is_null(root, s) => return Ok(Vec::new()),
        _ => {
            return Err(YamlListError::Decode(format!(
                "yaml: unmarshal errors:\n  line {}: cannot unmarshal {} into []map[string]interface {{}}",
                root.mark.line,
                node_kind_tag(root)
            )));
        }
    };
    let mut ops = Vec::with_capacity(items.len());
    for item in items {
        match &item.value {
            NodeValue::Mapping(entries, _) => {
                v4.check_unique(entries).map_err(YamlListError::Decode)?;
                let mut string_keys = true;
                let fields = v4.mapping(entries, &mut string_keys, true).map_err(YamlListError::Decode)?;
                ops.push(fields);
            }
            NodeValue::Scalar(s) if is_null(item, s) => ops.push(Vec::new()),
            _ => {
                return Err(YamlListError::Decode(format!(
                    "yaml: unmarshal errors:\n  line {}: cannot unmarshal {} into map[string]interface {{}}",
                    item.mark.line,
                    node_kind_tag(item)
                )));
            }
        }
    }
    if let Some(e) = v4.marshal_err {
        return Err(YamlListError::Marshal(e));
    }
    Ok(ops)
}

fn is_null(n: &Node, s: &Scalar) -> bool {
    match short_tag(n).as_deref() {
        Some("!!null") => true,
        Some(_) => false,
        None => s.style == ScalarStyle::Plain && resolve_v4(&s.text) == Resolved::Null,
    }
}

fn node_kind_tag(n: &Node) -> String {
    match &n.value {
        NodeValue::Mapping(..) => "!!map".to_string(),
        NodeValue::Sequence(..) => "!!seq".to_string(),
        NodeValue::Scalar(s) => {
            let tag = match short_tag(n) {
                Some(t) => t,
                None if s.style == ScalarStyle::Plain => resolve_v4(&s.text).tag().to_string(),
                None => "!!str".to_string(),
            };
            format!("{tag} `{}`", s.text)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ghodss YAMLToJSON (yaml.v2).

/// `ghodss.YAMLToJSON`: the document decoded by yaml.v2 into `interface{}`, keys stringified,
/// then `json.Marshal`led. The top-level `null` is [`Json::Null`]; nested nulls are [`Json::Nil`].
pub(crate) fn yaml_to_json_v2(doc: &Node) -> Result<Json, String> {
    let v = v2_value(doc)?;
    Ok(if v == Json::Nil { Json::Null } else { v })
}

fn v2_value(n: &Node) -> Result<Json, String> {
    crate::yaml::node::deep(|| {
        let tag = short_tag(n);
        match &n.value {
            NodeValue::Scalar(s) => match decode_scalar(s, tag.as_deref(), false)? {
                GoScalar::Null => Ok(Json::Nil),
                GoScalar::Bool(b) => Ok(Json::Bool(b)),
                GoScalar::Int(i) => Ok(Json::Number(i)),
                GoScalar::Float(f) => go_json_float(f).map(Json::Number).ok_or_else(|| unsupported_float(f)),
                GoScalar::Str(b) => Ok(Json::String(go_encode_bytes(&b))),
            },
            NodeValue::Sequence(items, _) => items.iter().map(v2_value).collect::<Result<_, _>>().map(Json::Array),
            NodeValue::Mapping(entries, _) => {
                let mut members = Vec::new();
                v2_mapping(entries, &mut members)?;
                members.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(Json::Object(members))
            }
        }
    })
}

/// yaml.v2 mapping decode: entries in order, later keys win; a merge is applied at its
/// position (sequence sources backwards, so earlier ones take precedence).
fn v2_mapping(entries: &[(Node, Node)], members: &mut Vec<(String, Json)>) -> Result<(), String> {
    for (k, v) in entries {
        if is_plain_merge_key(k) {
            let sources = merge_sources(v)?;
            for src in sources.iter().rev() {
                if let Some(e) = src.as_mapping() {
                    v2_mapping(e, members)?;
                }
            }
            continue;
        }
        let value = v2_value(v)?;
        let key = v2_key(k, &value)?;
        object_set(members, key, value);
    }
    Ok(())
}

/// ghodss `convertToJSONableObject` key stringification.
fn v2_key(k: &Node, value: &Json) -> Result<String, String> {
    let Some(s) = k.as_scalar() else {
        return Err("yaml: invalid map key: map[interface {}]interface {}{}".to_string());
    };
    let tag = short_tag(k);
    let unsupported =
        |ty: &str, key: &str| format!("Unsupported map key of type: {ty}, key: {key}, value: {}", go_sharp_v(value));
    Ok(match decode_scalar(s, tag.as_deref(), false)? {
        GoScalar::Str(b) => String::from_utf8_lossy(&b).into_owned(),
        GoScalar::Bool(b) => b.to_string(),
        GoScalar::Float(f) => go_format_float32_key(f),
        GoScalar::Int(i) => {
            if i.parse::<i64>().is_ok() {
                i
            } else {
                let hex = i.parse::<u64>().map(|u| format!("0x{u:x}")).unwrap_or(i);
                return Err(unsupported("uint64", &hex));
            }
        }
        GoScalar::Null => return Err(unsupported("%!s(<nil>)", "<nil>")),
    })
}

/// Best-effort Go `%+#v` of a decoded value (only used in an error text).
fn go_sharp_v(v: &Json) -> String {
    match v {
        Json::Nil | Json::RawNil | Json::Null => "<nil>".to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.clone(),
        Json::String(raw) => go_quote(&super::json::go_decode_string(raw)),
        Json::Array(_) => "[]interface {}{...}".to_string(),
        Json::Object(_) => "map[interface {}]interface {}{...}".to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// ghodss JSONToYAML (yaml.v2).

const BAD_ESCAPE: &str = "yaml: found invalid Unicode character escape code";
const CONTROL_CHARS: &str = "yaml: control characters are not allowed";

/// Characters the yaml.v2 reader accepts.
fn yaml_v2_allowed(c: char) -> bool {
    let u = c as u32;
    u == 0x09
        || u == 0x0A
        || u == 0x0D
        || (0x20..=0x7E).contains(&u)
        || u == 0x85
        || (0xA0..=0xD7FF).contains(&u)
        || (0xE000..=0xFFFD).contains(&u)
        || u >= 0x10000
}

/// What yaml.v2 reads from the double-quoted JSON string whose body is `raw`.
fn yaml_v2_read_string(raw: &str) -> Result<String, String> {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !yaml_v2_allowed(c) {
            return Err(CONTROL_CHARS.to_string());
        }
        if c == '\\' {
            let e = chars.get(i + 1).copied().unwrap_or('\\');
            i += 2;
            match e {
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.iter().skip(i).take(4).collect();
                    i += 4;
                    let code = u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD);
                    match char::from_u32(code) {
                        Some(ch) => out.push(ch),
                        None => return Err(BAD_ESCAPE.to_string()),
                    }
                }
                other => out.push(other),
            }
            continue;
        }
        if c == ' ' || c == '\t' || c == '\u{85}' {
            // Blanks and (NEL) line breaks: yaml.v2's flow-scalar folding.
            let mut whitespace = String::new();
            let mut breaks = 0usize;
            while i < chars.len() && matches!(chars[i], ' ' | '\t' | '\u{85}') {
                if chars[i] == '\u{85}' {
                    breaks += 1;
                } else if breaks == 0 {
                    whitespace.push(chars[i]);
                }
                i += 1;
            }
            match breaks {
                0 => out.push_str(&whitespace),
                1 => out.push(' '),
                n => out.push_str(&"\n".repeat(n - 1)),
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// `ghodss.JSONToYAML` up to the emitter: the JSON re-read by yaml.v2 into `interface{}`, as the
/// node tree yaml.v2's `Marshal` would print (keys sorted in yaml.v2 order).
pub(crate) fn json_to_yaml_v2(j: &Json) -> Result<Node, String> {
    crate::yaml::node::deep(|| {
        Ok(match j {
            Json::Nil | Json::RawNil | Json::Null => Node::null(),
            Json::Bool(b) => Node::plain(if *b { "true" } else { "false" }),
            Json::Number(text) => match resolve_v11(text) {
                Resolved::Int(i) => Node::plain(i),
                Resolved::Float(f) => Node::plain(format_float(f)),
                Resolved::Null => Node::null(),
                Resolved::Bool(b) => Node::plain(b.to_string()),
                Resolved::Timestamp(_) | Resolved::Str => Node::go_string(text.clone()),
            },
            Json::String(raw) => Node::go_string(yaml_v2_read_string(raw)?),
            Json::Array(items) => Node::sequence(items.iter().map(json_to_yaml_v2).collect::<Result<_, _>>()?),
            Json::Object(members) => {
                // json.Marshal writes keys in byte order; yaml.v2 keeps the last of equal keys.
                let mut sorted: Vec<&(String, Json)> = members.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                let mut entries: Vec<(String, Node)> = Vec::with_capacity(sorted.len());
                for (k, v) in sorted {
                    let key = yaml_v2_read_string(&go_encode_string(k))?;
                    let value = json_to_yaml_v2(v)?;
                    if let Some(slot) = entries.iter_mut().find(|(ek, _)| *ek == key) {
                        slot.1 = value;
                    } else {
                        entries.push((key, value));
                    }
                }
                entries.sort_by(|a, b| key_cmp_v2(&a.0, &b.0));
                Node::mapping(entries.into_iter().map(|(k, v)| (Node::go_string(k), v)).collect())
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_v2_reads_json_strings() {
        assert_eq!(yaml_v2_read_string("a\\u0041\\n\\/\\\"").as_deref(), Ok("aA\n/\""));
        assert_eq!(yaml_v2_read_string("\\ud83d\\ude00"), Err(BAD_ESCAPE.to_string()));
        assert_eq!(yaml_v2_read_string("a\u{7f}"), Err(CONTROL_CHARS.to_string()));
        assert_eq!(yaml_v2_read_string("\\u007f").as_deref(), Ok("\u{7f}"));
        assert_eq!(yaml_v2_read_string("a \u{85} b").as_deref(), Ok("a b"));
        assert_eq!(yaml_v2_read_string("a  b\tc").as_deref(), Ok("a  b\tc"));
        assert_eq!(yaml_v2_read_string("😀").as_deref(), Ok("😀"));
    }

    #[test]
    fn numbers_are_reread_by_yaml_v2() {
        let text = |s: &str| {
            json_to_yaml_v2(&Json::Number(s.to_string()))
                .ok()
                .and_then(|n| n.as_scalar().map(|s| (s.text.clone(), s.style)))
        };
        assert_eq!(text("-0"), Some(("0".into(), ScalarStyle::Plain)));
        assert_eq!(text("12345678901234567890"), Some(("12345678901234567890".into(), ScalarStyle::Plain)));
        assert_eq!(text("1E400"), Some(("1E400".into(), ScalarStyle::GoString)));
    }

    fn map(entries: Vec<(&str, Node)>) -> Node {
        Node::mapping(entries.into_iter().map(|(k, v)| (Node::plain(k), v)).collect())
    }

    #[test]
    fn yaml_v2_config_to_json() {
        let doc = map(vec![
            ("a", Node::plain("on")),
            ("m", Node::plain("0o644")),
            ("q", Node::scalar("on", ScalarStyle::DoubleQuoted)),
            ("t", Node::plain("2024-01-01")),
            ("f", Node::plain("1.0")),
            // YAML 1.1: the plain key `n` is the boolean false.
            ("n", Node::plain("~")),
            ("1.5", Node::plain("x")),
            ("<b>", Node::plain("x<y")),
        ]);
        let j = yaml_to_json_v2(&doc).map(|j| j.to_text());
        assert_eq!(
            j.as_deref(),
            Ok(
                r#"{"1.5":"x","\u003cb\u003e":"x\u003cy","a":true,"f":1,"false":null,"m":420,"q":"on","t":"2024-01-01"}"#
            )
        );
        assert_eq!(
            yaml_to_json_v2(&map(vec![("a", Node::plain(".nan"))])),
            Err("json: unsupported value: NaN".to_string())
        );
        assert_eq!(yaml_to_json_v2(&Node::plain("")), Ok(Json::Null));
    }

    #[test]
    fn yaml_v4_list_to_ops() {
        let op = map(vec![
            ("op", Node::plain("add")),
            ("path", Node::plain("/a")),
            (
                "value",
                Node::sequence(vec![
                    Node::plain("yes"),
                    Node::plain("0x10"),
                    Node::plain("1.0"),
                    Node::plain("~"),
                    Node::plain("2024-01-01"),
                ]),
            ),
        ]);
        let ops = yaml_list_ops(&[Node::sequence(vec![op, Node::plain("~")])]);
        let texts: Result<Vec<String>, _> = ops.map(|ops| ops.into_iter().map(|f| Json::Object(f).to_text()).collect());
        assert_eq!(
            texts,
            Ok(vec![
                r#"{"op":"add","path":"/a","value":["yes",16,1,null,"2024-01-01T00:00:00Z"]}"#.to_string(),
                "{}".to_string()
            ])
        );
        assert_eq!(yaml_list_ops(&[]), Ok(Vec::new()));
        assert_eq!(yaml_list_ops(&[Node::plain("null")]), Ok(Vec::new()));
        assert!(matches!(yaml_list_ops(&[map(vec![("a", Node::plain("b"))])]), Err(YamlListError::Decode(_))));
        assert!(matches!(yaml_list_ops(&[Node::sequence(vec![Node::plain("a")])]), Err(YamlListError::Decode(_))));
        let dup = map(vec![("op", Node::plain("add")), ("op", Node::plain("remove"))]);
        assert!(matches!(yaml_list_ops(&[Node::sequence(vec![dup])]), Err(YamlListError::Decode(_))));
    }

    #[test]
    fn binary_scalars_decode_like_go_yaml() {
        let scalar = |text: &str| Scalar { text: text.to_string(), style: ScalarStyle::Plain };
        let decoded = |text: &str| match decode_scalar(&scalar(text), Some("!!binary"), true) {
            Ok(GoScalar::Str(b)) => Ok(b),
            Ok(_) => Err("not a string".to_string()),
            Err(e) => Err(e),
        };
        assert_eq!(decoded("aGVsbG8="), Ok(b"hello".to_vec()));
        assert_eq!(decoded("aGVs\r\nbG8=\n"), Ok(b"hello".to_vec()));
        assert_eq!(decoded("/w=="), Ok(vec![0xff]));
        assert_eq!(decoded(""), Ok(Vec::new()));
        let bad = Err("yaml: !!binary value contains invalid base64 data".to_string());
        for text in ["aGVs bG8=", "aGVs\tbG8=", "aGVsbG8", "aGVsbG8=x", "=", "a==="] {
            assert_eq!(decoded(text), bad, "{text:?}");
        }
    }

    #[test]
    fn json_back_to_yaml_nodes() {
        let j = Json::Object(vec![
            ("b".into(), Json::Number("1.0".into())),
            ("a1b".into(), Json::String("x".into())),
            ("a1-".into(), Json::Nil),
        ]);
        let n = json_to_yaml_v2(&j).ok();
        let keys: Vec<String> = n
            .as_ref()
            .and_then(|n| n.as_mapping())
            .map(|m| m.iter().filter_map(|(k, _)| k.as_scalar().map(|s| s.text.clone())).collect())
            .unwrap_or_default();
        assert_eq!(keys, vec!["a1-", "a1b", "b"]);
        assert_eq!(n.as_ref().and_then(|n| n.get("b")).cloned(), Some(Node::plain("1")));
    }
}
