//! A JSON value that keeps the text of its leaves, a parser with Go `encoding/json` syntax-error
//! texts, and the Go encoding/decoding helpers the JSON6902 pipeline needs.

/// Deepest container nesting Go's `encoding/json` scanner accepts.
const MAX_NESTING_DEPTH: usize = 10_000;

/// A JSON value as evanphx/json-patch holds it.
///
/// Leaves keep their exact text (the patch library compares leaves by their compacted bytes), and
/// the three ways a Go `*lazyNode` can stand for `null` are kept apart.
/// Values nest as deep as Go's decoder allows (10,000 levels): cloning, comparing and dropping
/// never overflow the stack, on any thread.
#[derive(Debug)]
pub(crate) enum Json {
    /// A nil `*lazyNode`: a JSON `null` inside a decoded object or array, or an op without `value`.
    Nil,
    /// A `lazyNode` whose raw message is a nil pointer: `"value": null` of a JSON-form op.
    RawNil,
    /// The raw text `null` (e.g. a YAML-form op value `~`); decodes as a nil map.
    Null,
    Bool(bool),
    /// The number's text.
    Number(String),
    /// The string's JSON text between the quotes (escapes as written).
    String(String),
    Array(Vec<Json>),
    /// Members in first-seen order; a repeated key replaces the earlier value (Go map semantics).
    Object(Vec<(String, Json)>),
}

impl Clone for Json {
    fn clone(&self) -> Json {
        crate::yaml::node::deep(|| match self {
            Json::Nil => Json::Nil,
            Json::RawNil => Json::RawNil,
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(*b),
            Json::Number(n) => Json::Number(n.clone()),
            Json::String(s) => Json::String(s.clone()),
            Json::Array(items) => Json::Array(items.clone()),
            Json::Object(members) => Json::Object(members.clone()),
        })
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        crate::yaml::node::deep(|| match (self, other) {
            (Json::Nil, Json::Nil) | (Json::RawNil, Json::RawNil) | (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Number(a), Json::Number(b)) | (Json::String(a), Json::String(b)) => a == b,
            (Json::Array(a), Json::Array(b)) => a == b,
            (Json::Object(a), Json::Object(b)) => a == b,
            _ => false,
        })
    }
}

/// Dropping never recurses: nested arrays and objects are moved to a list on the heap first.
impl Drop for Json {
    fn drop(&mut self) {
        let mut pending = Vec::new();
        defer_children(self, &mut pending);
        while let Some(mut value) = pending.pop() {
            defer_children(&mut value, &mut pending);
        }
    }
}

/// Moves the children of an array or object to `pending` (scalars are freed in place).
fn defer_children(value: &mut Json, pending: &mut Vec<Json>) {
    match value {
        Json::Array(items) => pending.append(items),
        Json::Object(members) => pending.extend(members.drain(..).map(|(_, v)| v)),
        _ => {}
    }
}

impl Json {
    /// Kind word Go uses in `UnmarshalTypeError` texts.
    pub(crate) fn go_kind(&self) -> &'static str {
        match self {
            Json::Nil | Json::RawNil | Json::Null => "null",
            Json::Bool(_) => "bool",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// Compact JSON text (keys in stored order; nil-ish nodes as `null`).
    pub(crate) fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_text(&mut out);
        out
    }

    fn write_text(&self, out: &mut String) {
        crate::yaml::node::deep(|| match self {
            Json::Nil | Json::RawNil | Json::Null => out.push_str("null"),
            Json::Bool(true) => out.push_str("true"),
            Json::Bool(false) => out.push_str("false"),
            Json::Number(n) => out.push_str(n),
            Json::String(raw) => {
                out.push('"');
                out.push_str(raw);
                out.push('"');
            }
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_text(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    out.push_str(&go_encode_string(k));
                    out.push_str("\":");
                    v.write_text(out);
                }
                out.push('}');
            }
        })
    }
}

