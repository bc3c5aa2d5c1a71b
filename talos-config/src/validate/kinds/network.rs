//! Network kinds.

use super::{err, errors, first};
use crate::go::errors::parse_uint;
use crate::gofmt::base64_decode;
use crate::gofmt::quote;
use crate::model::network::types::{IpAddr, IpPrefix};
use crate::model::network::*;
use crate::validate::{Context, Findings, Issue, Validate};

/// `CommonLinkConfig.Validate`.
pub(super) fn common_link(c: &CommonLinkConfig, out: &mut Vec<Issue>) {
    for (i, a) in c.addresses.iter().enumerate() {
        let p = &a.address.0;
        let path = format!("addresses[{i}].address");
        if *p == IpPrefix::default() {
            out.push(err(format!("address {i} must be specified"), &path));
        } else if !p.addr.is_valid() {
            out.push(err(format!("address {i} must be a valid IP prefix"), &path));
        } else if is_unspecified(&p.addr) {
            out.push(err(format!("address {i} must be a valid IP address"), &path));
        }
    }
    for (i, r) in c.routes.iter().enumerate() {
        let d = &r.destination.0;
        if *d != IpPrefix::default() && (!d.addr.is_valid() || is_unspecified(&d.addr)) {
            out.push(err(
                format!("route {i} destination must be a valid IP prefix"),
                &format!("routes[{i}].destination"),
            ));
        }
        if r.gateway.0.is_valid() && is_unspecified(&r.gateway.0) {
            out.push(err(format!("route {i} gateway must be a valid IP address"), &format!("routes[{i}].gateway")));
        }
        if r.source.0.is_valid() && is_unspecified(&r.source.0) {
            out.push(err(format!("route {i} source must be a valid IP address"), &format!("routes[{i}].source")));
        }
    }
}

/// Go's `Addr.IsUnspecified` (`0.0.0.0` or `::`, no zone check).
fn is_unspecified(a: &IpAddr) -> bool {
    match a {
        IpAddr::V4(b) => b.iter().all(|&x| x == 0),
        IpAddr::V6(b, _) => b.iter().all(|&x| x == 0),
        IpAddr::Invalid => false,
    }
}

fn name_specified(name: &str, out: &mut Vec<Issue>) {
    if name.is_empty() {
        out.push(err("name must be specified", "name"));
    }
}

impl Validate for LinkConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        common_link(&self.common, &mut out);
        errors(out)
    }
}

impl Validate for BondConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        let mut warnings = Vec::new();
        name_specified(&self.name, &mut out);
        if self.links.is_empty() {
            out.push(err("at least one link must be specified", "links"));
        }
        match self.bond_mode {
            None => out.push(err("bond mode must be specified", "bondMode")),
            Some(m) if m.0 == 4 => {
                const WARN: &str = " was not specified for 802.3ad bond";
                for (missing, key) in [
                    (self.miimon.is_none(), "miimon"),
                    (self.updelay.is_none(), "updelay"),
                    (self.downdelay.is_none(), "downdelay"),
                ] {
                    if missing {
                        warnings.push(crate::validate::Issue::new(format!("{key}{WARN}"), Some(key)));
                    }
                }
            }
            Some(_) => {}
        }
        common_link(&self.common, &mut out);
        Findings { errors: out, warnings }
    }
}

impl Validate for BridgeConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        common_link(&self.common, &mut out);
        errors(out)
    }
}

impl Validate for DummyLinkConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        common_link(&self.common, &mut out);
        errors(out)
    }
}

impl Validate for VlanConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        if self.vlan_id == 0 || self.vlan_id > 4094 {
            out.push(err("vlanID must be specified and between 1 and 4094", "vlanID"));
        }
        if self.parent.is_empty() {
            out.push(err("parent must be specified", "parent"));
        }
        if let Some(mode) = self.vlan_mode
            && mode.0 != 0x8100
            && mode.0 != 0x88a8
        {
            out.push(err("vlanMode must be either '802.1q' or '802.1ad'", "vlanMode"));
        }
        common_link(&self.common, &mut out);
        errors(out)
    }
}

impl Validate for VrfConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        if matches!(self.table.0, 0 | 253 | 254 | 255) {
            out.push(err(format!("cannot create vrf with reserved table {}", self.table), "table"));
        }
        common_link(&self.common, &mut out);
        errors(out)
    }
}

/// Talos's hand-rolled wireguard key check (base64, 32 bytes).
fn wireguard_key(key: &str) -> Result<(), String> {
    let raw = base64_decode(key)?;
    if raw.len() != 32 {
        return Err("invalid wireguard key length".into());
    }
    Ok(())
}

