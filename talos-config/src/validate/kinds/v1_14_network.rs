//! Network kinds new in v1.14: `BGPInstanceConfig`, `HTTPProbeConfig` and `VethConfig`.

use std::collections::HashSet;

use super::network::{common_link, common_probe};
use super::{err, errors};
use crate::gofmt::quote;
use crate::model::network::types::{IpAddr, IpPrefix};
use crate::model::network::{BgpImportRoute, BgpInstanceConfig, BgpNeighborConfig, HttpProbeConfig, VethConfig};
use crate::validate::{Context, Findings, Issue, Validate};

/// An address as Go's 128-bit form and its bit length (32 or 128).
fn addr_bits(a: &IpAddr) -> Option<(u128, u8)> {
    match a {
        IpAddr::V4(b) => Some((u128::from(u32::from_be_bytes(*b)), 32)),
        IpAddr::V6(b, _) => Some((u128::from_be_bytes(*b), 128)),
        IpAddr::Invalid => None,
    }
}

/// A valid prefix's network bits, length and bit length.
fn prefix_bits(p: &IpPrefix) -> Option<(u128, u8, u8)> {
    let (bits, len) = addr_bits(&p.addr)?;
    (p.bits <= len).then_some((bits, p.bits, len))
}

fn mask(bits: u128, prefix: u8, len: u8) -> u128 {
    let host = u32::from(len - prefix);
    if host >= 128 { 0 } else { bits & !((1u128 << host) - 1) }
}

/// Go's `p == p.Masked()` for a valid prefix.
fn is_masked(p: &IpPrefix) -> bool {
    prefix_bits(p).is_some_and(|(b, n, l)| mask(b, n, l) == b)
}

/// Upstream's overlap test: same family, and either prefix contains the other's address.
fn overlaps(a: &IpPrefix, b: &IpPrefix) -> bool {
    let (Some((ab, an, al)), Some((bb, bn, bl))) = (prefix_bits(a), prefix_bits(b)) else {
        return false;
    };
    al == bl && (mask(bb, an, al) == mask(ab, an, al) || mask(ab, bn, bl) == mask(bb, bn, bl))
}

/// The neighbor's identity (its address or link), or the error when not exactly one is set.
fn neighbor_key(i: usize, n: &BgpNeighborConfig) -> Result<String, Issue> {
    let has_address = n.address.0.is_valid();
    if has_address != n.link.is_empty() {
        return Err(err(
            format!("neighbor[{i}]: exactly one of address or link must be set"),
            &format!("neighbors[{i}]"),
        ));
    }
    Ok(if has_address { n.address.0.go_string() } else { n.link.clone() })
}

fn neighbor_behaviour(i: usize, n: &BgpNeighborConfig, vrf: &str, out: &mut Vec<Issue>) {
    let path = format!("neighbors[{i}]");
    if n.hold_time.nanos < 0 {
        out.push(err(format!("neighbor[{i}]: holdTime must not be negative"), &path));
    }
    let Some(bfd) = &n.bfd else { return };
    if !vrf.is_empty() {
        out.push(err(format!("neighbor[{i}]: bfd is not supported for VRF-bound BGP instances"), &path));
    }
    if bfd.transmit_interval.nanos < 0 {
        out.push(err(format!("neighbor[{i}]: bfd.transmitInterval must not be negative"), &path));
    }
    if bfd.receive_interval.nanos < 0 {
        out.push(err(format!("neighbor[{i}]: bfd.receiveInterval must not be negative"), &path));
    }
}

fn import_prefixes(i: usize, route: &BgpImportRoute, out: &mut Vec<Issue>) {
    let path = format!("importRoutes[{i}].prefixes");
    if route.prefixes.is_empty() {
        out.push(err(format!("importRoutes[{i}]: at least one prefix must be specified"), &path));
    }
    for (j, p) in route.prefixes.iter().enumerate() {
        let p = &p.0;
        if prefix_bits(p).is_none() {
            out.push(err(format!("importRoutes[{i}].prefixes[{j}]: invalid prefix"), &path));
            continue;
        }
        if !is_masked(p) {
            out.push(err(format!("importRoutes[{i}].prefixes[{j}]: prefix {} must be masked", p.go_string()), &path));
        }
        for (k, other) in route.prefixes[..j].iter().enumerate() {
            if overlaps(&other.0, p) {
                let (mine, theirs) = (p.go_string(), other.0.go_string());
                out.push(err(
                    format!("importRoutes[{i}].prefixes[{j}]: prefix {mine} overlaps prefixes[{k}] {theirs}"),
                    &path,
                ));
            }
        }
    }
}

fn import_route(i: usize, instance: &str, route: &BgpImportRoute, out: &mut Vec<Issue>) {
    let path = format!("importRoutes[{i}].bgpInstance");
    if route.bgp_instance.is_empty() {
        out.push(err(format!("importRoutes[{i}]: bgpInstance must be specified"), &path));
    } else if route.bgp_instance == instance {
        out.push(err(
            format!("importRoutes[{i}]: cannot import from the same BGP instance {}", quote(instance)),
            &path,
        ));
    }
    import_prefixes(i, route, out);
}