/// Inserts or replaces `key` (Go map assignment).
pub(crate) fn object_set(members: &mut Vec<(String, Json)>, key: String, value: Json) {
    if let Some(slot) = members.iter_mut().find(|(k, _)| *k == key) {
        slot.1 = value;
    } else {
        members.push((key, value));
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing.

enum Frame {
    Array(Vec<Json>),
    Object(Vec<(String, Json)>, String),
}

#[derive(Clone, Copy)]
enum State {
    /// A value is expected; `true` when `]` may close an empty array here.
    Value(bool),
    /// An object key is expected; `true` when `}` may close an empty object here.
    Key(bool),
    /// `:` is expected.
    Colon,
    /// A value ended.
    AfterValue,
}

/// What a parser state leads to: the next state, or the finished top-level value.
enum Step {
    Next(State),
    Done(Json),
}

/// The parser's place in the input and the containers it is inside.
struct Parser<'a> {
    input: &'a [u8],
    i: usize,
    stack: Vec<Frame>,
}

fn syntax_error(c: u8, context: &str) -> String {
    format!("invalid character {} {context}", quote_char(c))
}

const UNEXPECTED_END: &str = "unexpected end of JSON input";

fn is_json_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Parses a complete JSON text like Go's `json.Unmarshal` syntax check. `null` at the top level
/// gives [`Json::Null`]; `null` inside a container gives [`Json::Nil`]. The error is Go's
/// `SyntaxError` text.
pub(crate) fn parse(input: &[u8]) -> Result<Json, String> {
    let mut parser = Parser { input, i: 0, stack: Vec::new() };
    let mut state = State::Value(false);
    loop {
        let step = match state {
            State::Value(allow_close) => parser.value(allow_close)?,
            State::Key(allow_close) => parser.key(allow_close)?,
            State::Colon => parser.colon()?,
            State::AfterValue => parser.after_value()?,
        };
        match step {
            Step::Next(next) => state = next,
            Step::Done(value) => return Ok(value),
        }
    }
}

impl Parser<'_> {
    /// Skips white space and gives the next byte; at the end of input, Go's "unexpected end".
    fn next_non_space(&mut self) -> Result<u8, String> {
        while self.i < self.input.len() && is_json_space(self.input[self.i]) {
            self.i += 1;
        }
        self.input.get(self.i).copied().ok_or_else(|| UNEXPECTED_END.to_string())
    }

    /// Where a value is expected: a scalar, a container's start, or (`allow_close`) the `]` of
    /// an empty array.
    fn value(&mut self, allow_close: bool) -> Result<Step, String> {
        let c = self.next_non_space()?;
        let value = match c {
            b']' if allow_close => {
                self.i += 1;
                let Some(Frame::Array(items)) = self.stack.pop() else {
                    return Err(UNEXPECTED_END.to_string());
                };
                Json::Array(items)
            }
            b'{' | b'[' => return self.open(c),
            _ => self.scalar(c)?,
        };
        self.finish_value(value)
    }

    /// Opens an object or array at `c`, within Go's nesting limit.
    fn open(&mut self, c: u8) -> Result<Step, String> {
        if self.stack.len() + 1 > MAX_NESTING_DEPTH {
            return Err(syntax_error(c, "exceeded max depth"));
        }
        self.i += 1;
        if c == b'{' {
            self.stack.push(Frame::Object(Vec::new(), String::new()));
            Ok(Step::Next(State::Key(true)))
        } else {
            self.stack.push(Frame::Array(Vec::new()));
            Ok(Step::Next(State::Value(true)))
        }
    }

    /// A string, number, `true`, `false` or `null` starting at `c`.
    fn scalar(&mut self, c: u8) -> Result<Json, String> {
        let (input, start) = (self.input, self.i);
        Ok(match c {
            b'"' => {
                let (raw, end) = scan_string(input, start)?;
                self.i = end;
                Json::String(raw)
            }
            b'-' | b'0'..=b'9' => {
                let end = scan_number(input, start)?;
                self.i = end;
                Json::Number(String::from_utf8_lossy(&input[start..end]).into_owned())
            }
            b't' => {
                self.i = scan_literal(input, start, "true")?;
                Json::Bool(true)
            }
            b'f' => {
                self.i = scan_literal(input, start, "false")?;
                Json::Bool(false)
            }
            b'n' => {
                self.i = scan_literal(input, start, "null")?;
                if self.stack.is_empty() { Json::Null } else { Json::Nil }
            }
            _ => return Err(syntax_error(c, "looking for beginning of value")),
        })
    }

    /// Where an object key is expected, or (`allow_close`) the `}` of an empty object.
    fn key(&mut self, allow_close: bool) -> Result<Step, String> {
        let c = self.next_non_space()?;
        if c == b'}' && allow_close {
            self.i += 1;
            let Some(Frame::Object(members, _)) = self.stack.pop() else {
                return Err(UNEXPECTED_END.to_string());
            };
            return self.finish_value(Json::Object(members));
        }
        if c != b'"' {
            return Err(syntax_error(c, "looking for beginning of object key string"));
        }
        let (raw, end) = scan_string(self.input, self.i)?;
        self.i = end;
        if let Some(Frame::Object(_, key)) = self.stack.last_mut() {
            *key = go_decode_string(&raw);
        }
        Ok(Step::Next(State::Colon))
    }

    /// The `:` after an object key.
    fn colon(&mut self) -> Result<Step, String> {
        let c = self.next_non_space()?;
        if c != b':' {
            return Err(syntax_error(c, "after object key"));
        }
        self.i += 1;
        Ok(Step::Next(State::Value(false)))
    }

    /// After a value inside a container: a `,` or the container's closing bracket.
    fn after_value(&mut self) -> Result<Step, String> {
        let c = self.next_non_space()?;
        let in_object = matches!(self.stack.last(), Some(Frame::Object(..)));
        match (in_object, c) {
            (true, b',') => {
                self.i += 1;
                Ok(Step::Next(State::Key(false)))
            }
            (false, b',') => {
                self.i += 1;
                Ok(Step::Next(State::Value(false)))
            }
            (true, b'}') | (false, b']') => {
                self.i += 1;
                let value = match self.stack.pop() {
                    Some(Frame::Object(members, _)) => Json::Object(members),
                    Some(Frame::Array(items)) => Json::Array(items),
                    None => return Err(UNEXPECTED_END.to_string()),
                };
                self.finish_value(value)
            }
            (true, _) => Err(syntax_error(c, "after object key:value pair")),
            (false, _) => Err(syntax_error(c, "after array element")),
        }
    }

    /// Stores a finished value in its container; a top-level value is the result, when only
    /// white space follows it.
    fn finish_value(&mut self, value: Json) -> Result<Step, String> {
        match self.stack.last_mut() {
            None => {
                if let Some(&c) = self.input[self.i..].iter().find(|&&c| !is_json_space(c)) {
                    return Err(syntax_error(c, "after top-level value"));
                }
                Ok(Step::Done(value))
            }
            Some(Frame::Array(items)) => {
                items.push(value);
                Ok(Step::Next(State::AfterValue))
            }
            Some(Frame::Object(members, key)) => {
                let key = std::mem::take(key);
                object_set(members, key, value);
                Ok(Step::Next(State::AfterValue))
            }
        }
    }
}

