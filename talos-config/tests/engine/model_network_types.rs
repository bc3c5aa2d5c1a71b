//! Network value types: netip text forms, hardware addresses, enums, port ranges.

use crate::model_network_util;

use std::str::FromStr;

use model_network_util::*;
use talos_config::model::network::types::{
    BondMode, FailOverMac, HardwareAddr, IpAddr, IpAddrPort, IpPrefix, PortRange, Protocol, RoutingTable,
};
use talos_config::model::network::{BondConfig, NetworkRuleConfig, RoutingRuleConfig, VrfConfig};
use talos_config::{Error, ErrorKind};

/// `text.parse::<T>()` (the public door, `FromStr`) with the error's text, which is upstream's.
fn parse<T: FromStr<Err = Error>>(text: &str) -> Result<T, String> {
    text.parse::<T>().map_err(|e| {
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{text}: {e}");
        e.to_string()
    })
}

#[test]
fn prefix_text_forms() {
    let cases = [
        ("10.0.42.136/24", "10.0.42.136/24"),
        ("2001:db8::1/64", "2001:db8::1/64"),
        ("2001:0DB8:0:0:0:0:0:1/64", "2001:db8::1/64"),
        ("::/0", "::/0"),
        ("0.0.0.0/0", "0.0.0.0/0"),
        ("::ffff:1.2.3.4/120", "::ffff:1.2.3.4/120"),
        ("1:0:0:1:0:0:0:1/128", "1:0:0:1::1/128"),
        ("1:0:0:2:0:0:3:4/128", "1::2:0:0:3:4/128"),
        ("fe80::1:2/10", "fe80::1:2/10"),
    ];
    for (input, text) in cases {
        assert_eq!(parse::<IpPrefix>(input).map(|p| p.go_string()), Ok(text.to_string()), "{input}");
    }
}

#[test]
fn prefix_errors_like_go() {
    let cases = [
        ("10.0.0.1", "netip.ParsePrefix(\"10.0.0.1\"): no '/'"),
        ("10.0.0.1/33", "netip.ParsePrefix(\"10.0.0.1/33\"): prefix length out of range"),
        ("10.0.0.1/08", "netip.ParsePrefix(\"10.0.0.1/08\"): bad bits after slash: \"08\""),
        ("10.0.0.1/x", "netip.ParsePrefix(\"10.0.0.1/x\"): bad bits after slash: \"x\""),
        ("fe80::1%eth0/64", "netip.ParsePrefix(\"fe80::1%eth0/64\"): IPv6 zones cannot be present in a prefix"),
        ("abc/8", "netip.ParsePrefix(\"abc/8\"): ParseAddr(\"abc\"): unable to parse IP"),
        ("300.1.1.1/8", "netip.ParsePrefix(\"300.1.1.1/8\"): ParseAddr(\"300.1.1.1\"): IPv4 field has value >255"),
        (
            "01.1.1.1/8",
            "netip.ParsePrefix(\"01.1.1.1/8\"): ParseAddr(\"01.1.1.1\"): IPv4 field has octet with leading zero",
        ),
    ];
    for (input, err) in cases {
        assert_eq!(parse::<IpPrefix>(input), Err(err.to_string()), "{input}");
    }
}

