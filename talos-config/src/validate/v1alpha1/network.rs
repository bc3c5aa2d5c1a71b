//! `machine.network` of the legacy document: the bond/bridge membership pass,
//! `ValidateNetworkDevices` (`CheckDeviceInterface`, `CheckDeviceAddressing`,
//! `CheckDeviceRoutes`) and the legacy KubeSpan MTU (docs/validation.md §4.8).

use std::collections::HashMap;

use super::{Out, goparse, q};
use crate::gofmt::quote_bytes as go_quote;
use crate::model::v1alpha1::{Bond, Device, DeviceWireguardConfig, NetworkConfig};

pub(super) fn validate_network(net: &NetworkConfig, out: &mut Out) {
    let mut secondary: HashMap<&str, &str> = HashMap::new();
    for d in net.interfaces.iter() {
        if d.bond.is_some() && d.bridge.is_some() {
            out.err(
                format!(
                    "interface has both bridge and bond sections set {}: config sections are mutually exclusive",
                    q(&d.interface)
                ),
                "machine.network.interfaces",
            );
        }
        let mut members: &[String] = &[];
        if let Some(b) = &d.bond {
            members = &b.interfaces;
            if !b.interfaces.is_empty() && !b.device_selectors.is_empty() {
                out.err(
                    format!(
                        "interface {} has both interfaces and selectors set: config sections are mutually exclusive",
                        q(&d.interface)
                    ),
                    "machine.network.interfaces",
                );
            }
        }
        if let Some(b) = &d.bridge {
            members = &b.interfaces;
        }
        for m in members {
            if let Some(other) = secondary.get(m.as_str())
                && *other != d.interface
            {
                out.err(
                    format!(
                        "interface {} is declared as part of two separate links: {} and {}",
                        q(m),
                        q(other),
                        q(&d.interface)
                    ),
                    "machine.network.interfaces",
                );
            }
            secondary.insert(m.as_str(), d.interface.as_str());
        }
    }
    for (i, d) in net.interfaces.0.iter().enumerate() {
        let path = format!("machine.network.interfaces[{i}]");
        let Some(d) = d else {
            out.err("empty device", &path);
            continue;
        };
        if d.ignore == Some(true) {
            continue;
        }
        check_interface(d, &path, out);
        check_addressing(d, &secondary, &path, out);
        check_routes(d, &path, out);
    }
    if let Some(ks) = &net.kubespan
        && ks.enabled == Some(true)
        && ks.mtu.is_some_and(|m| m != 0 && m < 1280)
    {
        out.err("kubespan link MTU must be at least 1280", "machine.network.kubespan.mtu");
    }
}

fn check_interface(d: &Device, path: &str, out: &mut Out) {
    if d.interface.is_empty() && d.device_selector.is_none() {
        out.err(
            "[networking.os.device.interface], [networking.os.device.deviceSelector]: required either config section to be set",
            path,
        );
    } else if !d.interface.is_empty() && d.device_selector.is_some() {
        out.err(
            "[networking.os.device.interface], [networking.os.device.deviceSelector]: config sections are mutually exclusive",
            path,
        );
    }
    if let Some(s) = &d.device_selector
        && s.bus_path.is_empty()
        && s.hardware_addr.is_empty()
        && s.permanent_addr.is_empty()
        && s.pci_id.is_empty()
        && s.driver.is_empty()
        && s.physical.is_none()
    {
        out.err(
            "[networking.os.device.deviceSelector]: config section should contain at least one field",
            &format!("{path}.deviceSelector"),
        );
    }
    if let Some(b) = &d.bond {
        check_bond(b, &format!("{path}.bond"), out);
    }
    if let Some(w) = &d.wireguard {
        check_wireguard(w, &format!("{path}.wireguard"), out);
    }
    for (j, v) in d.vlans.0.iter().enumerate() {
        let Some(v) = v else { continue };
        let vpath = format!("{path}.vlans[{j}]");
        let id = format!("{}.{}", d.interface, v.vlan_id);
        if !v.addresses.is_empty() && !v.cidr.is_empty() {
            out.err(format!("[networking.os.device.vlan] {id}: vlan can't have both .cidr and .addresses set"), &vpath);
        }
        if !v.cidr.is_empty()
            && let Err(e) = goparse::validate_ip_or_cidr(&v.cidr)
        {
            out.err(format!("[networking.os.device.vlan.CIDR] {id}: {e}"), &format!("{vpath}.cidr"));
        }
        for a in &v.addresses {
            if let Err(e) = goparse::validate_ip_or_cidr(a) {
                out.err(format!("[networking.os.device.vlan.addresses] {id}: {e}"), &format!("{vpath}.addresses"));
            }
        }
    }
}