/// Scans a string starting at the opening quote; returns its raw text and the index after it.
fn scan_string(input: &[u8], start: usize) -> Result<(String, usize), String> {
    let mut i = start + 1;
    loop {
        let Some(&c) = input.get(i) else {
            return Err(UNEXPECTED_END.to_string());
        };
        match c {
            b'"' => {
                let raw = String::from_utf8_lossy(&input[start + 1..i]).into_owned();
                return Ok((raw, i + 1));
            }
            b'\\' => {
                let Some(&e) = input.get(i + 1) else {
                    return Err(UNEXPECTED_END.to_string());
                };
                match e {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' => {
                        for k in 0..4 {
                            let Some(&h) = input.get(i + 2 + k) else {
                                return Err(UNEXPECTED_END.to_string());
                            };
                            if !h.is_ascii_hexdigit() {
                                return Err(syntax_error(h, "in \\u hexadecimal character escape"));
                            }
                        }
                        i += 6;
                    }
                    _ => return Err(syntax_error(e, "in string escape code")),
                }
            }
            c if c < 0x20 => return Err(syntax_error(c, "in string literal")),
            _ => i += 1,
        }
    }
}

/// Scans a number; at the end of input Go's scanner sees a space.
fn scan_number(input: &[u8], start: usize) -> Result<usize, String> {
    let at = |i: usize| input.get(i).copied().unwrap_or(b' ');
    let mut i = start;
    if at(i) == b'-' {
        i += 1;
        if !at(i).is_ascii_digit() {
            return Err(syntax_error(at(i), "in numeric literal"));
        }
    }
    if at(i) == b'0' {
        i += 1;
    } else {
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    if at(i) == b'.' {
        i += 1;
        if !at(i).is_ascii_digit() {
            return Err(syntax_error(at(i), "after decimal point in numeric literal"));
        }
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(at(i), b'e' | b'E') {
        i += 1;
        if matches!(at(i), b'+' | b'-') {
            i += 1;
        }
        if !at(i).is_ascii_digit() {
            return Err(syntax_error(at(i), "in exponent of numeric literal"));
        }
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    Ok(i)
}

fn scan_literal(input: &[u8], start: usize, word: &str) -> Result<usize, String> {
    for (k, expected) in word.bytes().enumerate().skip(1) {
        let c = input.get(start + k).copied().unwrap_or(b' ');
        if c != expected {
            return Err(syntax_error(c, &format!("in literal {word} (expecting {})", quote_char(expected))));
        }
    }
    Ok(start + word.len())
}

/// Go `encoding/json` `quoteChar`.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => format!("'{}'", go_quote_inner(&char::from(c).to_string())),
    }
}

// ---------------------------------------------------------------------------------------------
// Go string helpers.

/// Go `strconv.Quote(s)` without the surrounding quotes.
fn go_quote_inner(s: &str) -> String {
    let q = crate::gofmt::quote(s);
    q[1..q.len() - 1].to_string()
}

pub(crate) use crate::gofmt::quote as go_quote;

/// Go `json.Marshal` of a string (HTML escaping on), without the quotes.
pub(crate) fn go_encode_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' => out.push_str(&format!("\\u00{:02x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u00{:02x}", c as u32)),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Go `json.Marshal` of a Go string holding arbitrary bytes (invalid UTF-8 becomes U+FFFD).
pub(crate) fn go_encode_bytes(b: &[u8]) -> String {
    go_encode_string(&String::from_utf8_lossy(b))
}

/// The `json.Compact` HTML escaping `json.Marshal` applies to a raw message.
pub(crate) fn html_escape_raw(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

fn hex4(b: &[u8]) -> Option<u32> {
    if b.len() < 4 {
        return None;
    }
    let s = std::str::from_utf8(&b[..4]).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// Go `encoding/json` unquoting of a (syntactically valid) string body: surrogate pairs are
/// combined, lone surrogates become U+FFFD.
pub(crate) fn go_decode_string(raw: &str) -> String {
    let b = raw.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let Some(&e) = b.get(i + 1) else {
            break;
        };
        i += 2;
        let simple = match e {
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'/' => Some(b'/'),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let Some(r) = hex4(&b[i..]) else {
            break;
        };
        i += 4;
        let mut ch = char::from_u32(r);
        if (0xD800..0xE000).contains(&r) {
            ch = None;
            if r < 0xDC00
                && b.get(i) == Some(&b'\\')
                && b.get(i + 1) == Some(&b'u')
                && let Some(r2) = hex4(&b[i + 2..])
                && (0xDC00..0xE000).contains(&r2)
            {
                ch = char::from_u32(0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00));
                i += 6;
            }
        }
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes());
    }
    String::from_utf8_lossy(&out).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Numbers.

/// Go `json.Marshal` of a float64 (`None` for NaN and infinities, which Go refuses with
/// `json: unsupported value: ...`).
pub(crate) fn go_json_float(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let e = format!("{f:e}");
        let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
        let (sign, digits) = match exp.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', exp),
        };
        Some(format!("{mantissa}e{sign}{digits}"))
    } else {
        Some(format!("{f}"))
    }
}

