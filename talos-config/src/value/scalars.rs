//! Go scalars: strings, booleans, integers, `time.Duration`, Talos's `FileMode`, and pointers.

use super::decode::{construct_error, is_null};
use super::{DecodeCx, DeletePath, MergeFlags, Value};
use crate::yaml::resolve::{Resolved, resolve_v4};
use crate::yaml::{Node, NodeValue, ScalarStyle};

/// The text of a scalar node with how it resolves (quoted scalars are strings).
fn scalar_of(node: &Node) -> Option<(&str, Resolved)> {
    match &node.value {
        NodeValue::Scalar(s) => {
            let resolved = match node.tag.as_deref() {
                Some("!!str") | Some("!!binary") => Resolved::Str,
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

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return String::new();
        }
        match &node.value {
            NodeValue::Scalar(s) if node.tag.as_deref() == Some("!!binary") => {
                use base64::Engine as _;
                let compact: String = s.text.chars().filter(|c| !c.is_whitespace()).collect();
                match base64::engine::general_purpose::STANDARD.decode(compact) {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(_) => {
                        cx.error(node, "!!binary value contains invalid base64 data");
                        String::new()
                    }
                }
            }
            NodeValue::Scalar(s) => s.text.clone(),
            _ => {
                construct_error(cx, node, &Self::go_type());
                String::new()
            }
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.clone())
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

/// Decodes an integer node into the range `[min, max]` as go-yaml does (floats with an
/// integral value in range are accepted too).
fn decode_int(node: &Node, cx: &mut DecodeCx, go_type: &str, min: i128, max: i128) -> i128 {
    if is_null(node) {
        return 0;
    }
    let parsed = match scalar_of(node) {
        Some((_, Resolved::Int(text))) => text.parse::<i128>().ok(),
        Some((_, Resolved::Float(f))) if f.is_finite() => Some(f.trunc() as i128),
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

int_value!(i64 => "int", i32 => "int32", u64 => "uint64", u32 => "uint32", u16 => "uint16", u8 => "uint8");

impl Value for f64 {
    fn go_type() -> String {
        "float64".into()
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

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) { None } else { Some(T::decode(node, cx)) }
    }

    fn unknown_keys(node: &Node) -> Result<Option<Node>, String> {
        T::unknown_keys(node)
    }

    fn encode(&self) -> Node {
        match self {
            Some(v) => v.encode(),
            None => Node::null(),
        }
    }

    fn is_empty(&self) -> bool {
        self.is_none()
    }

    fn replace_keeps_left(&self) -> bool {
        self.is_none()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        match (self.as_mut(), right) {
            (_, None) => Ok(()),
            (None, Some(r)) => {
                *self = Some(r.clone());
                Ok(())
            }
            (Some(l), Some(r)) => l.merge(r, MergeFlags { overwrite: true }),
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

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        Box::new(T::decode(node, cx))
    }

    fn unknown_keys(node: &Node) -> Result<Option<Node>, String> {
        T::unknown_keys(node)
    }

    fn encode(&self) -> Node {
        (**self).encode()
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

/// Go's `time.Duration`: written as Go prints it (`1m0s`), read with `time.ParseDuration`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    /// Nanoseconds.
    pub nanos: i64,
}

impl Duration {
    /// Parses Go duration text (`1h2m3.5s`, `300ms`, `-1.5h`, `0`).
    pub fn parse(text: &str) -> Option<Duration> {
        go_parse_duration(text).map(|nanos| Duration { nanos })
    }
}

impl std::fmt::Display for Duration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&go_format_duration(self.nanos))
    }
}

impl Value for Duration {
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

/// Go's `time.ParseDuration`.
fn go_parse_duration(s: &str) -> Option<i64> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let num_end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let num = &rest[..num_end];
        if num.is_empty() || num == "." {
            return None;
        }
        let value: f64 = num.parse().ok()?;
        rest = &rest[num_end..];
        let unit_end = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let unit = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += value * unit;
    }
    if total > i64::MAX as f64 {
        return None;
    }
    let nanos = total.round() as i64;
    Some(if neg { -nanos } else { nanos })
}

/// Go's `time.Duration.String`.
fn go_format_duration(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let neg = nanos < 0;
    let u = nanos.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        // Sub-second: a single unit with a fraction.
        let (unit, scale) = if u < 1_000 {
            ("ns", 1)
        } else if u < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        out.push_str(&fraction(u, scale));
        out.push_str(unit);
    } else {
        let hours = u / 3_600_000_000_000;
        let minutes = (u / 60_000_000_000) % 60;
        let secs = u % 60_000_000_000;
        if hours > 0 {
            out.push_str(&format!("{hours}h"));
        }
        if hours > 0 || minutes > 0 {
            out.push_str(&format!("{minutes}m"));
        }
        out.push_str(&fraction(secs, 1_000_000_000));
        out.push('s');
    }
    if neg { format!("-{out}") } else { out }
}

/// `value / scale` with the fraction's trailing zeros removed.
fn fraction(value: u64, scale: u64) -> String {
    let whole = value / scale;
    let frac = value % scale;
    if frac == 0 {
        return whole.to_string();
    }
    let width = scale.ilog10() as usize;
    let digits = format!("{frac:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// Talos's `FileMode`: an octal file mode printed as `0o644` (zero prints `0o0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileMode(pub u32);

impl Value for FileMode {
    fn go_type() -> String {
        "v1alpha1.FileMode".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        FileMode(u32::decode(node, cx))
    }

    fn encode(&self) -> Node {
        Node::plain(format!("0o{:o}", self.0))
    }

    fn is_empty(&self) -> bool {
        self.0 == 0
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        if right.0 != 0 || flags.overwrite {
            *self = *right;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_like_go() {
        let cases = [
            (0, "0s"),
            (1, "1ns"),
            (1_500, "1.5µs"),
            (2_000_000, "2ms"),
            (1_000_000_000, "1s"),
            (60_000_000_000, "1m0s"),
            (90_000_000_000, "1m30s"),
            (3_600_000_000_000, "1h0m0s"),
            (87600 * 3_600_000_000_000, "87600h0m0s"),
            (-30_000_000_000, "-30s"),
            (1_250_000_000, "1.25s"),
        ];
        for (nanos, text) in cases {
            assert_eq!(go_format_duration(nanos), text);
        }
    }

    #[test]
    fn durations_parse_like_go() {
        assert_eq!(go_parse_duration("1m0s"), Some(60_000_000_000));
        assert_eq!(go_parse_duration("1h30m"), Some(5_400_000_000_000));
        assert_eq!(go_parse_duration("300ms"), Some(300_000_000));
        assert_eq!(go_parse_duration("-1.5h"), Some(-5_400_000_000_000));
        assert_eq!(go_parse_duration("0"), Some(0));
        assert_eq!(go_parse_duration("10"), None);
        assert_eq!(go_parse_duration(""), None);
        assert_eq!(go_parse_duration("1x"), None);
    }
}
