//! CIDR prefixes as Go's `net/netip.ParsePrefix` parses them, and overlap checks.
//!
//! **Talos itself never checks pod/service subnets** (docs/validation.md §6): `cluster.network.podSubnets`
//! and `serviceSubnets` are not parsed, not family-checked and not compared with anything when
//! a config is validated; a bad service subnet only breaks a controller at runtime, and the only
//! "overlap" logic in Talos is a runtime diagnostic (`address-overlap`) that never rejects a
//! config. Comparing subnets ([`overlaps`], and the config-level check in the `subnets` module)
//! is therefore an **addition to Talos**, kept out of validation.
//!
//! Parsing follows Go (`netip.ParsePrefix`, the parser Talos uses wherever it reads a prefix),
//! including its error texts: the `/` is required, IPv4 octets have no leading zeros, the prefix
//! length is decimal without sign or leading zeros, IPv6 zones are refused, and host bits may be
//! set (the address is kept as written; [`Prefix::masked`] clears them). The parsed prefix is
//! stored with the `ipnetwork` crate, which stays an implementation detail; that crate's own
//! parser is more lenient (no `/` means a host route, netmask notation, `+8` or `08` lengths)
//! and is not used.
//!
//! ```
//! use talos_config::net::{Prefix, overlaps};
//!
//! let pods: Prefix = "10.244.0.0/16".parse()?;
//! let host: Prefix = "10.244.7.0/24".parse()?;
//! assert!(overlaps(&pods, &host));
//! assert_eq!(
//!     "10.244.0.0".parse::<Prefix>().unwrap_err().to_string(),
//!     r#"netip.ParsePrefix("10.244.0.0"): no '/'"#
//! );
//! # Ok::<(), talos_config::Error>(())
//! ```

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use ipnetwork::IpNetwork;

use crate::gofmt::quote;

/// An IP prefix (CIDR) as Go's `netip.Prefix` holds it: an address, kept exactly as written
/// (host bits included), and a prefix length. An IPv4-mapped IPv6 address (`::ffff:10.0.0.0`)
/// stays IPv6, as in Go.
///
/// `Display` prints it as Go's `Prefix.String` does (`10.0.0.1/8`, `2001:db8::/32`,
/// `::ffff:10.0.0.0/104`).
///
/// ```
/// use talos_config::net::Prefix;
///
/// let p: Prefix = "10.1.2.3/8".parse()?;
/// assert_eq!(p.to_string(), "10.1.2.3/8");
/// assert_eq!(p.masked().to_string(), "10.0.0.0/8");
/// assert_eq!(p.bits(), 8);
/// assert!(p.is_ipv4());
/// # Ok::<(), talos_config::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Prefix(IpNetwork);

impl Prefix {
    /// Builds a prefix from an address and a length; `None` when the length is longer than the
    /// address (32 for IPv4, 128 for IPv6). Like Go's `PrefixFrom`, host bits are kept.
    ///
    /// ```
    /// use std::net::{IpAddr, Ipv4Addr};
    /// use talos_config::net::Prefix;
    ///
    /// let p = Prefix::new(IpAddr::V4(Ipv4Addr::new(10, 96, 0, 0)), 12).unwrap();
    /// assert_eq!(p.to_string(), "10.96.0.0/12");
    /// assert!(Prefix::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 33).is_none());
    /// ```
    pub fn new(addr: IpAddr, bits: u8) -> Option<Prefix> {
        IpNetwork::new(addr, bits).ok().map(Prefix)
    }

