//! Go scalars: strings, booleans, integers, `time.Duration`, Talos's `FileMode`, and pointers.

use super::decode::{construct_error, decode_binary, is_null};
use super::{DecodeCx, DeletePath, MergeFlags, Value};
use crate::yaml::resolve::{Resolved, resolve_v4};
use crate::yaml::{Node, NodeValue, ScalarStyle};

/// The text of a scalar node with how it resolves (quoted scalars are strings).
fn scalar_of(node: &Node) -> Option<(&str, Resolved)> {
    match &node.value {
        NodeValue::Scalar(s) => {
            // An explicit tag other than `!!str`/`!!binary` resolves the text even when quoted
            // (`!!int '7'` is 7); a mismatch is caught before decoding (`explicit_tag_error`).
            let resolved = match node.tag.as_deref() {
                Some("!!str") | Some("!!binary") => Resolved::Str,
                Some(tag) if super::decode::is_resolvable_tag(tag) => resolve_v4(&s.text),
                _ if s.style != ScalarStyle::Plain => Resolved::Str,
                _ => resolve_v4(&s.text),
            };
            Some((&s.text, resolved))
        }
        _ => None,
    }
}

impl Value for String {
    fn go_type() -> String {
        "string".into()
    }

    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return String::new();
        }
        match &node.value {
            NodeValue::Scalar(s) if node.tag.as_deref() == Some("!!binary") => match decode_binary(&s.text) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(e) => {
                    cx.error(node, e);
                    String::new()
                }
            },
            NodeValue::Scalar(s) => s.text.clone(),
            _ => {
                construct_error(cx, node, &Self::go_type());
                String::new()
            }
        }
    }

    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        // Only an untagged scalar's text is taken: the explicit-tag check reads tagged ones.
        if node.tag.is_none()
            && !is_null(node)
            && let NodeValue::Scalar(s) = &mut node.value
        {
            return std::mem::take(&mut s.text);
        }
        Self::decode(node, cx)
    }

    fn encode(&self) -> Node {
        Node::go_string(self.clone())
    }

    fn encode_owned_for(self, _release: crate::Release) -> Node {
        Node::go_string(self)
    }

    fn is_empty(&self) -> bool {
        String::is_empty(self)
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        if !right.is_empty() || flags.overwrite {
            self.clone_from(right);
        }
        Ok(())
    }

    fn match_text(&self) -> Option<String> {
        Some(self.clone())
    }
}

impl Value for bool {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::boolean()
    }

    fn go_type() -> String {
        "bool".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return false;
        }
        match scalar_of(node) {
            Some((_, Resolved::Bool(b))) => b,
            // go-yaml keeps YAML 1.1 compatibility when the target is a typed bool.
            Some((text, Resolved::Str)) => match text {
                "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => true,
                "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => false,
                _ => {
                    construct_error(cx, node, "bool");
                    false
                }
            },
            _ => {
                construct_error(cx, node, "bool");
                false
            }
        }
    }

    fn encode(&self) -> Node {
        Node::plain(if *self { "true" } else { "false" })
    }

    fn is_empty(&self) -> bool {
        !*self
    }

    // Go's merge copies non-pointer booleans unconditionally: `false` overwrites `true`.
    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        *self = *right;
        Ok(())
    }
}

/// Decodes an integer node into the range `[min, max]` as go-yaml v4 does: a float is accepted
/// only when the conversion loses nothing (`1e3`, `2.0`; not `1.5` or `.5`).
pub(crate) fn decode_int(node: &Node, cx: &mut DecodeCx, go_type: &str, min: i128, max: i128) -> i128 {
    if is_null(node) {
        return 0;
    }
    // go-yaml rc.3 truncates a float toward zero (`1500.5` is 1500); rc.4 takes whole floats only.
    let truncates = cx.release().yaml() == crate::yaml::Dialect::V4Rc3;
    let parsed = match scalar_of(node) {
        Some((_, Resolved::Int(text))) => text.parse::<i128>().ok(),
        Some((_, Resolved::Float(f))) if f.is_finite() && f.fract() == 0.0 => Some(f as i128),
        Some((_, Resolved::Float(f))) if truncates && f.is_finite() && (min < 0 || f >= 0.0) => Some(f.trunc() as i128),
        _ => None,
    };
    match parsed {
        Some(v) if v >= min && v <= max => v,
        _ => {
            construct_error(cx, node, go_type);
            0
        }
    }
}

macro_rules! int_value {
    ($($t:ty => $go:literal),* $(,)?) => {$(
        impl Value for $t {
            fn go_type() -> String {
                $go.into()
            }

            /// An integer; go-yaml rc.3 (v1.12) also takes any float, truncated.
            fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
                let truncates = cx.release().yaml() == crate::yaml::Dialect::V4Rc3;
                crate::value::json_schema::types(&[if truncates { "number" } else { "integer" }])
            }

            fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
                let v = decode_int(node, cx, $go, <$t>::MIN as i128, <$t>::MAX as i128);
                <$t>::try_from(v).unwrap_or_default()
            }

            fn encode(&self) -> Node {
                Node::plain(self.to_string())
            }

            fn is_empty(&self) -> bool {
                *self == 0
            }

            fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
                if *right != 0 || flags.overwrite {
                    *self = *right;
                }
                Ok(())
            }
        }
    )*};
}

