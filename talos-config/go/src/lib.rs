#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod time;

/// Go's `strconv.Quote` (`%q`): escapes `"` and `\`, `\a \b \f \n \r \t \v`, other control
/// and non-printable characters as `\x..`, `\u....` or `\U........`; printable Unicode stays.
///
/// ```
/// assert_eq!(talos_go::quote("team name"), "\"team name\"");
/// assert_eq!(talos_go::quote("a\u{7}\u{a0}é"), "\"a\\a\\u00a0é\"");
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xFFFF => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space.
pub fn is_go_printable(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup as G, UnicodeGeneralCategory};
    c == ' ' || matches!(c.general_category_group(), G::Letter | G::Mark | G::Number | G::Punctuation | G::Symbol)
}

/// Go's `strconv.Quote` of a byte string: like [`quote`], with every byte of an invalid UTF-8
/// sequence written as `\xNN`.
///
/// ```
/// assert_eq!(talos_go::quote_bytes(b"a\xffb"), "\"a\\xffb\"");
/// ```
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        let valid = quote(chunk.valid());
        out.push_str(&valid[1..valid.len() - 1]);
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.QuoteRune` (`%q` of a rune): `'x'`, with the same escapes as [`quote`] except
/// that `'` is escaped and `"` is not.
///
/// ```
/// assert_eq!(talos_go::quote_rune('g'), "'g'");
/// assert_eq!(talos_go::quote_rune('\''), "'\\''");
/// assert_eq!(talos_go::quote_rune('\u{e9}'), "'é'");
/// ```
pub fn quote_rune(c: char) -> String {
    match c {
        '\'' => "'\\''".into(),
        '"' => "'\"'".into(),
        c => {
            let q = quote(c.encode_utf8(&mut [0; 4]));
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

// ---------------------------------------------------------------------------------------------
// encoding/base64 StdEncoding: the one implementation the crate uses (PEM material,
// `Base64Bytes`, go-yaml's `!!binary`, WireGuard keys).

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `base64.StdEncoding.EncodeToString`.
pub fn base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(B64[(v >> 18) as usize & 63] as char);
        out.push(B64[(v >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 { B64[(v >> 6) as usize & 63] as char } else { '=' });
        out.push(if chunk.len() > 2 { B64[v as usize & 63] as char } else { '=' });
    }
    out
}

fn b64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `base64.StdEncoding.DecodeString`, with Go's error text
/// (`illegal base64 data at input byte N`); `\r` and `\n` are skipped.
pub fn base64_decode(s: &str) -> Result<Vec<u8>, String> {
    let src = s.as_bytes();
    let corrupt = |n: usize| format!("illegal base64 data at input byte {n}");
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    while si < src.len() {
        let mut dbuf = [0u8; 4];
        let mut dlen = 4;
        let mut trailing_err = None;
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(corrupt(si - j));
            }
            let c = src[si];
            si += 1;
            if let Some(v) = b64_value(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Err(corrupt(si - 1));
            }
            match j {
                0 | 1 => return Err(corrupt(si - 1)),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(corrupt(src.len()));
                    }
                    if src[si] != b'=' {
                        return Err(corrupt(si - 1));
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                trailing_err = Some(corrupt(si));
            }
            dlen = j;
            break;
        }
        let val =
            (u32::from(dbuf[0]) << 18) | (u32::from(dbuf[1]) << 12) | (u32::from(dbuf[2]) << 6) | u32::from(dbuf[3]);
        let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
        out.extend_from_slice(&bytes[..dlen - 1]);
        if let Some(e) = trailing_err {
            return Err(e);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod base64_tests {
    use super::*;

    #[test]
    fn base64_like_go() {
        assert_eq!(base64_encode(b"hello"), "aGVsbG8=");
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVs\nbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("").unwrap(), b"");
        assert_eq!(base64_decode("abc").unwrap_err(), "illegal base64 data at input byte 0");
        assert_eq!(base64_decode("ab!d").unwrap_err(), "illegal base64 data at input byte 2");
        assert_eq!(base64_decode("aGVsbG8").unwrap_err(), "illegal base64 data at input byte 4");
        assert_eq!(base64_decode("aGVsbG8=x").unwrap_err(), "illegal base64 data at input byte 8");
        assert_eq!(base64_decode("aG==").unwrap(), b"h");
        assert_eq!(base64_decode("aG=").unwrap_err(), "illegal base64 data at input byte 3");
        assert_eq!(base64_decode("a===").unwrap_err(), "illegal base64 data at input byte 1");
    }
}
