//! The Go parsers Talos's v1alpha1 checks lean on, reproduced for their accept/reject
//! behaviour and (where a message shows it) their error texts: `net/netip.ParseAddr` and
//! `ParsePrefix` (from [`crate::net`], the crate's one implementation), `net.ParseIP` and
//! `net.ParseCIDR` (both on top of `netip.ParseAddr`, as in Go), siderolabs/net
//! `ParseSubnetOrAddress` and `ValidateEndpointURI` / `AddressContainsPort`,
//! `net/url.ParseRequestURI`, Talos's DNS-name rule, and blang/semver `ParseTolerant`.

use crate::gofmt::quote_bytes as go_quote;
use crate::value::url::GoUrl;

/// What `netip.ParseAddr` found: the address length in bits and whether a zone was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Addr {
    pub bits: u32,
    pub zone: bool,
}

/// `netip.ParseAddr` ([`crate::net`]'s parser).
pub(crate) fn parse_addr(s: &str) -> Option<Addr> {
    let (addr, zone) = crate::net::parse_addr(s).ok()?;
    Some(Addr { bits: if addr.is_ipv4() { 32 } else { 128 }, zone: !zone.is_empty() })
}

/// `netip.ParsePrefix` succeeds ([`crate::net::parse_prefix`]).
pub(crate) fn parse_prefix_ok(s: &str) -> bool {
    crate::net::parse_prefix(s).is_ok()
}

/// siderolabs/net `ParseSubnetOrAddress` succeeds (a prefix, or a bare address).
pub(crate) fn subnet_or_address_ok(s: &str) -> bool {
    parse_prefix_ok(s) || parse_addr(s).is_some()
}

/// `net.ParseIP` succeeds (no zone allowed).
pub(crate) fn parse_ip_ok(s: &str) -> bool {
    parse_addr(s).is_some_and(|a| !a.zone)
}

/// `net.ParseCIDR` succeeds.
pub(crate) fn parse_cidr_ok(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else {
        return false;
    };
    let Some(a) = parse_addr(addr).filter(|a| !a.zone) else {
        return false;
    };
    // dtoi: decimal digits only (leading zeros allowed, no sign), failing once the value
    // reaches 0xFFFFFF; then the whole mask must have been read.
    if mask.is_empty() {
        return false;
    }
    let mut n: u32 = 0;
    for b in mask.bytes() {
        if !b.is_ascii_digit() {
            return false;
        }
        n = n * 10 + u32::from(b - b'0');
        if n >= 0xFF_FFFF {
            return false;
        }
    }
    n <= a.bits
}

/// Talos's `validateIPOrCIDR`: `net.ParseCIDR` when the text has a `/`, else `net.ParseIP`.
pub(crate) fn validate_ip_or_cidr(s: &str) -> Result<(), String> {
    if s.contains('/') {
        if parse_cidr_ok(s) { Ok(()) } else { Err(format!("invalid CIDR address: {s}")) }
    } else if parse_ip_ok(s) {
        Ok(())
    } else {
        Err(format!("failed to parse IP address {}", go_quote(s.as_bytes())))
    }
}

/// Go's `net.SplitHostPort` succeeds (only whether it does, not the parts' errors).
fn split_host_port(hostport: &str) -> Option<(&str, &str)> {
    let i = hostport.rfind(':')?;
    let (host, port) = if hostport.starts_with('[') {
        let end = hostport.find(']')?;
        if end + 1 == hostport.len() || end + 1 != i {
            return None;
        }
        let host = &hostport[1..end];
        if hostport.strip_prefix('[').is_some_and(|r| r.contains('[')) || hostport[end + 1..].contains(']') {
            return None;
        }
        (host, &hostport[i + 1..])
    } else {
        let host = &hostport[..i];
        if host.contains(':') || hostport.contains('[') || hostport.contains(']') {
            return None;
        }
        (host, &hostport[i + 1..])
    };
    Some((host, port))
}