int_value!(i64 => "int", i32 => "int32", u64 => "uint64", usize => "uint", u32 => "uint32", u16 => "uint16", u8 => "uint8");

impl Value for f64 {
    fn go_type() -> String {
        "float64".into()
    }

    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::types(&["number"])
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return 0.0;
        }
        match scalar_of(node) {
            Some((_, Resolved::Float(f))) => f,
            Some((_, Resolved::Int(t))) => t.parse::<f64>().unwrap_or(0.0),
            _ => {
                construct_error(cx, node, "float64");
                0.0
            }
        }
    }

    fn encode(&self) -> Node {
        Node::plain(crate::yaml::resolve::format_float(*self))
    }

    fn is_empty(&self) -> bool {
        *self == 0.0
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        if *right != 0.0 || flags.overwrite {
            *self = *right;
        }
        Ok(())
    }
}

/// A Go pointer `*T`: `None` is nil. Zero values behind a pointer overwrite when merged.
impl<T: Value> Value for Option<T> {
    fn go_type() -> String {
        format!("*{}", T::go_type())
    }

    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        T::json_schema(cx)
    }

    fn go_nillable() -> bool {
        true
    }

    fn text_unmarshaler() -> bool {
        T::text_unmarshaler()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        // go-yaml checks for a TextUnmarshaler before following the pointer.
        if T::text_unmarshaler() && super::text_unmarshaler_refuses(cx, node, &Self::go_type()) {
            return None;
        }
        if is_null(node) { None } else { Some(T::decode(node, cx)) }
    }

    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        if T::text_unmarshaler() && super::text_unmarshaler_refuses(cx, node, &Self::go_type()) {
            return None;
        }
        if is_null(node) { None } else { Some(T::decode_taking(node, cx)) }
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
        match self {
            Some(v) => v.encode_for(release),
            None => Node::null(),
        }
    }

    fn encode_owned_for(self, release: crate::Release) -> Node {
        match self {
            Some(v) => v.encode_owned_for(release),
            None => Node::null(),
        }
    }

    fn is_empty(&self) -> bool {
        self.is_none()
    }

    fn replace_keeps_left(&self) -> bool {
        self.is_none()
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        match (self.as_mut(), right) {
            (_, None) => Ok(()),
            (None, Some(r)) => {
                *self = Some(r.clone());
                Ok(())
            }
            (Some(l), Some(r)) => l.merge(r, flags.pointee()),
        }
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        match self {
            Some(v) => v.delete(path),
            None => Err(super::LOOKUP_FAILED.into()),
        }
    }

    fn field_match_text(&self, key: &str) -> Option<String> {
        self.as_ref()?.field_match_text(key)
    }
}

impl<T: Value> Value for Box<T> {
    fn go_type() -> String {
        T::go_type()
    }

    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        T::json_schema(cx)
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        Box::new(T::decode(node, cx))
    }

    fn decode_taking(node: &mut Node, cx: &mut DecodeCx) -> Self {
        Box::new(T::decode_taking(node, cx))
    }

    fn schema_paths(prefix: &str, out: &mut Vec<String>) {
        T::schema_paths(prefix, out);
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        T::unknown_keys_for(node, release)
    }

    fn encode(&self) -> Node {
        (**self).encode()
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        (**self).encode_for(release)
    }

    fn encode_owned_for(self, release: crate::Release) -> Node {
        (*self).encode_owned_for(release)
    }

    fn is_empty(&self) -> bool {
        (**self).is_empty()
    }

    fn replace_keeps_left(&self) -> bool {
        (**self).replace_keeps_left()
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        (**self).merge(right, flags)
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        (**self).delete(path)
    }

    fn match_text(&self) -> Option<String> {
        (**self).match_text()
    }

    fn field_match_text(&self, key: &str) -> Option<String> {
        (**self).field_match_text(key)
    }
}

/// 2^63 as a float: a float below it (and not below its negative) converts to an `i64`.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

/// Go's `time.Duration`: written as Go prints it (`1m0s`), read with `time.ParseDuration`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    /// Nanoseconds.
    pub nanos: i64,
}

impl Duration {
    /// Parses Go duration text (`1h2m3.5s`, `300ms`, `-1.5h`, `0`).
    pub fn parse(text: &str) -> Option<Duration> {
        talos_go::time::parse_duration(text).map(|nanos| Duration { nanos })
    }
}

impl std::fmt::Display for Duration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&talos_go::time::format_duration(self.nanos))
    }
}