fn import_routes(instance: &str, routes: &[BgpImportRoute], out: &mut Vec<Issue>) {
    let mut sources = HashSet::new();
    let mut selectors: Vec<(&IpPrefix, usize)> = Vec::new();
    for (i, route) in routes.iter().enumerate() {
        import_route(i, instance, route, out);
        if !route.bgp_instance.is_empty() && !sources.insert(route.bgp_instance.as_str()) {
            let text = format!("importRoutes[{i}]: duplicate source BGP instance {}", quote(&route.bgp_instance));
            out.push(err(text, &format!("importRoutes[{i}].bgpInstance")));
        }
        for p in route.prefixes.iter().map(|p| &p.0).filter(|p| is_masked(p)) {
            for (other, k) in selectors.iter().filter(|(o, k)| *k != i && overlaps(o, p)) {
                let (mine, theirs) = (p.go_string(), other.go_string());
                let text = format!("importRoutes[{i}]: prefix {mine} overlaps importRoutes[{k}] prefix {theirs}");
                out.push(err(text, &format!("importRoutes[{i}].prefixes")));
            }
            selectors.push((p, i));
        }
    }
}

impl Validate for BgpInstanceConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name must be specified", "name"));
        }
        if self.local_asn == 0 {
            out.push(err("localASN must be specified", "localASN"));
        }
        if self.router_id.0.is_valid() && !matches!(self.router_id.0, IpAddr::V4(_)) {
            out.push(err("routerID must be an IPv4 address", "routerID"));
        }
        let neighbors = self.neighbors.0.as_deref().unwrap_or_default();
        let mut warnings = Vec::new();
        if neighbors.is_empty() {
            warnings.push(err("BGPInstanceConfig has no neighbors configured", "neighbors"));
        }
        let mut seen = HashSet::new();
        for (i, n) in neighbors.iter().enumerate() {
            let key = neighbor_key(i, n);
            if let Err(e) = &key {
                out.push(e.clone());
            }
            neighbor_behaviour(i, n, &self.vrf, &mut out);
            if let Ok(key) = key
                && !seen.insert(key.clone())
            {
                out.push(err(format!("neighbor[{i}]: duplicate neighbor {}", quote(&key)), &format!("neighbors[{i}]")));
            }
        }
        import_routes(&self.name, self.import_routes.0.as_deref().unwrap_or_default(), &mut out);
        Findings { errors: out, warnings }
    }
}

impl Validate for HttpProbeConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("probe name is required", "name"));
        }
        match &self.url.0 {
            None => out.push(err("HTTP probe URL is required", "url")),
            Some(u) if !matches!(u.scheme.as_slice(), b"http" | b"https") => {
                let scheme = String::from_utf8_lossy(&u.scheme).into_owned();
                out.push(err(format!("HTTP probe URL scheme must be http or https, got {}", quote(&scheme)), "url"));
            }
            Some(u) if !u.opaque.is_empty() || u.hostname().is_empty() => {
                out.push(err("HTTP probe URL must be an absolute http or https URL with a non-empty host", "url"));
            }
            Some(_) => {}
        }
        if self.timeout.nanos < 0 {
            out.push(err(format!("HTTP probe timeout cannot be negative: {}", self.timeout), "timeout"));
        }
        common_probe(&self.common, &mut out);
        errors(out)
    }
}

/// Go's `unicode.IsSpace`.
fn go_is_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}')
        || (c as u32 > 0xff && c.is_whitespace())
}

/// The link name rules of both ends of a veth pair.
fn veth_link_name(field: &str, name: &str) -> Option<String> {
    if name.is_empty() {
        return Some(format!("{field} must be specified"));
    }
    if name.len() > 15 {
        return Some(format!("{field} must not exceed 15 bytes"));
    }
    if name == "." || name == ".." {
        return Some(format!("{field} must not be {}", quote(name)));
    }
    if name.contains(['/', ':']) {
        return Some(format!("{field} must not contain '/' or ':'"));
    }
    // Invalid UTF-8 decodes as U+FFFD, which Go counts as printable.
    let bad = name.chars().any(|c| !crate::gofmt::is_go_printable(c) || go_is_space(c));
    bad.then(|| format!("{field} must not contain whitespace or non-printable characters"))
}

impl Validate for VethConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        out.extend(veth_link_name("name", &self.name).map(|t| err(t, "name")));
        out.extend(veth_link_name("peer name", &self.peer.name).map(|t| err(t, "peer.name")));
        if !self.name.is_empty() && self.name == self.peer.name {
            out.push(err("name and peer name must be different", "peer.name"));
        }
        common_link(&self.common, &mut out);
        common_link(&self.peer.common, &mut out);
        errors(out)
    }
}
