//! Go's text formatting where Talos's messages depend on it.

/// Go's `strconv.Quote` (`%q`): escapes `"` and `\`, `\a \b \f \n \r \t \v`, other control
/// and non-printable characters as `\x..`, `\u....` or `\U........`; printable Unicode stays.
///
/// ```
/// assert_eq!(talos_config::gofmt::quote("team name"), "\"team name\"");
/// assert_eq!(talos_config::gofmt::quote("a\u{7}\u{a0}é"), "\"a\\a\\u00a0é\"");
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
/// assert_eq!(talos_config::gofmt::quote_bytes(b"a\xffb"), "\"a\\xffb\"");
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
/// assert_eq!(talos_config::gofmt::quote_rune('g'), "'g'");
/// assert_eq!(talos_config::gofmt::quote_rune('\''), "'\\''");
/// assert_eq!(talos_config::gofmt::quote_rune('\u{e9}'), "'é'");
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