impl Validate for WireguardConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        if self.private_key.is_empty() {
            out.push(err("wireguard private key must be specified", "privateKey"));
        } else if let Err(e) = wireguard_key(&self.private_key) {
            out.push(err(format!("wireguard private key is invalid: {e}"), "privateKey"));
        }
        if !(0..=65535).contains(&self.listen_port) {
            out.push(err("wireguard listen port must be between 0 and 65535", "listenPort"));
        }
        for (i, peer) in self.peers.iter().enumerate() {
            if peer.public_key.is_empty() {
                out.push(err(
                    format!("wireguard peer public key must be specified (peer index {i})"),
                    &format!("peers[{i}].publicKey"),
                ));
            } else if let Err(e) = wireguard_key(&peer.public_key) {
                out.push(err(
                    format!("wireguard peer public key is invalid (peer index {i}): {e}"),
                    &format!("peers[{i}].publicKey"),
                ));
            }
            if !peer.preshared_key.is_empty()
                && let Err(e) = wireguard_key(&peer.preshared_key)
            {
                out.push(err(
                    format!("wireguard peer preshared key is invalid (peer index {i}): {e}"),
                    &format!("peers[{i}].presharedKey"),
                ));
            }
            if peer.persistent_keepalive_interval.nanos < 0 {
                out.push(err(
                    format!("wireguard peer persistent keepalive interval cannot be negative (peer index {i})"),
                    &format!("peers[{i}].persistentKeepaliveInterval"),
                ));
            }
        }
        common_link(&self.common, &mut out);
        errors(out)
    }
}

/// Talos's `celenv.LinkLocator` environment (v1.12.11 and v1.13.9): the link, `glob` and `mac`.
const LINK_LOCATOR: crate::cel::Declarations<'static> = crate::cel::Declarations {
    variables: &["link"],
    functions: &["glob", "mac"],
    size_units: false,
    optional_types: false,
};

impl Validate for LinkAliasConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name must be specified", "name"));
        } else if cx.release.rules().link_alias_format_verb && self.name.contains('%') {
            let (prefix, suffix) = self.name.split_once('%').unwrap_or((self.name.as_str(), ""));
            if suffix != "d" || prefix.is_empty() {
                out.push(err(
                    format!("name {} contains an invalid format verb, use %d suffix", quote(&self.name)),
                    "name",
                ));
            }
        }
        match &self.selector.r#match.0 {
            Some(expr) => {
                if let Some(e) = crate::cel::check(expr, &LINK_LOCATOR, cx.release) {
                    out.push(err(format!("link selector is invalid: {e}"), "selector.match"));
                }
            }
            None => out.push(err("link selector is required", "selector.match")),
        }
        errors(out)
    }
}

fn dhcp(name: &str, client_identifier: Option<ClientIdentifierRef>, duid_raw_len: usize) -> Findings {
    let mut out = Vec::new();
    name_specified(name, &mut out);
    let is_duid = client_identifier.is_some_and(|c| c.0 == 2);
    if duid_raw_len > 0 && !is_duid {
        out.push(err("duidRaw can only be set if clientIdentifier is 'duid'", "duidRaw"));
    }
    if is_duid && duid_raw_len == 0 {
        out.push(err("duidRaw must be set if clientIdentifier is 'duid'", "duidRaw"));
    }
    errors(out)
}

type ClientIdentifierRef = crate::model::network::types::ClientIdentifier;

impl Validate for Dhcpv4Config {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        dhcp(&self.name, self.client_identifier, self.duid_raw.0.as_ref().map_or(0, Vec::len))
    }
}

impl Validate for Dhcpv6Config {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        dhcp(&self.name, self.client_identifier, self.duid_raw.0.as_ref().map_or(0, Vec::len))
    }
}

impl Validate for EthernetConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name is required", "name"));
        }
        errors(out)
    }
}

impl Validate for StaticHostConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name is required", "name"));
        }
        if IpAddr::parse(&self.name).is_err() {
            out.push(err("name must be a valid IP address", "name"));
        }
        if self.hostnames.is_empty() {
            out.push(err("at least one hostname is required", "hostnames"));
        }
        errors(out)
    }
}

impl Validate for BlackholeRouteConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        if let Err(e) = IpPrefix::parse(&self.name) {
            out.push(err(format!("name must be a valid address prefix: {e}"), "name"));
        }
        errors(out)
    }
}

/// Linux's reserved rule priorities, in Talos's order.
const RESERVED_PRIORITIES: [u32; 4] = [0, 32500, 32766, 32767];