/// A Rust duration as Go's (saturating at Go's largest, about 292 years), so that a program can
/// print any `std::time::Duration` as Go would:
///
/// ```
/// use talos_config::model::Duration;
/// assert_eq!(Duration::from(std::time::Duration::from_millis(1500)).to_string(), "1.5s");
/// assert_eq!(Duration::from(std::time::Duration::from_secs(60)).to_string(), "1m0s");
/// ```
impl From<std::time::Duration> for Duration {
    fn from(d: std::time::Duration) -> Duration {
        Duration { nanos: i64::try_from(d.as_nanos()).unwrap_or(i64::MAX) }
    }
}

impl Value for Duration {
    /// A Go duration (`30s`, `1h30m`), or the integer zero (from v1.13 on).
    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::duration(cx.release())
    }

    fn go_type() -> String {
        "time.Duration".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Duration::default();
        }
        match scalar_of(node) {
            Some((text, Resolved::Str)) => match Duration::parse(text) {
                Some(d) => d,
                None => {
                    construct_error(cx, node, "time.Duration");
                    Duration::default()
                }
            },
            // go-yaml v4 rc.4 takes the integer zero (`0`, `0x0`, `!!int 0`) as a zero duration;
            // any other integer is refused (every integer by rc.3).
            Some((_, Resolved::Int(n)))
                if (n == "0" || n == "-0") && cx.release().yaml() != crate::yaml::Dialect::V4Rc3 =>
            {
                Duration::default()
            }
            // rc.6 constructs a whole float into any Go integer, a duration too (nanoseconds):
            // `10.0` is `10ns`. 2^63 itself is out of range (Go's conversion fails the check).
            Some((_, Resolved::Float(f)))
                if cx.release().yaml() == crate::yaml::Dialect::V4Rc6
                    && f.is_finite()
                    && f.fract() == 0.0
                    && (-TWO_POW_63..TWO_POW_63).contains(&f) =>
            {
                Duration { nanos: f as i64 }
            }
            _ => {
                construct_error(cx, node, "time.Duration");
                Duration::default()
            }
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.to_string())
    }

    fn is_empty(&self) -> bool {
        self.nanos == 0
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        if right.nanos != 0 || flags.overwrite {
            *self = *right;
        }
        Ok(())
    }
}

/// Talos's `FileMode`: an octal file mode printed as `0o644` (zero prints `0o0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileMode(pub u32);

/// `Value` for a Go `uint32` file mode type named `$go`: read as an integer (go-yaml names the
/// field's own type in errors), written in octal (`0o644`, zero as `0o0`).
macro_rules! octal_mode_value {
    ($ty:ty, $go:literal) => {
        impl $crate::value::Value for $ty {
            fn go_type() -> String {
                $go.into()
            }

            fn decode(node: &$crate::yaml::Node, cx: &mut $crate::value::DecodeCx) -> Self {
                let mode = $crate::value::decode_int(node, cx, $go, 0, i128::from(u32::MAX));
                Self(u32::try_from(mode).unwrap_or_default())
            }

            fn encode(&self) -> $crate::yaml::Node {
                $crate::yaml::Node::plain(format!("0o{:o}", self.0))
            }

            fn is_empty(&self) -> bool {
                self.0 == 0
            }

            fn merge(&mut self, right: &Self, flags: $crate::value::MergeFlags) -> Result<(), String> {
                if right.0 != 0 || flags.overwrite {
                    *self = *right;
                }
                Ok(())
            }
        }
    };
}
pub(crate) use octal_mode_value;

octal_mode_value!(FileMode, "v1alpha1.FileMode");

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes every value of a one-mapping YAML document as a Go `string`.
    fn decode_strings(yaml: &str) -> (Vec<String>, Option<String>) {
        let docs = crate::yaml::parse::parse_documents(yaml.as_bytes()).expect("test YAML parses");
        let mut cx = DecodeCx::new();
        let values = match docs.first().map(|d| &d.value) {
            Some(NodeValue::Mapping(entries, _)) => entries.iter().map(|(_, v)| String::decode(v, &mut cx)).collect(),
            other => panic!("not a mapping: {other:?}"),
        };
        (values, cx.into_error())
    }

    #[test]
    fn binary_strings_decode_like_go_yaml() {
        let (values, err) = decode_strings(
            "a: !!binary aGVsbG8=\nb: !!binary |\n  aGVs\n  bG8=\nc: !!binary \"aGVs\\r\\nbG8=\"\nd: !!binary ''\n",
        );
        assert_eq!(values, ["hello", "hello", "hello", ""]);
        assert_eq!(err, None);
        // A plain scalar folded over two lines reads `aGVs bG8=`: Go rejects the space.
        let (values, err) =
            decode_strings("a: !!binary aGVs\n  bG8=\nb: !!binary \"aGVs\\tbG8=\"\nc: !!binary aGVsbG8\nd: ok\n");
        assert_eq!(values, ["", "", "", "ok"]);
        assert_eq!(
            err.as_deref(),
            Some(
                "yaml: construct errors:\n  line 1: !!binary value contains invalid base64 data\n  \
                 line 3: !!binary value contains invalid base64 data\n  \
                 line 4: !!binary value contains invalid base64 data"
            )
        );
    }
}