/// The text of Go's `json: unsupported value` error for a non-finite float.
pub(crate) fn unsupported_float(f: f64) -> String {
    let v = if f.is_nan() {
        "NaN"
    } else if f > 0.0 {
        "+Inf"
    } else {
        "-Inf"
    };
    format!("json: unsupported value: {v}")
}

/// Go `strconv.FormatFloat(f, 'g', -1, 32)` with go-yaml's `.inf`/`-.inf`/`.nan` (ghodss's
/// float map-key text).
pub(crate) fn go_format_float32_key(f: f64) -> String {
    let v = f as f32;
    if v.is_nan() {
        return ".nan".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    let neg = v.is_sign_negative();
    if v == 0.0 {
        return if neg { "-0" } else { "0" }.to_string();
    }
    let e = format!("{:e}", v.abs());
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let dp = (exp + 1) as usize;
        if digits.len() <= dp {
            out.push_str(&digits);
            for _ in digits.len()..dp {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..dp]);
            out.push('.');
            out.push_str(&digits[dp..]);
        }
    }
    out
}

/// Go `strconv.Atoi` on a 64-bit platform, with its error text.
pub(crate) fn go_atoi(s: &str) -> Result<i64, String> {
    let syntax = || format!("strconv.Atoi: parsing {}: invalid syntax", go_quote(s));
    let range = || format!("strconv.Atoi: parsing {}: value out of range", go_quote(s));
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(syntax());
    }
    let mut n: u64 = 0;
    let mut overflow = false;
    for c in digits.bytes() {
        match n.checked_mul(10).and_then(|m| m.checked_add(u64::from(c - b'0'))) {
            Some(m) => n = m,
            None => {
                overflow = true;
                break;
            }
        }
    }
    if overflow {
        return Err(range());
    }
    if neg {
        if n > 1u64 << 63 {
            return Err(range());
        }
        Ok((n as i64).wrapping_neg())
    } else if n >= 1u64 << 63 {
        Err(range())
    } else {
        Ok(n as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        parse(s.as_bytes()).err().unwrap_or_default()
    }

    #[test]
    fn syntax_errors_match_go() {
        assert_eq!(err(""), "unexpected end of JSON input");
        assert_eq!(err("   "), "unexpected end of JSON input");
        assert_eq!(err("[1,"), "unexpected end of JSON input");
        assert_eq!(err("[{\"a\""), "unexpected end of JSON input");
        assert_eq!(err("x"), "invalid character 'x' looking for beginning of value");
        assert_eq!(err("[1,]"), "invalid character ']' looking for beginning of value");
        assert_eq!(err("{\"a\" 1}"), "invalid character '1' after object key");
        assert_eq!(err("{\"a\":1 \"b\"}"), "invalid character '\"' after object key:value pair");
        assert_eq!(err("[1 2]"), "invalid character '2' after array element");
        assert_eq!(err("{1:2}"), "invalid character '1' looking for beginning of object key string");
        assert_eq!(err("{\"a\":1,}"), "invalid character '}' looking for beginning of object key string");
        assert_eq!(err("[] x"), "invalid character 'x' after top-level value");
        assert_eq!(err("01"), "invalid character '1' after top-level value");
        assert_eq!(err("[01]"), "invalid character '1' after array element");
        assert_eq!(err("\"a\tb\""), "invalid character '\\t' in string literal");
        assert_eq!(err("\"\\x\""), "invalid character 'x' in string escape code");
        assert_eq!(err("\"\\u12g4\""), "invalid character 'g' in \\u hexadecimal character escape");
        assert_eq!(err("-a"), "invalid character 'a' in numeric literal");
        assert_eq!(err("-"), "invalid character ' ' in numeric literal");
        assert_eq!(err("1."), "invalid character ' ' after decimal point in numeric literal");
        assert_eq!(err("[1.x]"), "invalid character 'x' after decimal point in numeric literal");
        assert_eq!(err("1e"), "invalid character ' ' in exponent of numeric literal");
        assert_eq!(err("[1e+]"), "invalid character ']' in exponent of numeric literal");
        assert_eq!(err("tru"), "invalid character ' ' in literal true (expecting 'e')");
        assert_eq!(err("[nul]"), "invalid character ']' in literal null (expecting 'l')");
        assert_eq!(err("fx"), "invalid character 'x' in literal false (expecting 'a')");
        assert_eq!(err("'a'"), "invalid character '\\'' looking for beginning of value");
        assert_eq!(err("\u{7f}"), "invalid character '\\x7f' looking for beginning of value");
        assert_eq!(err("[\"\\u00e9\"] \u{e9}"), "invalid character 'Ã' after top-level value");
        assert_eq!(err("{\"a\":}"), "invalid character '}' looking for beginning of value");
    }

    #[test]
    fn depth_limit() {
        let ok = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(parse(ok.as_bytes()).is_ok());
        let bad = format!("{}{}", "[".repeat(10_001), "]".repeat(10_001));
        assert_eq!(parse(bad.as_bytes()).err().unwrap_or_default(), "invalid character '[' exceeded max depth");
    }

    #[test]
    fn values_keep_text() {
        let v = parse(br#"{"a": 1.0, "b": "x\u0041", "c": null, "a": -0}"#).ok();
        assert_eq!(
            v,
            Some(Json::Object(vec![
                ("a".into(), Json::Number("-0".into())),
                ("b".into(), Json::String("x\\u0041".into())),
                ("c".into(), Json::Nil),
            ]))
        );
        assert_eq!(parse(b"null").ok(), Some(Json::Null));
    }

    #[test]
    fn decode_strings() {
        assert_eq!(go_decode_string("a\\u0041\\n\\/"), "aA\n/");
        assert_eq!(go_decode_string("\\ud83d\\ude00"), "😀");
        assert_eq!(go_decode_string("\\ud83dx"), "\u{FFFD}x");
        assert_eq!(go_decode_string("\\ude00"), "\u{FFFD}");
    }

    #[test]
    fn encode_strings() {
        assert_eq!(
            go_encode_string("a<b>&\"\\\n\u{1}\u{7f}\u{2028}é"),
            "a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\u0001\u{7f}\\u2028é"
        );
    }

    #[test]
    fn floats() {
        assert_eq!(go_json_float(1.0).as_deref(), Some("1"));
        assert_eq!(go_json_float(-0.0).as_deref(), Some("-0"));
        assert_eq!(go_json_float(1e20).as_deref(), Some("100000000000000000000"));
        assert_eq!(go_json_float(1e21).as_deref(), Some("1e+21"));
        assert_eq!(go_json_float(1.5e-7).as_deref(), Some("1.5e-7"));
        assert_eq!(go_json_float(0.000001).as_deref(), Some("0.000001"));
        assert_eq!(go_json_float(f64::NAN), None);
        assert_eq!(go_format_float32_key(1.5), "1.5");
        assert_eq!(go_format_float32_key(0.1), "0.1");
        assert_eq!(go_format_float32_key(1e6), "1e+06");
        assert_eq!(go_format_float32_key(123456.0), "123456");
        assert_eq!(go_format_float32_key(0.0001), "0.0001");
        assert_eq!(go_format_float32_key(0.00001), "1e-05");
        assert_eq!(go_format_float32_key(f64::INFINITY), ".inf");
    }

    #[test]
    fn atoi() {
        assert_eq!(go_atoi("01"), Ok(1));
        assert_eq!(go_atoi("+3"), Ok(3));
        assert_eq!(go_atoi("-1"), Ok(-1));
        assert_eq!(go_atoi("x"), Err("strconv.Atoi: parsing \"x\": invalid syntax".into()));
        assert_eq!(go_atoi("-"), Err("strconv.Atoi: parsing \"-\": invalid syntax".into()));
        assert_eq!(go_atoi(""), Err("strconv.Atoi: parsing \"\": invalid syntax".into()));
        assert_eq!(
            go_atoi("99999999999999999999"),
            Err("strconv.Atoi: parsing \"99999999999999999999\": value out of range".into())
        );
        assert_eq!(go_atoi("-9223372036854775808"), Ok(i64::MIN));
    }
}