/// Bond modes by name (`nethelpers.BondModeByName`); an invalid name counts as `balance-rr`.
fn bond_mode(name: &str) -> Result<&'static str, String> {
    Ok(match name {
        "" | "balance-rr" => "balance-rr",
        "active-backup" => "active-backup",
        "balance-xor" => "balance-xor",
        "broadcast" => "broadcast",
        "802.3ad" => "802.3ad",
        "balance-tlb" => "balance-tlb",
        "balance-alb" => "balance-alb",
        _ => return Err(format!("invalid bond type {name}")),
    })
}

fn check_bond(b: &Bond, path: &str, out: &mut Out) {
    let mode = match bond_mode(&b.mode) {
        Ok(m) => m,
        Err(e) => {
            out.err(e, &format!("{path}.mode"));
            "balance-rr"
        }
    };
    let enums: [(&str, &str, &[&str], &str); 7] = [
        (
            &b.xmit_hash_policy,
            "xmitHashPolicy",
            &["layer2", "layer3+4", "layer2+3", "encap2+3", "encap3+4"],
            "invalid xmit hash policy",
        ),
        (&b.lacp_rate, "lacpRate", &["slow", "fast"], "invalid lacp rate"),
        (&b.arp_validate, "arpValidate", &["none", "active", "backup", "all"], "invalid arp_validate mode"),
        (&b.arp_all_targets, "arpAllTargets", &["any", "all"], "invalid arp_all_targets mode"),
        (&b.primary_reselect, "primaryReselect", &["always", "better", "failure"], "invalid primary_reselect mode"),
        (&b.fail_over_mac, "failOverMac", &["none", "active", "follow"], "invalid fail_over_mac value"),
        (&b.ad_select, "adSelect", &["stable", "bandwidth", "count"], "invalid ad_select mode"),
    ];
    for (value, key, valid, msg) in enums {
        if !value.is_empty() && !valid.contains(&value) {
            out.err(format!("{msg} {value}"), &format!("{path}.{key}"));
        }
    }
    if b.miimon == 0 {
        if b.updelay != 0 {
            out.err("bond.upDelay can't be set if miiMon is zero", &format!("{path}.updelay"));
        }
        if b.downdelay != 0 {
            out.err("bond.downDelay can't be set if miiMon is zero", &format!("{path}.downdelay"));
        }
    } else {
        if !b.updelay.is_multiple_of(b.miimon) {
            out.err("bond.upDelay should be a multiple of miiMon", &format!("{path}.updelay"));
        }
        if !b.downdelay.is_multiple_of(b.miimon) {
            out.err("bond.downDelay should be a multiple of miiMon", &format!("{path}.downdelay"));
        }
    }
    let ad = mode == "802.3ad";
    let alb_tlb = mode == "balance-alb" || mode == "balance-tlb";
    if !b.arp_ip_target.is_empty() {
        out.err("bond.arpIPTarget is not supported", &format!("{path}.arpIPTarget"));
    }
    if !b.lacp_rate.is_empty() && !ad {
        out.err("bond.lacpRate is only available in 802.3ad mode", &format!("{path}.lacpRate"));
    }
    if !b.ad_actor_system.is_empty() {
        out.err("bond.adActorSystem is not supported", &format!("{path}.adActorSystem"));
    }
    if (ad || alb_tlb) && !b.arp_validate.is_empty() {
        out.err(format!("bond.arpValidate is not available in {mode} mode"), &format!("{path}.arpValidate"));
    }
    let primary_ok = mode == "active-backup" || alb_tlb;
    if !primary_ok && !b.primary.is_empty() {
        out.err(format!("bond.primary is not available in {mode} mode"), &format!("{path}.primary"));
    }
    if (ad || alb_tlb) && b.arp_interval > 0 {
        out.err(format!("bond.arpInterval is not available in {mode} mode"), &format!("{path}.arpInterval"));
    }
    if mode != "balance-rr" && b.packets_per_slave > 1 {
        out.err(format!("bond.packetsPerSlave is not available in {mode} mode"), &format!("{path}.packetsPerSlave"));
    }
    if !alb_tlb && b.tlb_dynamic_lb > 0 {
        out.err(format!("bond.tlbDynamicTLB is not available in {mode} mode"), &format!("{path}.tlbDynamicLb"));
    }
    if !ad && b.ad_actor_sys_prio > 0 {
        out.err("bond.adActorSysPrio is only available in 802.3ad mode", &format!("{path}.adActorSysPrio"));
    }
    if !ad && b.ad_user_port_key > 0 {
        out.err("bond.adUserPortKey is only available in 802.3ad mode", &format!("{path}.adUserPortKey"));
    }
}