impl Validate for RoutingRuleConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        name_specified(&self.name, &mut out);
        let priority = match parse_uint(&self.name, 32) {
            Ok(p) => p,
            Err(e) => {
                out.push(err(format!("invalid name: must be priority parsable unsigned integer: {e}"), "name"));
                // ParseUint returns 0 on a syntax error and the maximum on a range error.
                if e.ends_with("value out of range") { u64::from(u32::MAX) } else { 0 }
            }
        };
        if RESERVED_PRIORITIES.iter().any(|&r| u64::from(r) == priority) {
            out.push(err(
                "priority must be between 1 and 32765 (excluding reserved priorities [0 32500 32766 32767])",
                "name",
            ));
        }
        // Action unspec (0) or unicast (1) with no table.
        if self.table.0 == 0 && matches!(self.action.0, 0 | 1) {
            out.push(err("either table or a non-unicast action must be specified", "table"));
        }
        if self.fw_mask != 0 && self.fw_mark == 0 {
            out.push(err("fwMask requires fwMark to be set", "fwMask"));
        }
        errors(out)
    }
}

fn vip_name(name: &str, out: &mut Vec<Issue>) {
    if name.is_empty() {
        out.push(err("name must be specified", "name"));
    } else if let Err(e) = IpAddr::parse(name) {
        out.push(err(format!("name must be a valid IP address: {e}"), "name"));
    }
}

impl Validate for Layer2VipConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        vip_name(&self.name, &mut out);
        if self.link.is_empty() {
            out.push(err("link must be specified", "link"));
        }
        errors(out)
    }
}

impl Validate for HcloudVipConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        vip_name(&self.name, &mut out);
        if self.link.is_empty() {
            out.push(err("link must be specified", "link"));
        }
        if self.api_token.is_empty() {
            out.push(err("apiToken must be specified", "apiToken"));
        }
        errors(out)
    }
}

impl Validate for TcpProbeConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("probe name is required", "name"));
        }
        if self.endpoint.is_empty() {
            out.push(err("TCP probe endpoint is required", "endpoint"));
        }
        if self.timeout.nanos < 0 {
            out.push(err(format!("TCP probe timeout cannot be negative: {}", self.timeout), "timeout"));
        }
        common_probe(&self.common, &mut out);
        errors(out)
    }
}

/// `CommonProbeConfig.Validate`.
pub(super) fn common_probe(c: &CommonProbeConfig, out: &mut Vec<Issue>) {
    if c.interval.nanos < 0 {
        out.push(err(format!("probe interval cannot be negative: {}", c.interval), "interval"));
    }
    if c.failure_threshold < 0 {
        out.push(err(
            format!("probe failure threshold cannot be negative: {}", c.failure_threshold),
            "failureThreshold",
        ));
    }
}

/// `PortRanges.Validate`: sorted by low end (stable), first problem only.
fn port_ranges(ports: &[PortRangeRef]) -> Result<(), Issue> {
    let mut sorted: Vec<PortRangeRef> = ports.to_vec();
    sorted.sort_by_key(|p| p.lo);
    let show = |p: &PortRangeRef| format!("{}-{}", p.lo, p.hi);
    for (i, pr) in sorted.iter().enumerate() {
        if pr.lo > pr.hi {
            return Err(err(format!("invalid port range: {}", show(pr)), "portSelector.ports"));
        }
        if i > 0 {
            let prev = &sorted[i - 1];
            if pr.lo == prev.lo || pr.lo <= prev.hi {
                return Err(err(
                    format!("invalid port range: {}, overlaps with {}", show(pr), show(prev)),
                    "portSelector.ports",
                ));
            }
        }
    }
    Ok(())
}

type PortRangeRef = crate::model::network::types::PortRange;

impl NetworkRuleConfig {
    fn check(&self) -> Result<(), Issue> {
        if self.name.is_empty() {
            return Err(err("name is required", "name"));
        }
        let ports: &[PortRangeRef] = self.port_selector.ports.0.as_ref().map_or(&[], |p| p.0.as_slice());
        if ports.is_empty() {
            return Err(err("portSelector.ports is required", "portSelector.ports"));
        }
        port_ranges(ports)?;
        for (i, rule) in self.ingress.0.as_ref().map_or(&[][..], |r| r.0.as_slice()).iter().enumerate() {
            if !rule.subnet.0.addr.is_valid() {
                return Err(err(
                    format!("invalid subnet: {}", rule.subnet.0.go_string()),
                    &format!("ingress[{i}].subnet"),
                ));
            }
            if rule.except.0 != IpPrefix::default() && !rule.except.0.addr.is_valid() {
                return Err(err(
                    format!("invalid except: {}", rule.except.0.go_string()),
                    &format!("ingress[{i}].except"),
                ));
            }
        }
        Ok(())
    }
}