    /// The address as written (Go `Prefix.Addr`).
    ///
    /// ```
    /// let p: talos_config::net::Prefix = "192.168.1.7/24".parse()?;
    /// assert_eq!(p.addr().to_string(), "192.168.1.7");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn addr(&self) -> IpAddr {
        self.0.ip()
    }

    /// The prefix length (Go `Prefix.Bits`).
    ///
    /// ```
    /// assert_eq!("fd00::/8".parse::<talos_config::net::Prefix>()?.bits(), 8);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn bits(&self) -> u8 {
        self.0.prefix()
    }

    /// Whether this is an IPv4 prefix (Go `Addr.Is4`: an IPv4-mapped IPv6 address is IPv6).
    ///
    /// ```
    /// use talos_config::net::Prefix;
    ///
    /// assert!("10.0.0.0/8".parse::<Prefix>()?.is_ipv4());
    /// assert!(!"::ffff:10.0.0.0/104".parse::<Prefix>()?.is_ipv4());
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn is_ipv4(&self) -> bool {
        self.0.is_ipv4()
    }

    /// The prefix with its host bits cleared (Go `Prefix.Masked`).
    ///
    /// ```
    /// let p: talos_config::net::Prefix = "2001:db8::1/32".parse()?;
    /// assert_eq!(p.masked().to_string(), "2001:db8::/32");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn masked(&self) -> Prefix {
        match IpNetwork::new(self.0.network(), self.0.prefix()) {
            Ok(net) => Prefix(net),
            // Unreachable: the length was valid for this family already.
            Err(_) => *self,
        }
    }

    /// Whether the network includes `addr` (Go `Prefix.Contains`): an address of the other
    /// family never matches, not even an IPv4-mapped one.
    ///
    /// ```
    /// use std::net::IpAddr;
    ///
    /// let p: talos_config::net::Prefix = "10.96.0.0/12".parse()?;
    /// assert!(p.contains("10.111.255.255".parse::<IpAddr>().unwrap()));
    /// assert!(!p.contains("10.112.0.0".parse::<IpAddr>().unwrap()));
    /// assert!(!p.contains("::ffff:10.96.0.1".parse::<IpAddr>().unwrap()));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn contains(&self, addr: IpAddr) -> bool {
        self.0.contains(addr)
    }
}

impl fmt::Display for Prefix {
    /// Go's `Prefix.String`: the address as written, `/`, the length. IPv6 is printed in
    /// RFC 5952 form (lowercase, longest run of two or more zero groups as `::`, the first on a
    /// tie) and an IPv4-mapped address as `::ffff:a.b.c.d`, which is what Rust's
    /// [`Ipv6Addr`] `Display` produces too.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0.ip(), self.0.prefix())
    }
}

impl FromStr for Prefix {
    type Err = crate::Error;

    /// Parses a CIDR prefix exactly as Go's `netip.ParsePrefix` does; the error (kind
    /// [`InvalidValue`](crate::ErrorKind::InvalidValue)) is Go's text
    /// (`netip.ParsePrefix("<s>"): <reason>`, where an address error reads
    /// `ParseAddr("<addr>"): <reason>[ (at "<rest>")]`).
    ///
    /// ```
    /// use talos_config::net::Prefix;
    ///
    /// let err = |s: &str| s.parse::<Prefix>().unwrap_err().to_string();
    /// assert_eq!("10.96.0.0/12".parse::<Prefix>()?.to_string(), "10.96.0.0/12");
    /// assert_eq!("10.96.0.1/12".parse::<Prefix>()?.to_string(), "10.96.0.1/12"); // host bits kept
    /// assert_eq!(err("x"), r#"netip.ParsePrefix("x"): no '/'"#);
    /// assert_eq!(
    ///     err("10.096.0.0/12"),
    ///     r#"netip.ParsePrefix("10.096.0.0/12"): ParseAddr("10.096.0.0"): IPv4 field has octet with leading zero"#
    /// );
    /// assert_eq!(err("10.0.0.0/08"), r#"netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#);
    /// assert_eq!(err("10.0.0.0/33"), r#"netip.ParsePrefix("10.0.0.0/33"): prefix length out of range"#);
    /// assert_eq!(
    ///     err("fe80::1%eth0/64"),
    ///     r#"netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix"#
    /// );
    /// assert_eq!("x".parse::<Prefix>().unwrap_err().kind(), talos_config::ErrorKind::InvalidValue);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Prefix, crate::Error> {
        parse_prefix(s).map_err(crate::Error::invalid_value)
    }
}

