//! Go's `net/url.URL`: `url.Parse`, `URL.String` and the component-by-component merge the Talos
//! merge engine performs on it (docs/merge.md §8.4).
//!
//! Components are kept as bytes, as Go strings hold them (a `%FF` in a path decodes to one
//! byte that is not UTF-8). Colons in hosts are lax (the last colon starts the port), as in Go
//! before 1.26 or with `urlstrictcolons=0`.

use super::decode::is_null;
use super::{DecodeCx, MergeFlags, Value};
use crate::yaml::Node;

/// `url.Userinfo`: a username and an optional password.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Userinfo {
    pub username: Vec<u8>,
    pub password: Vec<u8>,
    pub password_set: bool,
}

impl Userinfo {
    /// Go's `Userinfo.String`: `user[:password]`, escaped.
    pub fn encoded(&self) -> String {
        let mut s = escape(&self.username, Mode::UserPassword);
        if self.password_set {
            s.push(':');
            s.push_str(&escape(&self.password, Mode::UserPassword));
        }
        s
    }
}

/// Go's `url.URL`, field for field (Go field order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GoUrl {
    pub scheme: Vec<u8>,
    pub opaque: Vec<u8>,
    pub user: Option<Userinfo>,
    pub host: Vec<u8>,
    pub path: Vec<u8>,
    pub raw_path: Vec<u8>,
    pub omit_host: bool,
    pub force_query: bool,
    pub raw_query: Vec<u8>,
    pub fragment: Vec<u8>,
    pub raw_fragment: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

use crate::gofmt::quote_bytes as go_quote;

fn escape_error(s: &[u8]) -> String {
    format!("invalid URL escape {}", go_quote(s))
}

fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, String> {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                if i + 2 >= s.len() || !is_hex(s[i + 1]) || !is_hex(s[i + 2]) {
                    let rest = &s[i..];
                    return Err(escape_error(&rest[..rest.len().min(3)]));
                }
                let seq = &s[i..i + 3];
                if mode == Mode::Host && unhex(s[i + 1]) < 8 && seq != b"%25" {
                    return Err(escape_error(seq));
                }
                if mode == Mode::Zone {
                    let v = (unhex(s[i + 1]) << 4) | unhex(s[i + 2]);
                    if seq != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(seq));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!("invalid character {} in host name", go_quote(&[c])));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() {
            out.push((unhex(s[i + 1]) << 4) | unhex(s[i + 2]));
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn escape(s: &[u8], mode: Mode) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if should_escape(c, mode) {
            out.push('%');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        } else {
            out.push(c as char);
        }
    }
    out
}