#[test]
fn addr_text_forms_and_errors() {
    assert_eq!(parse::<IpAddr>("fe80::1%eth0").map(|a| a.go_string()), Ok("fe80::1%eth0".into()));
    assert_eq!(parse::<IpAddr>("::").map(|a| a.go_string()), Ok("::".into()));
    assert_eq!(
        parse::<IpAddr>("1.2.3").map(|a| a.go_string()),
        Err("ParseAddr(\"1.2.3\"): IPv4 address too short".into())
    );
    assert_eq!(
        parse::<IpAddr>("1..2.3").map(|a| a.go_string()),
        Err("ParseAddr(\"1..2.3\"): IPv4 field must have at least one digit (at \".2.3\")".into())
    );
    assert_eq!(
        parse::<IpAddr>("1::2::3").map(|a| a.go_string()),
        Err("ParseAddr(\"1::2::3\"): multiple :: in address (at \":3\")".into())
    );
    assert_eq!(parse::<IpAddr>("%x").map(|a| a.go_string()), Err("ParseAddr(\"%x\"): missing IPv6 address".into()));
    assert_eq!(IpAddr::Invalid.go_string(), "invalid IP");
    // Go's parseAddrError prints `(at ...)` only for a non-empty rest: this one has none.
    assert_eq!(
        parse::<IpAddr>("1:2:3:4:5:6:7:8::"),
        Err("ParseAddr(\"1:2:3:4:5:6:7:8::\"): the :: must expand to at least one field of zeros".into())
    );
    assert_eq!(
        parse::<IpAddr>("::1.2.3.x%eth0"),
        Err("ParseAddr(\"::1.2.3.x%eth0\"): unexpected character (at \"x\")".into())
    );
    assert_eq!(parse::<IpAddr>("::1%"), Err("ParseAddr(\"::1%\"): zone must be a non-empty string".into()));
    assert_eq!(parse::<IpAddr>("::ffff:1.2.3.4%z").map(|a| a.go_string()), Ok("::ffff:1.2.3.4%z".into()));
    assert_eq!(
        parse::<IpPrefix>("1:2:3:4:5:6:7:8::/64"),
        Err("netip.ParsePrefix(\"1:2:3:4:5:6:7:8::/64\"): ParseAddr(\"1:2:3:4:5:6:7:8::\"): the :: must expand to at \
             least one field of zeros"
            .into())
    );
}

#[test]
fn addr_port_text_forms() {
    assert_eq!(parse::<IpAddrPort>("10.3.4.3:2222").map(|a| a.go_string()), Ok("10.3.4.3:2222".into()));
    assert_eq!(parse::<IpAddrPort>("[2001:db8::1]:51820").map(|a| a.go_string()), Ok("[2001:db8::1]:51820".into()));
    assert_eq!(parse::<IpAddrPort>("10.3.4.3"), Err("not an ip:port".into()));
    assert_eq!(parse::<IpAddrPort>("10.3.4.3:x"), Err("invalid port \"x\" parsing \"10.3.4.3:x\"".into()));
    assert_eq!(
        parse::<IpAddrPort>("2001:db8::1:80"),
        Err("invalid ip:port \"2001:db8::1:80\", IPv6 addresses must be surrounded by square brackets".into())
    );
}

#[test]
fn empty_text_is_the_zero_value() {
    // `FromStr` is Go's `UnmarshalText`, which reads `""` as the zero value (a config's `""`).
    assert_eq!(parse::<IpAddr>(""), Ok(IpAddr::Invalid));
    assert_eq!(parse::<IpPrefix>(""), Ok(IpPrefix::default()));
    assert_eq!(parse::<IpAddrPort>(""), Ok(IpAddrPort::default()));
    assert_eq!(parse::<HardwareAddr>(""), Ok(HardwareAddr(Some(Vec::new()))));
    assert_eq!(parse::<FailOverMac>(""), Ok(FailOverMac(0)));
    assert_eq!(parse::<BondMode>(""), Err(" does not belong to BondMode values".into()));
}

#[test]
fn hardware_addr_text() {
    let duid = parse::<HardwareAddr>("00:01:00:01:23:45:67:89:AB:cd:ef:01:23:45").expect("parses");
    assert_eq!(duid.go_string(), "00:01:00:01:23:45:67:89:ab:cd:ef:01:23:45");
    assert_eq!(parse::<HardwareAddr>("2e3c4d5e6f70").map(|h| h.go_string()), Ok("2e:3c:4d:5e:6f:70".into()));
    assert_eq!(parse::<HardwareAddr>("2e:3"), Err("encoding/hex: odd length hex string".into()));
    assert_eq!(parse::<HardwareAddr>("zz"), Err("encoding/hex: invalid byte: U+007A 'z'".into()));
}