/// Parses a CIDR prefix exactly as Go's `netip.ParsePrefix` does, with Go's error texts
/// (`netip.ParsePrefix("<s>"): <reason>`, where an address error reads
/// `ParseAddr("<addr>"): <reason>[ (at "<rest>")]`). The engine's form of [`Prefix`]'s
/// `FromStr`, whose examples show the texts.
pub(crate) fn parse_prefix(s: &str) -> Result<Prefix, String> {
    let fail = |msg: &str| format!("netip.ParsePrefix({}): {msg}", quote(s));
    let Some(slash) = s.rfind('/') else {
        return Err(fail("no '/'"));
    };
    let (addr, zone) = parse_addr(&s[..slash]).map_err(|e| fail(&e))?;
    if !zone.is_empty() {
        return Err(fail("IPv6 zones cannot be present in a prefix"));
    }
    let bits_str = &s[slash + 1..];
    let bad_bits = || fail(&format!("bad bits after slash: {}", quote(bits_str)));
    // Go refuses a sign or leading zero explicitly, then uses strconv.Atoi. After that check,
    // Rust's integer parser accepts exactly what Atoi accepts (a lone `+`/`-` fails in both).
    if bits_str.len() > 1 && !matches!(bits_str.as_bytes()[0], b'1'..=b'9') {
        return Err(bad_bits());
    }
    let bits: i64 = bits_str.parse().map_err(|_| bad_bits())?;
    let max_bits = if addr.is_ipv4() { 32 } else { 128 };
    if !(0..=max_bits).contains(&bits) {
        return Err(fail("prefix length out of range"));
    }
    u8::try_from(bits).ok().and_then(|bits| Prefix::new(addr, bits)).ok_or_else(|| fail("prefix length out of range"))
}

/// Go's `parseAddrError` text.
fn addr_error(input: &str, msg: &str, at: &str) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {msg}", quote(input))
    } else {
        format!("ParseAddr({}): {msg} (at {})", quote(input), quote(at))
    }
}

/// Go's `netip.ParseAddr`, with its error texts (`ParseAddr("<s>"): <reason>[ (at "<rest>")]`):
/// the family is chosen by the first `.`, `:` or `%`. Returns the address and its IPv6 zone
/// (`""` when none). The crate's one implementation: the network documents' `netip.Addr`
/// (the network documents' `IpAddr` type) and the v1alpha1 checks read addresses with it.
pub(crate) fn parse_addr(s: &str) -> Result<(IpAddr, &str), String> {
    match s.bytes().find(|b| matches!(b, b'.' | b':' | b'%')) {
        Some(b'.') => parse_ipv4_fields(s, s).map(|o| (IpAddr::V4(Ipv4Addr::from(o)), "")),
        Some(b':') => parse_ipv6(s),
        Some(_) => Err(addr_error(s, "missing IPv6 address", "")),
        None => Err(addr_error(s, "unable to parse IP", "")),
    }
}

/// Dotted-quad IPv4 (`s`, a suffix of `input`, which errors name), Go's rules: exactly four
/// decimal fields of 0..=255, no leading zeros, nothing else.
fn parse_ipv4_fields(input: &str, s: &str) -> Result<[u8; 4], String> {
    let b = s.as_bytes();
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0usize);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return Err(addr_error(input, "IPv4 field has octet with leading zero", ""));
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return Err(addr_error(input, "IPv4 field has value >255", ""));
                }
            }
            b'.' => {
                if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                    return Err(addr_error(input, "IPv4 field must have at least one digit", &s[i..]));
                }
                if pos == 3 {
                    return Err(addr_error(input, "IPv4 address too long", ""));
                }
                fields[pos] = val as u8; // val <= 255 checked above
                pos += 1;
                val = 0;
                digits = 0;
            }
            // `i` is a char boundary: every byte before it is ASCII.
            _ => return Err(addr_error(input, "unexpected character", &s[i..])),
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", ""));
    }
    fields[3] = val as u8;
    Ok(fields)
}