fn valid_encoded(s: &[u8], mode: Mode) -> bool {
    s.iter().all(|&c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

fn valid_optional_port(port: &[u8]) -> bool {
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

fn find(s: &[u8], c: u8) -> Option<usize> {
    s.iter().position(|&b| b == c)
}

fn rfind(s: &[u8], c: u8) -> Option<usize> {
    s.iter().rposition(|&b| b == c)
}

fn find_sub(s: &[u8], sub: &[u8]) -> Option<usize> {
    s.windows(sub.len()).position(|w| w == sub)
}

fn get_scheme(raw: &[u8]) -> Result<(&[u8], &[u8]), String> {
    for (i, &c) in raw.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok((&[], raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".into());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok((&[], raw)),
        }
    }
    Ok((&[], raw))
}

fn parse_host(host: &[u8]) -> Result<Vec<u8>, String> {
    if host.first() == Some(&b'[') {
        let Some(i) = rfind(host, b']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
        if let Some(zone) = find_sub(&host[..i], b"%25") {
            let mut out = unescape(&host[..zone], Mode::Host)?;
            out.extend(unescape(&host[zone..i], Mode::Zone)?);
            out.extend(unescape(&host[i..], Mode::Host)?);
            return Ok(out);
        }
    } else if let Some(i) = rfind(host, b':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    unescape(host, Mode::Host)
}

fn valid_userinfo(s: &[u8]) -> bool {
    // Go ranges over runes: any non-ASCII rune is invalid, so checking bytes is equivalent.
    s.iter().all(|&c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b':'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'%'
                    | b'@'
            )
    })
}

fn parse_authority(authority: &[u8]) -> Result<(Option<Userinfo>, Vec<u8>), String> {
    let at = rfind(authority, b'@');
    let host = match at {
        None => parse_host(authority)?,
        Some(i) => parse_host(&authority[i + 1..])?,
    };
    let Some(i) = at else { return Ok((None, host)) };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match find(userinfo, b':') {
        None => Userinfo { username: unescape(userinfo, Mode::UserPassword)?, ..Userinfo::default() },
        Some(c) => Userinfo {
            username: unescape(&userinfo[..c], Mode::UserPassword)?,
            password: unescape(&userinfo[c + 1..], Mode::UserPassword)?,
            password_set: true,
        },
    };
    Ok((Some(user), host))
}

impl GoUrl {
    /// Go's `url.Parse`; the error is the text of Go's `*url.Error` (`parse "x": ...`).
    pub(crate) fn parse(raw: &str) -> Result<GoUrl, String> {
        let raw = raw.as_bytes();
        let (u, frag) = match find(raw, b'#') {
            Some(i) => (&raw[..i], Some(&raw[i + 1..])),
            None => (raw, None),
        };
        let mut url = Self::parse_no_fragment(u).map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
        if let Some(frag) = frag.filter(|f| !f.is_empty()) {
            url.set_fragment(frag).map_err(|e| format!("parse {}: {e}", go_quote(raw)))?;
        }
        Ok(url)
    }

    fn parse_no_fragment(raw: &[u8]) -> Result<GoUrl, String> {
        if raw.iter().any(|&b| b < 0x20 || b == 0x7f) {
            return Err("net/url: invalid control character in URL".into());
        }
        let mut url = GoUrl::default();
        if raw == b"*" {
            url.path = b"*".to_vec();
            return Ok(url);
        }
        let (scheme, rest) = get_scheme(raw)?;
        url.scheme = scheme.to_ascii_lowercase();
        let mut rest = rest;
        if rest.last() == Some(&b'?') && rest.iter().filter(|&&b| b == b'?').count() == 1 {
            url.force_query = true;
            rest = &rest[..rest.len() - 1];
        } else if let Some(q) = find(rest, b'?') {
            url.raw_query = rest[q + 1..].to_vec();
            rest = &rest[..q];
        }
        if rest.first() != Some(&b'/') {
            if !url.scheme.is_empty() {
                url.opaque = rest.to_vec();
                return Ok(url);
            }
            let segment = match find(rest, b'/') {
                Some(i) => &rest[..i],
                None => rest,
            };
            if segment.contains(&b':') {
                return Err("first path segment in URL cannot contain colon".into());
            }
        }
        if (!url.scheme.is_empty() || !rest.starts_with(b"///")) && rest.starts_with(b"//") {
            let mut authority = &rest[2..];
            rest = &[];
            if let Some(i) = find(authority, b'/') {
                rest = &authority[i..];
                authority = &authority[..i];
            }
            let (user, host) = parse_authority(authority)?;
            url.user = user;
            url.host = host;
        } else if !url.scheme.is_empty() && rest.first() == Some(&b'/') {
            url.omit_host = true;
        }
        url.set_path(rest)?;
        Ok(url)
    }

    fn set_path(&mut self, p: &[u8]) -> Result<(), String> {
        let path = unescape(p, Mode::Path)?;
        self.raw_path = if escape(&path, Mode::Path).as_bytes() == p { Vec::new() } else { p.to_vec() };
        self.path = path;
        Ok(())
    }

    fn set_fragment(&mut self, f: &[u8]) -> Result<(), String> {
        let frag = unescape(f, Mode::Fragment)?;
        self.raw_fragment = if escape(&frag, Mode::Fragment).as_bytes() == f { Vec::new() } else { f.to_vec() };
        self.fragment = frag;
        Ok(())
    }

    /// Go's `URL.EscapedPath`.
    pub fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return String::from_utf8_lossy(&self.raw_path).into_owned();
        }
        if self.path == b"*" {
            return "*".into();
        }
        escape(&self.path, Mode::Path)
    }

    /// Go's `URL.EscapedFragment`.
    pub fn escaped_fragment(&self) -> String {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return String::from_utf8_lossy(&self.raw_fragment).into_owned();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    /// Go's `Hostname()`: the host without its port, an IPv6 address without brackets.
    pub fn hostname(&self) -> String {
        let mut host: &[u8] = &self.host;
        if let Some(colon) = host.iter().rposition(|&b| b == b':')
            && host[colon + 1..].iter().all(u8::is_ascii_digit)
        {
            host = &host[..colon];
        }
        if let [b'[', inner @ .., b']'] = host {
            host = inner;
        }
        String::from_utf8_lossy(host).into_owned()
    }

    /// The host (`host` or `host:port`) as text.
    pub fn host_str(&self) -> String {
        String::from_utf8_lossy(&self.host).into_owned()
    }

    /// The merge engine on two `url.URL` structs (reached through two non-nil pointers): each
    /// string component of `right` replaces the left one unless empty, the two booleans are
    /// always copied, and two set `User`s fail (unexported fields). The error text starts at
    /// the URL level (`merge field url.URL.User: ...`); callers prefix their own fields.
    pub(crate) fn merge_components(&mut self, right: &GoUrl) -> Result<(), String> {
        fn take(l: &mut Vec<u8>, r: &[u8]) {
            if !r.is_empty() {
                *l = r.to_vec();
            }
        }
        take(&mut self.scheme, &right.scheme);
        take(&mut self.opaque, &right.opaque);
        match (&self.user, &right.user) {
            (_, None) => {}
            (None, Some(r)) => self.user = Some(r.clone()),
            (Some(l), Some(_)) => {
                return Err(format!(
                    "merge field url.URL.User: merge field url.Userinfo.username: merge not possible, left {} is not settable",
                    String::from_utf8_lossy(&l.username)
                ));
            }
        }
        take(&mut self.host, &right.host);
        take(&mut self.path, &right.path);
        take(&mut self.raw_path, &right.raw_path);
        self.omit_host = right.omit_host;
        self.force_query = right.force_query;
        take(&mut self.raw_query, &right.raw_query);
        take(&mut self.fragment, &right.fragment);
        take(&mut self.raw_fragment, &right.raw_fragment);
        Ok(())
    }
}

impl std::fmt::Display for GoUrl {
    /// Go's `URL.String`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut buf = String::new();
        if !self.scheme.is_empty() {
            buf.push_str(&String::from_utf8_lossy(&self.scheme));
            buf.push(':');
        }
        if !self.opaque.is_empty() {
            buf.push_str(&String::from_utf8_lossy(&self.opaque));
        } else {
            if !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some() {
                if self.omit_host && self.host.is_empty() && self.user.is_none() {
                    // empty host omitted
                } else {
                    if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                        buf.push_str("//");
                    }
                    if let Some(ui) = &self.user {
                        buf.push_str(&ui.encoded());
                        buf.push('@');
                    }
                    if !self.host.is_empty() {
                        buf.push_str(&escape(&self.host, Mode::Host));
                    }
                }
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                buf.push('/');
            }
            if buf.is_empty() {
                let segment = path.split('/').next().unwrap_or("");
                if segment.contains(':') {
                    buf.push_str("./");
                }
            }
            buf.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push('?');
            buf.push_str(&String::from_utf8_lossy(&self.raw_query));
        }
        if !self.fragment.is_empty() {
            buf.push('#');
            buf.push_str(&self.escaped_fragment());
        }
        f.write_str(&buf)
    }
}