impl Validate for NetworkRuleConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }
}

impl Validate for NetworkDefaultActionConfig {}

impl Validate for HostnameConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        // AutoHostnameKind: off = 0, talos-addr = 1, stable = 2.
        let auto = self.auto.map_or(0, |a| a.0);
        if self.auto.is_none() && self.hostname.is_empty() {
            out.push(err("either 'auto' or 'hostname' must be set", "auto"));
        }
        if auto != 0 && !self.hostname.is_empty() {
            out.push(err("'auto' and 'hostname' cannot be set at the same time", "hostname"));
        }
        if !matches!(auto, 0 | 2) {
            let shown = self.auto.map_or_else(|| "<nil>".to_string(), |a| a.to_string());
            out.push(err(format!("invalid value for 'auto': {shown}"), "auto"));
        }
        if !self.hostname.is_empty() {
            if self.hostname.len() > 253 {
                out.push(err(format!("fqdn is too long: {}", self.hostname.len()), "hostname"));
            }
            let label = self.hostname.split('.').next().unwrap_or("");
            if label.is_empty() || label.len() > 63 {
                out.push(err(format!("invalid hostname {}", quote(label)), "hostname"));
            }
        }
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let Some(machine) = crate::validate::legacy(cx).and_then(|c| c.machine.as_ref()) else {
            return Vec::new();
        };
        if machine.network.as_ref().is_some_and(|n| !n.hostname.is_empty()) {
            return vec![err("static hostname is already set in v1alpha1 config", "machine.network.hostname")];
        }
        if machine.features.as_ref().and_then(|f| f.stable_hostname).unwrap_or(false) {
            return vec![err("stable hostname is already set in v1alpha1 config", "machine.features.stableHostname")];
        }
        Vec::new()
    }
}

/// The warning when every nameserver is DoT or DoH.
const ENCRYPTED_DNS_ONLY: &str = "all configured nameservers use encrypted DNS (DoT or DoH): validating certificates \
     requires a correct system clock, so boot may stall when NTP servers are configured by hostname; consider keeping \
     at least one plain-DNS fallback or configuring NTP servers by IP address";

impl ResolverConfig {
    /// `hostDNS` options that need `hostDNS.enabled`.
    fn host_dns(&self, out: &mut Vec<Issue>) {
        let h = &self.host_dns;
        if *h == HostDnsConfig::default() || h.enabled == Some(true) {
            return;
        }
        if h.forward_kube_dns_to_host == Some(true) {
            let text = "hostDNS.forwardKubeDNSToHost cannot be enabled when hostDNS.enabled is false";
            out.push(err(text, "hostDNS.forwardKubeDNSToHost"));
        }
        if h.resolve_member_names == Some(true) {
            let text = "hostDNS.resolveMemberNames cannot be enabled when hostDNS.enabled is false";
            out.push(err(text, "hostDNS.resolveMemberNames"));
        }
    }

    /// Each nameserver's protocol, TLS server name and address; how many are encrypted.
    fn nameservers(&self, out: &mut Vec<Issue>) -> usize {
        let mut encrypted = 0;
        for (i, ns) in self.nameservers.iter().enumerate() {
            let path = format!("nameservers[{i}]");
            let proto = ns.protocol.0;
            if proto == 1 || proto == 2 {
                encrypted += 1;
                if ns.tls_server_name.is_empty() {
                    let name = if proto == 1 { "DoT" } else { "DoH" };
                    out.push(err(format!("tlsServerName must be set when protocol is {name}: entry {i}"), &path));
                }
            } else if proto == 0 {
                if !ns.tls_server_name.is_empty() {
                    out.push(err(format!("tlsServerName must be empty when protocol is Do53: entry {i}"), &path));
                }
            } else {
                out.push(err(format!("unsupported DNS protocol: entry {i}"), &path));
            }
            if !ns.address.0.is_valid() {
                out.push(err(format!("nameserver address must be a valid IP: entry {i}"), &path));
            }
        }
        encrypted
    }
}