/// Go's IPv6 parser: up to eight groups of at most four hex digits, one `::`, an optional
/// embedded IPv4 in the last 32 bits, an optional `%zone` (non-empty).
fn parse_ipv6(input: &str) -> Result<(IpAddr, &str), String> {
    let (mut s, zone) = split_zone(input)?;
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if let Some(rest) = s.strip_prefix("::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Ok((IpAddr::V6(Ipv6Addr::UNSPECIFIED), zone));
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let (acc, off) = hex_group(input, s)?;
        if s.as_bytes().get(off) == Some(&b'.') {
            check_embedded_ipv4_place(input, s, i, ellipsis)?;
            let v4 = parse_ipv4_fields(input, s)?;
            ip[i..i + 4].copy_from_slice(&v4);
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(input, "unexpected character, want colon", s));
        }
        if s.len() == 1 {
            return Err(addr_error(input, "colon must be followed by more characters", s));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", s));
    }
    expand_ellipsis(input, &mut ip, i, ellipsis)?;
    Ok((IpAddr::V6(Ipv6Addr::from(ip)), zone))
}

/// An IPv6 text split at its `%`: the address and the zone (`""` when none; present but empty
/// is an error).
fn split_zone(input: &str) -> Result<(&str, &str), String> {
    match input.find('%') {
        Some(i) if i + 1 == input.len() => Err(addr_error(input, "zone must be a non-empty string", "")),
        Some(i) => Ok((&input[..i], &input[i + 1..])),
        None => Ok((input, "")),
    }
}

/// The hex group at the start of `s` (a suffix of `input`, which errors name): its value and
/// its length, at least one and at most four digits.
fn hex_group(input: &str, s: &str) -> Result<(u32, usize), String> {
    let b = s.as_bytes();
    let mut off = 0usize;
    let mut acc = 0u32;
    while off < b.len() {
        let digit = match b[off] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        acc = (acc << 4) + u32::from(digit);
        if off > 3 {
            return Err(addr_error(input, "each group must have 4 or less digits", s));
        }
        if acc > 0xFFFF {
            return Err(addr_error(input, "IPv6 field has value >=2^16", s));
        }
        off += 1;
    }
    if off == 0 {
        return Err(addr_error(input, "each colon-separated field must have at least one digit", s));
    }
    Ok((acc, off))
}

/// An IPv4 address embedded at byte `i` must fill the last 32 bits: at byte 12, or anywhere
/// that still fits after a `::`.
fn check_embedded_ipv4_place(input: &str, s: &str, i: usize, ellipsis: Option<usize>) -> Result<(), String> {
    if ellipsis.is_none() && i != 12 {
        return Err(addr_error(input, "embedded IPv4 address must replace the final 2 fields of the address", s));
    }
    if i + 4 > 16 {
        return Err(addr_error(input, "too many hex fields to fit an embedded IPv4 at the end of the address", s));
    }
    Ok(())
}

/// Widens the `::` at byte `ellipsis` to the zeros that make `filled` bytes sixteen; with no
/// `::` the address must be full, with one it must stand for at least one group.
fn expand_ellipsis(input: &str, ip: &mut [u8; 16], filled: usize, ellipsis: Option<usize>) -> Result<(), String> {
    if filled < 16 {
        let Some(at) = ellipsis else {
            return Err(addr_error(input, "address string too short", ""));
        };
        let n = 16 - filled;
        ip.copy_within(at..filled, at + n);
        ip[at..at + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(addr_error(input, "the :: must expand to at least one field of zeros", ""));
    }
    Ok(())
}

/// Whether two prefixes share any address: same family (an IPv4-mapped IPv6 prefix is IPv6)
/// and one contains the other's masked network address. This is Go's `Prefix.Overlaps`;
/// it is symmetric and ignores host bits.
///
/// ```
/// use talos_config::net::{Prefix, overlaps};
///
/// let p = |s: &str| s.parse::<Prefix>().unwrap();
/// assert!(overlaps(&p("10.96.0.0/12"), &p("10.100.0.0/16")));
/// assert!(overlaps(&p("10.100.0.0/16"), &p("10.96.0.0/12")));
/// assert!(!overlaps(&p("10.244.0.0/16"), &p("10.96.0.0/12")));
/// assert!(!overlaps(&p("0.0.0.0/0"), &p("::/0"))); // different families
/// assert!(overlaps(&p("10.0.0.77/24"), &p("10.0.0.200/30"))); // host bits do not matter
/// ```
pub fn overlaps(a: &Prefix, b: &Prefix) -> bool {
    a.is_ipv4() == b.is_ipv4() && (a.contains(b.0.network()) || b.contains(a.0.network()))
}
