//! Go scalars: strings, booleans, integers, `time.Duration`, Talos's `FileMode`, and pointers.

use super::decode::{construct_error, decode_binary, is_null};
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

/// Go's `time.ParseDuration`, in Go's integer arithmetic: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`,
/// whole parts as `uint64` with overflow checks, fractions through `leadingFraction` (extra
/// digits beyond `uint64` precision are dropped) and truncated to whole nanoseconds, the total
/// bounded by `1<<63` (reachable only with a `-` sign). `None` where Go returns an error.
fn go_parse_duration(s: &str) -> Option<i64> {
    const BOUND: u64 = 1 << 63;
    let mut b = s.as_bytes();
    let mut neg = false;
    if let Some(&c) = b.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        b = &b[1..];
    }
    if b == b"0" {
        return Some(0);
    }
    if b.is_empty() {
        return None;
    }
    let mut d: u64 = 0;
    while !b.is_empty() {
        // The next character must be [0-9.].
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return None;
        }
        // leadingInt: [0-9]*, overflow is an error.
        let mut v: u64 = 0;
        let mut i = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            if v > BOUND / 10 {
                return None;
            }
            v = v * 10 + u64::from(b[i] - b'0');
            if v > BOUND {
                return None;
            }
            i += 1;
        }
        let pre = i > 0;
        b = &b[i..];
        // (\.[0-9]*)?: leadingFraction stops accumulating precision on overflow.
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if b.first() == Some(&b'.') {
            b = &b[1..];
            let mut i = 0;
            let mut overflow = false;
            while i < b.len() && b[i].is_ascii_digit() {
                if !overflow {
                    if f > (BOUND - 1) / 10 {
                        overflow = true;
                    } else {
                        let y = f * 10 + u64::from(b[i] - b'0');
                        if y > BOUND {
                            overflow = true;
                        } else {
                            f = y;
                            scale *= 10.0;
                        }
                    }
                }
                i += 1;
            }
            post = i > 0;
            b = &b[i..];
        }
        if !pre && !post {
            return None;
        }
        // The unit: everything up to the next [0-9.].
        let end = b.iter().position(|&c| c == b'.' || c.is_ascii_digit()).unwrap_or(b.len());
        if end == 0 {
            return None;
        }
        let unit: u64 = match &b[..end] {
            b"ns" => 1,
            // `µs` (U+00B5 micro sign) and `μs` (U+03BC Greek mu).
            b"us" | [0xc2, 0xb5, b's'] | [0xce, 0xbc, b's'] => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return None,
        };
        b = &b[end..];
        if v > BOUND / unit {
            return None;
        }
        v *= unit;
        if f > 0 {
            // Go: v += uint64(float64(f) * (float64(unit) / scale)), truncating.
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > BOUND {
                return None;
            }
        }
        d += v;
        if d > BOUND {
            return None;
        }
    }
    if neg {
        // -Duration(d): 1<<63 wraps to the minimum.
        return Some((d as i64).wrapping_neg());
    }
    i64::try_from(d).ok()
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

    #[test]
    fn durations_parse_and_print_exactly_like_go() {
        // (input, nanoseconds, Go's Duration.String), or None where ParseDuration fails.
        let cases: [(&str, Option<(i64, &str)>); 30] = [
            ("0", Some((0, "0s"))),
            ("+0", Some((0, "0s"))),
            ("-0", Some((0, "0s"))),
            ("0s", Some((0, "0s"))),
            ("1m0s", Some((60_000_000_000, "1m0s"))),
            ("1h30m", Some((5_400_000_000_000, "1h30m0s"))),
            ("300ms", Some((300_000_000, "300ms"))),
            ("-1.5h", Some((-5_400_000_000_000, "-1h30m0s"))),
            ("1.5µs", Some((1_500, "1.5µs"))),
            ("1.5μs", Some((1_500, "1.5µs"))),
            ("2us", Some((2_000, "2µs"))),
            (".5s", Some((500_000_000, "500ms"))),
            ("5.s", Some((5_000_000_000, "5s"))),
            ("1h1.5m", Some((3_690_000_000_000, "1h1m30s"))),
            ("0.9999999999s", Some((999_999_999, "999.999999ms"))),
            ("9007199254740993ns", Some((9_007_199_254_740_993, "2501h59m59.254740993s"))),
            ("9223372036854775807ns", Some((i64::MAX, "2562047h47m16.854775807s"))),
            ("-9223372036854775808ns", Some((i64::MIN, "-2562047h47m16.854775808s"))),
            ("0.100000000000000000000h", Some((360_000_000_000, "6m0s"))),
            ("0.1234567890123456789012345678901234567890ns", Some((0, "0s"))),
            ("9223372036854775808ns", None),
            ("9223372036854775807ns1ns", None),
            ("2562048h", None),
            ("10", None),
            ("", None),
            ("-", None),
            (".s", None),
            ("1x", None),
            ("3.4.5s", None),
            ("1sm", None),
        ];
        for (text, want) in cases {
            let got = go_parse_duration(text);
            assert_eq!(got, want.map(|(n, _)| n), "{text}");
            if let Some((n, printed)) = want {
                assert_eq!(go_format_duration(n), printed, "{text}");
            }
        }
    }
}