/// siderolabs/net `AddressContainsPort`.
pub(crate) fn address_contains_port(addr: &str) -> bool {
    match split_host_port(addr) {
        None => false,
        Some((host, _)) => !host.contains(':') || parse_addr(host).is_some(),
    }
}

/// Go's `URL.Hostname` and `URL.Port` on a host text.
fn split_url_host(host: &str) -> (&str, &str) {
    let mut h = host;
    let mut port = "";
    if let Some(colon) = host.rfind(':') {
        let p = &host[colon + 1..];
        if p.bytes().all(|b| b.is_ascii_digit()) {
            h = &host[..colon];
            port = p;
        }
    }
    if h.starts_with('[') && h.ends_with(']') && h.len() >= 2 {
        h = &h[1..h.len() - 1];
    }
    (h, port)
}

/// The checks of siderolabs/net `ValidateEndpointURI` on a parsed URL.
fn validate_endpoint_url(u: &GoUrl) -> Result<(), String> {
    let host = u.host_str();
    if host.matches(':').count() > 2 && (!host.contains('[') || !host.contains(']')) {
        return Err("IPv6 addresses MUST be enclosed by square brackets".into());
    }
    let (hostname, port) = split_url_host(&host);
    if hostname.is_empty() {
        return Err("hostname must not be blank".into());
    }
    if !port.is_empty() {
        return match port.parse::<i64>() {
            Err(_) => Err("port number must be numeric".into()),
            Ok(p) if !(1..=65535).contains(&p) => Err("port number must be between 1 and 65535".into()),
            Ok(_) => Ok(()),
        };
    }
    Ok(())
}

/// siderolabs/net `ValidateEndpointURI`: `url.Parse`, then bracketed IPv6, a non-blank host
/// and a port in range.
pub(crate) fn validate_endpoint_uri(ep: &str) -> Result<(), String> {
    validate_endpoint_url(&GoUrl::parse(ep)?)
}

/// `url.ParseRequestURI`, returning the URL's `Path`; the error is Go's `*url.Error` text.
pub(crate) fn parse_request_uri_path(raw: &str) -> Result<Vec<u8>, String> {
    let wrap = |e: &str| format!("parse {}: {e}", go_quote(raw.as_bytes()));
    let bytes = raw.as_bytes();
    if bytes.iter().any(|&b| b < 0x20 || b == 0x7f) {
        return Err(wrap("net/url: invalid control character in URL"));
    }
    if raw.is_empty() {
        return Err(wrap("empty url"));
    }
    if raw == "*" {
        return Ok(b"*".to_vec());
    }
    // getScheme
    let mut scheme_end = None;
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err(wrap("missing protocol scheme")),
            b':' => {
                scheme_end = Some(i);
                break;
            }
            _ => break,
        }
    }
    let rest = match scheme_end {
        Some(i) => &raw[i + 1..],
        None => raw,
    };
    let rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        &rest[..rest.len() - 1]
    } else {
        rest.split_once('?').map_or(rest, |(a, _)| a)
    };
    if !rest.starts_with('/') {
        if scheme_end.is_some() {
            return Ok(Vec::new());
        }
        return Err(wrap("invalid URI for request"));
    }
    if scheme_end.is_some() && rest.starts_with("//") {
        // The authority form: `url.Parse` agrees once a `#` cannot start a fragment.
        let escaped = raw.replace('#', "%23");
        return match GoUrl::parse(&escaped) {
            Ok(u) => Ok(u.path),
            Err(e) => {
                let prefix = format!("parse {}: ", go_quote(escaped.as_bytes()));
                Err(wrap(e.strip_prefix(&prefix).unwrap_or(&e)))
            }
        };
    }
    unescape_path(rest).map_err(|e| wrap(&e))
}