#[test]
fn enums_like_enumer() {
    assert_eq!(parse::<BondMode>("802.3AD"), Ok(BondMode(4)));
    assert_eq!(parse::<BondMode>("Balance-RR"), Ok(BondMode(0)));
    assert_eq!(parse::<BondMode>("lacp"), Err("lacp does not belong to BondMode values".into()));
    assert_eq!(parse::<RoutingTable>("100"), Ok(RoutingTable(100)));
    assert_eq!(parse::<RoutingTable>("MAIN"), Ok(RoutingTable(254)));
    assert_eq!(parse::<RoutingTable>("253"), Err("253 does not belong to RoutingTable values".into()));
    assert_eq!(RoutingTable(300).to_string(), "RoutingTable(300)");
    assert_eq!(RoutingTable(0).to_string(), "unspec");
    assert_eq!(Protocol(0).to_string(), "Protocol(0)");
    assert_eq!(parse::<FailOverMac>("2"), Ok(FailOverMac(2)));
    assert_eq!(parse::<FailOverMac>(""), Ok(FailOverMac(0)));
    assert_eq!(parse::<FailOverMac>("Active"), Err("invalid fail_over_mac value Active".into()));
}

#[test]
fn bond_decodes_enums_and_prints_names() {
    let bond: BondConfig = doc(
        "apiVersion: v1alpha1\nkind: BondConfig\nname: bond0\nlinks: [eth0]\nbondMode: ACTIVE-BACKUP\nfailOverMac: 1\n\
         arpIpTargets:\n  - 10.15.0.1\nhardwareAddr: 2E:3C:4D:5E:6F:70\n",
    );
    assert_eq!(bond.bond_mode, Some(BondMode(1)));
    assert_eq!(bond.fail_over_mac, Some(FailOverMac(1)));
    assert_eq!(bond.hardware_addr.0, Some(vec![0x2e, 0x3c, 0x4d, 0x5e, 0x6f, 0x70]));
    assert_eq!(
        emit(&bond),
        "apiVersion: v1alpha1\nkind: BondConfig\nname: bond0\nhardwareAddr: 2e:3c:4d:5e:6f:70\nlinks:\n    - eth0\n\
         bondMode: active-backup\narpIpTargets:\n    - 10.15.0.1\nfailOverMac: active\n"
    );
}

#[test]
fn bad_enum_and_address_values_are_errors() {
    let err = doc_err::<BondConfig>("apiVersion: v1alpha1\nkind: BondConfig\nname: b\nbondMode: lacp\n");
    assert!(err.ends_with("lacp does not belong to BondMode values"), "{err}");
    let err =
        doc_err::<RoutingRuleConfig>("apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"1\"\nsrc: 10.0.0.0\n");
    assert!(err.ends_with("netip.ParsePrefix(\"10.0.0.0\"): no '/'"), "{err}");
    let err = doc_err::<NetworkRuleConfig>(
        "apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n  ports: [80-x]\n  protocol: tcp\n",
    );
    assert!(err.ends_with("invalid port range: \"80-x\""), "{err}");
}

#[test]
fn port_ranges() {
    let rule: NetworkRuleConfig = doc(
        "apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n  ports: [53, \"8000-9000\", 10-10]\n  protocol: UDP\n",
    );
    let ports = rule.port_selector.ports.get().0;
    assert_eq!(
        ports,
        vec![PortRange { lo: 53, hi: 53 }, PortRange { lo: 8000, hi: 9000 }, PortRange { lo: 10, hi: 10 }]
    );
    assert_eq!(rule.port_selector.protocol, Protocol(17));
    assert_eq!(
        emit(&rule),
        "apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n    ports:\n        - 53\n        - 8000-9000\n        - 10\n    protocol: udp\ningress: []\n"
    );
}

#[test]
fn vrf_prints_unspec_table_and_routing_rule_defaults() {
    let vrf: VrfConfig = doc("apiVersion: v1alpha1\nkind: VRFConfig\nname: vrf-red\n");
    assert_eq!(emit(&vrf), "apiVersion: v1alpha1\nkind: VRFConfig\nname: vrf-red\ntable: unspec\n");
    let rr: RoutingRuleConfig = doc("apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"10\"\ntable: main\n");
    assert_eq!(emit(&rr), "apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"10\"\ntable: main\n");
}