/// A WireGuard key: standard base64 of exactly 32 bytes.
fn check_key(key: &str) -> Result<(), String> {
    let raw = crate::gofmt::base64_decode(key)?;
    if raw.len() != 32 {
        return Err(format!("wrong key {} length: {}", go_quote(key.as_bytes()), raw.len()));
    }
    Ok(())
}

fn check_wireguard(w: &DeviceWireguardConfig, path: &str, out: &mut Out) {
    if let Err(e) = check_key(&w.private_key) {
        out.err(format!("private key is invalid: {e}"), &format!("{path}.privateKey"));
    }
    for (i, p) in w.peers.iter().enumerate() {
        let Some(p) = p else { continue };
        let ppath = format!("{path}.peers[{i}]");
        if let Err(e) = check_key(&p.public_key) {
            out.err(format!("public key invalid: {e}"), &format!("{ppath}.publicKey"));
        }
        if !p.endpoint.is_empty() && !goparse::address_contains_port(&p.endpoint) {
            out.err(format!("peer endpoint {} is invalid", q(&p.endpoint)), &format!("{ppath}.endpoint"));
        }
        for ip in &p.allowed_ips {
            if !goparse::parse_cidr_ok(ip) {
                out.err(
                    format!("peer allowed IP {} is invalid: invalid CIDR address: {ip}", q(ip)),
                    &format!("{ppath}.allowedIPs"),
                );
            }
        }
    }
}

fn check_addressing(d: &Device, secondary: &HashMap<&str, &str>, path: &str, out: &mut Out) {
    let iface = q(&d.interface);
    if secondary.contains_key(d.interface.as_str())
        && (d.dhcp == Some(true) || !d.cidr.is_empty() || !d.addresses.is_empty() || d.vip.is_some())
    {
        out.err(
            format!(
                "[networking.os.device] {iface}: bonded/bridged interface shouldn't have any addressing methods configured"
            ),
            path,
        );
    }
    if !d.addresses.is_empty() && !d.cidr.is_empty() {
        out.err(format!("[networking.os.device] {iface}: interface can't have both .cidr and .addresses set"), path);
    }
    if !d.cidr.is_empty() {
        if let Err(e) = goparse::validate_ip_or_cidr(&d.cidr) {
            out.err(format!("[networking.os.device.CIDR] {iface}: {e}"), &format!("{path}.cidr"));
        }
        out.warn(
            format!(
                "{iface}: machine.network.interface.cidr is deprecated, please use machine.network.interface.addresses"
            ),
            &format!("{path}.cidr"),
        );
    }
    for a in &d.addresses {
        if let Err(e) = goparse::validate_ip_or_cidr(a) {
            out.err(format!("[networking.os.device.addresses] {iface}: {e}"), &format!("{path}.addresses"));
        }
    }
    if let Some(vip) = &d.vip
        && !goparse::parse_ip_ok(&vip.ip)
    {
        out.err(
            format!("[networking.os.device.vip] failed to parse {} as IP address", q(&vip.ip)),
            &format!("{path}.vip.ip"),
        );
    }
}

fn check_routes(d: &Device, path: &str, out: &mut Out) {
    for (i, r) in d.routes.iter().enumerate() {
        let Some(r) = r else { continue };
        let rpath = format!("{path}.routes[{i}]");
        if !r.network.is_empty() && !goparse::parse_cidr_ok(&r.network) {
            out.err(
                format!("[networking.os.device.route[{i}].network] {}: invalid network address", q(&r.network)),
                &format!("{rpath}.network"),
            );
        }
        if !r.gateway.is_empty() && !goparse::parse_ip_ok(&r.gateway) {
            out.err(
                format!("[networking.os.device.route[{i}].gateway] {}: invalid network address", q(&r.gateway)),
                &format!("{rpath}.gateway"),
            );
        }
        if r.gateway.is_empty() && r.network.is_empty() {
            out.err(format!("[networking.os.device.route[{i}]]: either network or gateway should be set"), &rpath);
        }
        if !r.source.is_empty() && !goparse::parse_ip_ok(&r.source) {
            out.err(
                format!("[networking.os.device.route[{i}].source] {}: invalid network address", q(&r.source)),
                &format!("{rpath}.source"),
            );
        }
    }
}