fn unescape_path(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                let end = (i + 3).min(b.len());
                return Err(format!("invalid URL escape {}", go_quote(&b[i..end])));
            }
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// Talos's `isValidDNSName` (regex
/// `^([a-zA-Z0-9_]{1}[a-zA-Z0-9_-]{0,62}){1}(\.[a-zA-Z0-9_]{1}[a-zA-Z0-9_-]{0,62})*[\._]?$` and
/// at most 255 bytes not counting dots).
pub(crate) fn is_valid_dns_name(name: &str) -> bool {
    if name.is_empty() || name.len() - name.matches('.').count() > 255 {
        return false;
    }
    fn labels_ok(s: &str) -> bool {
        !s.is_empty()
            && s.split('.').all(|l| {
                let b = l.as_bytes();
                !b.is_empty()
                    && b.len() <= 63
                    && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
                    && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
            })
    }
    if labels_ok(name) {
        return true;
    }
    match name.as_bytes().last() {
        Some(b'.') | Some(b'_') => labels_ok(&name[..name.len() - 1]),
        _ => false,
    }
}

/// A version as blang/semver v4 parses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SemVer {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pre: Vec<String>,
    build: Vec<String>,
}

impl std::fmt::Display for SemVer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

fn parse_u64(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!("strconv.ParseUint: parsing {}: invalid syntax", go_quote(s.as_bytes())));
    }
    s.parse::<u64>().map_err(|_| format!("strconv.ParseUint: parsing {}: value out of range", go_quote(s.as_bytes())))
}

fn only(s: &str, extra: &str) -> bool {
    s.chars().all(|c| c.is_ascii_digit() || extra.contains(c))
}

const LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-";

fn number_part(s: &str, what: &str) -> Result<u64, String> {
    let q = go_quote(s.as_bytes());
    if !only(s, "") {
        return Err(format!("Invalid character(s) found in {what} number {q}"));
    }
    if s.len() > 1 && s.starts_with('0') {
        let cap = format!("{}{}", what[..1].to_uppercase(), &what[1..]);
        return Err(format!("{cap} number must not contain leading zeroes {q}"));
    }
    parse_u64(s)
}

/// blang/semver `Parse`.
fn semver_parse(s: &str) -> Result<SemVer, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    if parts.len() != 3 {
        return Err("No Major.Minor.Patch elements found".into());
    }
    let major = number_part(parts[0], "major")?;
    let minor = number_part(parts[1], "minor")?;
    let mut patch_str = parts[2];
    let mut build = Vec::new();
    let mut pre = Vec::new();
    if let Some(i) = patch_str.find('+') {
        build = patch_str[i + 1..].split('.').map(str::to_string).collect();
        patch_str = &patch_str[..i];
    }
    if let Some(i) = patch_str.find('-') {
        pre = patch_str[i + 1..].split('.').map(str::to_string).collect();
        patch_str = &patch_str[..i];
    }
    let patch = number_part(patch_str, "patch")?;
    for p in &pre {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if only(p, "") {
            if p.len() > 1 && p.starts_with('0') {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p.as_bytes())
                ));
            }
            parse_u64(p)?;
        } else if !only(p, LETTERS) {
            return Err(format!("Invalid character(s) found in prerelease {}", go_quote(p.as_bytes())));
        }
    }
    for b in &build {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !only(b, LETTERS) {
            return Err(format!("Invalid character(s) found in build meta data {}", go_quote(b.as_bytes())));
        }
    }
    Ok(SemVer { major, minor, patch, pre, build })
}