/// A Go `url.URL` decoded from a string scalar with `url.Parse` (errors are construct errors at
/// the scalar's line) and printed with `URL.String`. Merged component by component.
impl Value for GoUrl {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "url.URL".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return GoUrl::default();
        }
        let text = String::decode(node, cx);
        match GoUrl::parse(&text) {
            Ok(u) => u,
            Err(e) => {
                cx.error(node, e);
                GoUrl::default()
            }
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.to_string())
    }

    fn is_empty(&self) -> bool {
        *self == GoUrl::default()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        self.merge_components(right)
    }

    fn match_text(&self) -> Option<String> {
        Some(self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(s: &str) -> String {
        GoUrl::parse(s).map(|u| u.to_string()).unwrap_or_else(|e| e)
    }

    #[test]
    fn parse_and_print_like_go() {
        assert_eq!(rt("https://10.0.0.1:6443"), "https://10.0.0.1:6443");
        assert_eq!(rt("https://127.0.0.1:6643/"), "https://127.0.0.1:6643/");
        assert_eq!(rt("HTTPS://Example.COM/a b?x=1#f g"), "https://Example.COM/a%20b?x=1#f%20g");
        assert_eq!(rt("tcp://[fe80::1%25en0]:80/"), "tcp://[fe80::1%25en0]:80/");
        assert_eq!(rt("udp://user:p%40ss@host:1/p%2Fq"), "udp://user:p%40ss@host:1/p%2Fq");
        assert_eq!(rt("mailto:a@b"), "mailto:a@b");
        assert_eq!(rt("file:///etc/x"), "file:///etc/x");
        assert_eq!(rt("a?"), "a?");
        assert_eq!(rt(""), "");
        assert_eq!(rt("*"), "*");
        assert_eq!(rt("/x:y"), "/x:y");
        assert_eq!(rt("https://h/%zz"), "parse \"https://h/%zz\": invalid URL escape \"%zz\"");
        assert_eq!(rt("https://h:ab"), "parse \"https://h:ab\": invalid port \":ab\" after host");
        assert_eq!(rt(":foo"), "parse \":foo\": missing protocol scheme");
        assert_eq!(rt("a:b/c"), "a:b/c");
        assert_eq!(rt("x:y/z".trim_start_matches('x')), "parse \":y/z\": missing protocol scheme");
        assert_eq!(rt("1a:b"), "parse \"1a:b\": first path segment in URL cannot contain colon");
        assert_eq!(rt("http://a b"), "parse \"http://a b\": invalid character \" \" in host name");
        assert_eq!(rt("http://x\n"), "parse \"http://x\\n\": net/url: invalid control character in URL");
    }

    #[test]
    fn merge_components_like_talos() {
        let mut l = GoUrl::parse("https://127.0.0.1:6643/").unwrap();
        l.merge_components(&GoUrl::parse("https://10.0.0.1").unwrap()).unwrap();
        assert_eq!(l.to_string(), "https://10.0.0.1/");
        let mut l = GoUrl::parse("https://10.0.0.2:6443").unwrap();
        l.merge_components(&GoUrl::parse("https://10.0.0.3").unwrap()).unwrap();
        assert_eq!(l.to_string(), "https://10.0.0.3");
        let mut l = GoUrl::parse("https://a/join?jointoken=secret&user=alice").unwrap();
        l.merge_components(&GoUrl::parse("https://a/join?jointoken=secret&user=bob").unwrap()).unwrap();
        assert_eq!(l.to_string(), "https://a/join?jointoken=secret&user=bob");
        let mut l = GoUrl::parse("https://alice@a/").unwrap();
        let e = l.merge_components(&GoUrl::parse("https://bob@b/").unwrap()).unwrap_err();
        assert_eq!(
            e,
            "merge field url.URL.User: merge field url.Userinfo.username: merge not possible, left alice is not settable"
        );
    }
}