impl ResolverConfig {
    /// The first setting the v1alpha1 document already has.
    fn conflict(&self, cx: &Context<'_>) -> Result<(), Issue> {
        let machine = crate::validate::legacy(cx).and_then(|c| c.machine.as_ref());
        if let Some(net) = machine.and_then(|m| m.network.as_ref()) {
            if !net.search_domains.is_nil() {
                let text = ".machine.network.searchDomains is already set in v1alpha1 config";
                return Err(err(text, "machine.network.searchDomains"));
            }
            // Talos's bridge keeps the entries that parse as addresses (`netip.ParseAddr`): a
            // list of host names, or an empty one, is no conflict.
            if net.nameservers.items().iter().any(|n| crate::go::parse::parse_addr(n).is_some()) {
                return Err(err(
                    ".machine.network.nameservers is already set in v1alpha1 config",
                    "machine.network.nameservers",
                ));
            }
            if net.disable_search_domain.unwrap_or(false) {
                let text = ".machine.network.disableSearchDomain is already set in v1alpha1 config";
                return Err(err(text, "machine.network.disableSearchDomain"));
            }
        }
        let legacy_host_dns = machine.and_then(|m| m.features.as_ref()).is_some_and(|f| f.host_dns.is_some());
        if self.host_dns != HostDnsConfig::default() && legacy_host_dns {
            return Err(err(".machine.features.hostDNS is already set in v1alpha1 config", "machine.features.hostDNS"));
        }
        Ok(())
    }
}

/// A "first conflict only" rule's findings.
fn first_conflict(result: Result<(), Issue>) -> Vec<Issue> {
    result.err().into_iter().collect()
}

impl Validate for ResolverConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        if cx.release < crate::Release::V1_14_0_RC1 {
            return Findings::default();
        }
        let mut out = Vec::new();
        self.host_dns(&mut out);
        let encrypted = self.nameservers(&mut out);
        let mut warnings = Vec::new();
        if encrypted > 0 && encrypted == self.nameservers.len() {
            warnings.push(err(ENCRYPTED_DNS_ONLY, "nameservers"));
        }
        Findings { errors: out, warnings }
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        first_conflict(self.conflict(cx))
    }
}

impl Validate for TimeSyncConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.boot_timeout.nanos < 0 {
            out.push(err("bootTimeout cannot be negative", "bootTimeout"));
        }
        if self.ntp.is_some() && self.ptp.is_some() {
            out.push(err("only one of ntp or ptp configuration can be specified", "ntp"));
        }
        if let Some(ntp) = self.ntp.as_ref().filter(|n| n.use_nts == Some(true)) {
            for server in ntp.servers.iter().filter(|s| s.parse::<std::net::IpAddr>().is_ok()) {
                out.push(err(format!("NTS requires hostnames, not IP addresses: {}", quote(server)), "ntp.servers"));
            }
        }
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let Some(time) = crate::validate::legacy(cx).and_then(|c| c.machine.as_ref()).and_then(|m| m.time.as_ref())
        else {
            return Vec::new();
        };
        if time.disabled.unwrap_or(false) {
            return vec![err(
                "time sync cannot be disabled in both v1alpha1 and new-style configuration",
                "machine.time.disabled",
            )];
        }
        // A present but empty list is no conflict: Talos counts the servers.
        if !time.servers.items().is_empty() {
            return vec![err(
                "time servers cannot be specified in both v1alpha1 and new-style configuration",
                "machine.time.servers",
            )];
        }
        if time.boot_timeout.nanos != 0 {
            return vec![err(
                "boot timeout cannot be specified in both v1alpha1 and new-style configuration",
                "machine.time.bootTimeout",
            )];
        }
        Vec::new()
    }
}

/// Talos's `KubeSpanLinkMinimumMTU`.
const KUBESPAN_MIN_MTU: u32 = 1280;

impl Validate for KubeSpanConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.mtu.is_some_and(|m| m < KUBESPAN_MIN_MTU) {
            out.push(err(format!("kubespan link MTU must be at least {KUBESPAN_MIN_MTU}"), "mtu"));
        }
        if let Some(filters) = &self.filters {
            for (i, cidr) in filters.endpoints.iter().enumerate() {
                let cidr = cidr.strip_prefix('!').unwrap_or(cidr);
                if !crate::go::parse::subnet_or_address_ok(cidr) {
                    out.push(err(
                        format!("KubeSpan endpoint filter is not valid: {}", quote(cidr)),
                        &format!("filters.endpoints[{i}]"),
                    ));
                }
            }
        }
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let legacy = crate::validate::legacy(cx)
            .and_then(|c| c.machine.as_ref())
            .and_then(|m| m.network.as_ref())
            .and_then(|n| n.kubespan.as_ref());
        match legacy {
            Some(_) => vec![err(
                "kubespan is already configured in v1alpha1 machine.network.kubespan",
                "machine.network.kubespan",
            )],
            None => Vec::new(),
        }
    }
}

impl Validate for KubeSpanEndpointsConfig {}