/// blang/semver `ParseTolerant`.
pub(crate) fn semver_parse_tolerant(s: &str) -> Result<SemVer, String> {
    let s = s.trim_matches(|c: char| c.is_whitespace());
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in &mut parts {
        if p.len() > 1 {
            let mut t = p.trim_start_matches('0').to_string();
            if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_digit()) {
                t.insert(0, '0');
            }
            *p = t;
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("Short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    semver_parse(&parts.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_like_netip() {
        for ok in ["10.0.0.1", "::", "::1", "fd00::169:254:2:53", "::ffff:1.2.3.4", "fe80::1%eth0", "1:2:3:4:5:6:7:8"] {
            assert!(parse_addr(ok).is_some(), "{ok}");
        }
        for bad in ["10", "1234:", "10.0.0.0.3", "01.2.3.4", "1.2.3.256", "", "1:2:3:4:5:6:7:8:9", "1::2::3", "::1%"] {
            assert!(parse_addr(bad).is_none(), "{bad}");
        }
        assert!(parse_prefix_ok("10.0.0.0/8"));
        assert!(!parse_prefix_ok("10.0.0.0/08"));
        assert!(!parse_prefix_ok("123::/456"));
        assert!(!parse_prefix_ok("invalid"));
        assert!(parse_cidr_ok("10.0.0.0/08"));
        assert!(!parse_cidr_ok("10.3.x/24"));
        assert!(parse_cidr_ok("10.0.0.0/000000032"));
        assert!(!parse_cidr_ok("10.0.0.0/33"));
        assert!(!parse_cidr_ok("10.0.0.0/+8"));
        assert!(!parse_cidr_ok("10.0.0.0/"));
        assert!(!parse_cidr_ok("10.0.0.0/99999999999"));
        assert!(parse_cidr_ok("::ffff:10.0.0.0/128"));
        assert!(!parse_cidr_ok("fe80::1%eth0/64"));
        assert!(!parse_prefix_ok("1:2:3:4:5:6:7:8::/64"));
        assert_eq!(parse_addr("fe80::1%eth0"), Some(Addr { bits: 128, zone: true }));
        assert_eq!(parse_addr("::ffff:1.2.3.4"), Some(Addr { bits: 128, zone: false }));
        assert_eq!(parse_addr("1.2.3.4"), Some(Addr { bits: 32, zone: false }));
        assert!(subnet_or_address_ok("1.1.1.1"));
        assert!(!subnet_or_address_ok("[fd00::169:254:2:53]:344"));
    }

    #[test]
    fn dns_names() {
        assert!(is_valid_dns_name("cluster.local"));
        assert!(is_valid_dns_name("cluster.local."));
        assert!(is_valid_dns_name("a_"));
        assert!(!is_valid_dns_name("-a"));
        assert!(!is_valid_dns_name("a..b"));
        assert!(!is_valid_dns_name("."));
        assert!(!is_valid_dns_name(&"a".repeat(64)));
        assert!(is_valid_dns_name(&format!("{}_", "a".repeat(63))));
    }

    #[test]
    fn request_uris() {
        assert_eq!(parse_request_uri_path("foo").unwrap_err(), "parse \"foo\": invalid URI for request");
        assert_eq!(parse_request_uri_path("https://discovery.talos.dev/").unwrap(), b"/");
        assert_eq!(parse_request_uri_path("https://x/a#b").unwrap(), b"/a#b");
        assert_eq!(parse_request_uri_path("/%zz").unwrap_err(), "parse \"/%zz\": invalid URL escape \"%zz\"");
    }

    #[test]
    fn semver_tolerant() {
        assert_eq!(semver_parse_tolerant("1.32.2").unwrap().to_string(), "1.32.2");
        assert_eq!(semver_parse_tolerant("v1.24").unwrap().to_string(), "1.24.0");
        assert_eq!(semver_parse_tolerant("1.36.0-rc.1").unwrap().to_string(), "1.36.0-rc.1");
        assert_eq!(
            semver_parse_tolerant("latest").unwrap_err(),
            "Invalid character(s) found in major number \"0latest\""
        );
    }

    #[test]
    fn endpoints() {
        assert_eq!(validate_endpoint_uri("/manifest.yaml").unwrap_err(), "hostname must not be blank");
        assert_eq!(validate_endpoint_uri("https://host:0").unwrap_err(), "port number must be between 1 and 65535");
        assert!(validate_endpoint_uri("https://localhost:6443/").is_ok());
        assert!(address_contains_port("12.3.4.5:51820"));
        assert!(address_contains_port("[fd00::1]:51820"));
        assert!(!address_contains_port("12.3.4.5"));
    }
}
