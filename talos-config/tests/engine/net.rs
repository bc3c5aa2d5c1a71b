//! `talos_config::net`: Go `netip.ParsePrefix` parsing and error texts, Go `Prefix.String`,
//! overlap checks (symmetry, brute force), and the lab's pod/service-subnet overlap helper.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;
use talos_config::Config;
use talos_config::net::{Prefix, overlaps};
use talos_config::subnets::{SubnetCheck, subnets_overlap_host};
use talos_config::{Error, ErrorKind};

/// `s.parse::<Prefix>()` (the public door, `FromStr`) with the error's text, which is Go's.
fn parse_prefix(s: &str) -> Result<Prefix, String> {
    s.parse::<Prefix>().map_err(|e: Error| {
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{s}: {e}");
        e.to_string()
    })
}

fn p(s: &str) -> Prefix {
    parse_prefix(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// Parsing and printing

#[test]
fn parses_and_prints_like_go() {
    let cases = [
        ("10.244.0.0/16", "10.244.0.0/16"),
        ("10.96.0.0/12", "10.96.0.0/12"),
        ("0.0.0.0/0", "0.0.0.0/0"),
        ("255.255.255.255/32", "255.255.255.255/32"),
        // host bits are kept as written
        ("10.244.1.2/16", "10.244.1.2/16"),
        ("192.168.0.1/0", "192.168.0.1/0"),
        // IPv6: lowercase, no leading zeros, longest zero run (first on a tie) as ::
        ("2001:0DB8:0000:0000:0000:0000:0000:0001/32", "2001:db8::1/32"),
        ("::/0", "::/0"),
        ("::1/128", "::1/128"),
        ("fd00::/8", "fd00::/8"),
        ("1:0:0:1:0:0:0:0/64", "1:0:0:1::/64"),
        ("1:0:0:2:0:0:3:4/64", "1::2:0:0:3:4/64"),
        ("1:0:1:0:1:0:1:0/64", "1:0:1:0:1:0:1:0/64"),
        ("1:2:3:4:5:6:7::/128", "1:2:3:4:5:6:7:0/128"),
        ("::2:3:4:5:6:7:8/128", "0:2:3:4:5:6:7:8/128"),
        // embedded IPv4; IPv4-mapped stays IPv6 and prints dotted
        ("::ffff:10.0.0.0/104", "::ffff:10.0.0.0/104"),
        ("::ffff:a00:0/104", "::ffff:10.0.0.0/104"),
        ("::ffff:0:0/96", "::ffff:0.0.0.0/96"),
        ("::1.2.3.4/128", "::102:304/128"),
        ("1:2:3:4:5:6:1.2.3.4/120", "1:2:3:4:5:6:102:304/120"),
        ("64:ff9b::192.0.2.33/96", "64:ff9b::c000:221/96"),
        // only the last '/' separates the length
        ("10.0.0.0/8", "10.0.0.0/8"),
    ];
    for (input, want) in cases {
        assert_eq!(p(input).to_string(), want, "{input}");
    }
}

#[test]
fn prefix_accessors() {
    let x = p("10.244.1.2/16");
    assert_eq!(x.addr(), IpAddr::V4(Ipv4Addr::new(10, 244, 1, 2)));
    assert_eq!(x.bits(), 16);
    assert!(x.is_ipv4());
    assert_eq!(x.masked(), p("10.244.0.0/16"));
    assert_ne!(x, x.masked());
    assert_eq!(p("::ffff:10.1.2.3/104").masked().to_string(), "::ffff:10.0.0.0/104");
    assert!(!p("::ffff:10.1.2.3/104").is_ipv4());
    assert_eq!(p("2001:db8::ff/0").masked().to_string(), "::/0");
    assert_eq!("fd00::1/64".parse::<Prefix>(), Ok(p("fd00::1/64")));
    assert_eq!(Prefix::new(IpAddr::V6(Ipv6Addr::LOCALHOST), 129), None);
    assert_eq!(Prefix::new(IpAddr::V6(Ipv6Addr::LOCALHOST), 128).map(|x| x.to_string()), Some("::1/128".into()));
}

#[test]
fn go_error_texts() {
    let cases = [
        // ParsePrefix's own errors
        ("x", r#"netip.ParsePrefix("x"): no '/'"#),
        ("", r#"netip.ParsePrefix(""): no '/'"#),
        ("10.244.0.0", r#"netip.ParsePrefix("10.244.0.0"): no '/'"#),
        ("10.0.0.0/33", r#"netip.ParsePrefix("10.0.0.0/33"): prefix length out of range"#),
        ("2001::/129", r#"netip.ParsePrefix("2001::/129"): prefix length out of range"#),
        ("::ffff:1.2.3.4/33", "::ffff:1.2.3.4/33"), // valid: a mapped address is IPv6 (128 bits)
        (
            "10.0.0.0/99999999999999999999",
            r#"netip.ParsePrefix("10.0.0.0/99999999999999999999"): bad bits after slash: "99999999999999999999""#,
        ),
        (
            "10.0.0.0/9223372036854775807",
            r#"netip.ParsePrefix("10.0.0.0/9223372036854775807"): prefix length out of range"#,
        ),
        ("10.0.0.0/", r#"netip.ParsePrefix("10.0.0.0/"): bad bits after slash: """#),
        ("10.0.0.0/q", r#"netip.ParsePrefix("10.0.0.0/q"): bad bits after slash: "q""#),
        ("10.0.0.0/+8", r#"netip.ParsePrefix("10.0.0.0/+8"): bad bits after slash: "+8""#),
        ("10.0.0.0/+", r#"netip.ParsePrefix("10.0.0.0/+"): bad bits after slash: "+""#),
        ("10.0.0.0/-", r#"netip.ParsePrefix("10.0.0.0/-"): bad bits after slash: "-""#),
        ("10.0.0.0/-1", r#"netip.ParsePrefix("10.0.0.0/-1"): bad bits after slash: "-1""#),
        ("10.0.0.0/-0", r#"netip.ParsePrefix("10.0.0.0/-0"): bad bits after slash: "-0""#),
        ("10.0.0.0/08", r#"netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#),
        ("10.0.0.0/00", r#"netip.ParsePrefix("10.0.0.0/00"): bad bits after slash: "00""#),
        ("10.0.0.0/8 ", r#"netip.ParsePrefix("10.0.0.0/8 "): bad bits after slash: "8 ""#),
        ("10.0.0.0/255.0.0.0", r#"netip.ParsePrefix("10.0.0.0/255.0.0.0"): bad bits after slash: "255.0.0.0""#),
        ("fe80::1%eth0/64", r#"netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix"#),
        ("2001:db8::%a/32", r#"netip.ParsePrefix("2001:db8::%a/32"): IPv6 zones cannot be present in a prefix"#),
        // ParseAddr errors, wrapped
        ("/24", r#"netip.ParsePrefix("/24"): ParseAddr(""): unable to parse IP"#),
        ("foo/8", r#"netip.ParsePrefix("foo/8"): ParseAddr("foo"): unable to parse IP"#),
        ("%eth0/8", r#"netip.ParsePrefix("%eth0/8"): ParseAddr("%eth0"): missing IPv6 address"#),
        ("1.2.3.4/5/6", r#"netip.ParsePrefix("1.2.3.4/5/6"): ParseAddr("1.2.3.4/5"): unexpected character (at "/5")"#),
        (
            "010.0.0.0/8",
            r#"netip.ParsePrefix("010.0.0.0/8"): ParseAddr("010.0.0.0"): IPv4 field has octet with leading zero"#,
        ),
        (
            "10.00.0.0/8",
            r#"netip.ParsePrefix("10.00.0.0/8"): ParseAddr("10.00.0.0"): IPv4 field has octet with leading zero"#,
        ),
        ("1.257.1.1/24", r#"netip.ParsePrefix("1.257.1.1/24"): ParseAddr("1.257.1.1"): IPv4 field has value >255"#),
        ("1.2.3/24", r#"netip.ParsePrefix("1.2.3/24"): ParseAddr("1.2.3"): IPv4 address too short"#),
        ("1.2.3.4.5/24", r#"netip.ParsePrefix("1.2.3.4.5/24"): ParseAddr("1.2.3.4.5"): IPv4 address too long"#),
        (
            ".1.2.3/24",
            r#"netip.ParsePrefix(".1.2.3/24"): ParseAddr(".1.2.3"): IPv4 field must have at least one digit (at ".1.2.3")"#,
        ),
        (
            "1..2.3/24",
            r#"netip.ParsePrefix("1..2.3/24"): ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")"#,
        ),
        (
            "1.2.3.4./24",
            r#"netip.ParsePrefix("1.2.3.4./24"): ParseAddr("1.2.3.4."): IPv4 field must have at least one digit (at ".")"#,
        ),
        (
            "1.1.1.0%a/24",
            r#"netip.ParsePrefix("1.1.1.0%a/24"): ParseAddr("1.1.1.0%a"): unexpected character (at "%a")"#,
        ),
        ("1.2.3.é/8", r#"netip.ParsePrefix("1.2.3.é/8"): ParseAddr("1.2.3.é"): unexpected character (at "é")"#),
        (
            "0x7f.0.0.1/8",
            r#"netip.ParsePrefix("0x7f.0.0.1/8"): ParseAddr("0x7f.0.0.1"): unexpected character (at "x7f.0.0.1")"#,
        ),
        (
            "::gggg/1",
            r#"netip.ParsePrefix("::gggg/1"): ParseAddr("::gggg"): each colon-separated field must have at least one digit (at "gggg")"#,
        ),
        (
            "12345::/16",
            r#"netip.ParsePrefix("12345::/16"): ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#,
        ),
        (
            "00000::/16",
            r#"netip.ParsePrefix("00000::/16"): ParseAddr("00000::"): each group must have 4 or less digits (at "00000::")"#,
        ),
        (
            "1:2:3:4:5:6:7:8:9/64",
            r#"netip.ParsePrefix("1:2:3:4:5:6:7:8:9/64"): ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")"#,
        ),
        ("1:2:3/64", r#"netip.ParsePrefix("1:2:3/64"): ParseAddr("1:2:3"): address string too short"#),
        ("1::2::3/64", r#"netip.ParsePrefix("1::2::3/64"): ParseAddr("1::2::3"): multiple :: in address (at ":3")"#),
        (
            "1:2:3:4:5:6:7:8::/64",
            r#"netip.ParsePrefix("1:2:3:4:5:6:7:8::/64"): ParseAddr("1:2:3:4:5:6:7:8::"): the :: must expand to at least one field of zeros"#,
        ),
        ("1:/64", r#"netip.ParsePrefix("1:/64"): ParseAddr("1:"): colon must be followed by more characters (at ":")"#),
        (
            ":1/64",
            r#"netip.ParsePrefix(":1/64"): ParseAddr(":1"): each colon-separated field must have at least one digit (at ":1")"#,
        ),
        (
            "1:2x::/64",
            r#"netip.ParsePrefix("1:2x::/64"): ParseAddr("1:2x::"): unexpected character, want colon (at "x::")"#,
        ),
        ("fe80::1%/64", r#"netip.ParsePrefix("fe80::1%/64"): ParseAddr("fe80::1%"): zone must be a non-empty string"#),
        (
            "1:2:1.2.3.4/64",
            r#"netip.ParsePrefix("1:2:1.2.3.4/64"): ParseAddr("1:2:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")"#,
        ),
        (
            "1:2:3:4:5:6:7::1.2.3.4/64",
            r#"netip.ParsePrefix("1:2:3:4:5:6:7::1.2.3.4/64"): ParseAddr("1:2:3:4:5:6:7::1.2.3.4"): too many hex fields to fit an embedded IPv4 at the end of the address (at "1.2.3.4")"#,
        ),
        (
            "::ffff:1.2.3.04/64",
            r#"netip.ParsePrefix("::ffff:1.2.3.04/64"): ParseAddr("::ffff:1.2.3.04"): IPv4 field has octet with leading zero"#,
        ),
        (
            "::ffff:1.2.3/64",
            r#"netip.ParsePrefix("::ffff:1.2.3/64"): ParseAddr("::ffff:1.2.3"): IPv4 address too short"#,
        ),
        (
            "::ffff:1.2.3.4%eth0/64",
            r#"netip.ParsePrefix("::ffff:1.2.3.4%eth0/64"): IPv6 zones cannot be present in a prefix"#,
        ),
        (
            "::ffff:1.2.3.x%eth0/64",
            r#"netip.ParsePrefix("::ffff:1.2.3.x%eth0/64"): ParseAddr("::ffff:1.2.3.x%eth0"): unexpected character (at "x")"#,
        ),
        ("a\"b/8", r#"netip.ParsePrefix("a\"b/8"): ParseAddr("a\"b"): unable to parse IP"#),
    ];
    for (input, want) in cases {
        let got = match parse_prefix(input) {
            Ok(x) => x.to_string(),
            Err(e) => e,
        };
        assert_eq!(got, want, "{input}");
    }
}

#[test]
fn ipnetwork_leniencies_are_refused() {
    // `ipnetwork`'s own FromStr accepts these (no '/' = host route, netmask notation, a sign or
    // leading zero in the length); Go's ParsePrefix, and so we, do not.
    for (s, ipnetwork_reads) in [
        ("10.0.0.0", "10.0.0.0/32"),
        ("10.0.0.0/255.0.0.0", "10.0.0.0/8"),
        ("10.0.0.0/+8", "10.0.0.0/8"),
        ("10.0.0.0/08", "10.0.0.0/8"),
    ] {
        assert_eq!(s.parse::<ipnetwork::IpNetwork>().map(|n| n.to_string()), Ok(ipnetwork_reads.to_string()), "{s}");
        assert!(parse_prefix(s).is_err(), "{s}");
    }
}

// ---------------------------------------------------------------------------------------------
// Overlaps

#[test]
fn overlap_table() {
    let cases = [
        ("10.244.0.0/16", "10.244.0.0/16", true),
        ("10.244.0.0/16", "10.244.3.0/24", true),
        ("10.244.0.0/16", "10.245.0.0/16", false),
        ("10.96.0.0/12", "10.100.0.0/16", true),
        ("10.96.0.0/12", "10.112.0.0/16", false),
        ("10.96.0.0/12", "10.95.255.255/32", false),
        ("10.96.0.0/12", "10.111.255.255/32", true),
        ("10.0.0.0/8", "10.244.0.0/16", true),
        ("0.0.0.0/0", "192.168.1.1/32", true),
        ("10.244.0.0/16", "10.96.0.0/12", false),
        // host bits are ignored
        ("10.244.99.99/16", "10.244.0.1/32", true),
        ("10.0.0.5/30", "10.0.0.7/32", true),
        ("10.0.0.5/30", "10.0.0.8/32", false),
        // families never overlap, not even an IPv4-mapped prefix
        ("0.0.0.0/0", "::/0", false),
        ("10.0.0.0/8", "::ffff:10.0.0.0/104", false),
        ("::ffff:10.0.0.0/104", "::ffff:10.1.0.0/112", true),
        ("fd00::/8", "fd00:10:244::/56", true),
        ("fd00::/8", "fe80::/10", false),
        ("2001:db8::/32", "2001:db8:ffff::1/128", true),
    ];
    for (a, b, want) in cases {
        assert_eq!(overlaps(&p(a), &p(b)), want, "{a} vs {b}");
        assert_eq!(overlaps(&p(b), &p(a)), want, "{b} vs {a}");
    }
}

/// The lab's host ranges (labctl's step 4 compares against these).
fn lab_host_ranges() -> [Prefix; 2] {
    [p("10.244.0.0/16"), p("10.96.0.0/12")]
}

// ---------------------------------------------------------------------------------------------
// subnets_overlap_host

fn config(network: &str) -> Config {
    let yaml = format!("version: v1alpha1\nmachine:\n  type: controlplane\ncluster:\n  network:\n{network}");
    Config::from_bytes(yaml.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn check(path: &str, subnet: &str, defaulted: bool, overlaps: &[&str]) -> SubnetCheck {
    SubnetCheck {
        document: talos_config::DocumentId::legacy(),
        path: talos_config::FieldPath::parse(path),
        subnet: p(subnet),
        defaulted,
        overlaps: overlaps.iter().map(|s| p(s)).collect(),
    }
}

#[test]
fn lab_fixture_overlaps_host() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/controlplane.yaml");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cfg = Config::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let found = subnets_overlap_host(&cfg, &lab_host_ranges()).unwrap();
    assert!(found.any());
    assert_eq!(found.pod_subnets, [check("cluster.network.podSubnets[0]", "10.244.0.0/16", false, &["10.244.0.0/16"])]);
    assert_eq!(
        found.service_subnets,
        [check("cluster.network.serviceSubnets[0]", "10.96.0.0/12", false, &["10.96.0.0/12"])]
    );
}

#[test]
fn disjoint_subnets() {
    let cfg = config("    podSubnets: [10.200.0.0/16]\n    serviceSubnets: [10.128.0.0/12]\n");
    let found = subnets_overlap_host(&cfg, &lab_host_ranges()).unwrap();
    assert!(!found.any());
    assert_eq!(found.pod_subnets, [check("cluster.network.podSubnets[0]", "10.200.0.0/16", false, &[])]);
    assert_eq!(found.service_subnets, [check("cluster.network.serviceSubnets[0]", "10.128.0.0/12", false, &[])]);
}

#[test]
fn pod_subnet_inside_host_service_range() {
    let cfg = config("    podSubnets: [10.100.0.0/16, 'fd00:10:244::/56']\n    serviceSubnets: [10.0.0.0/8]\n");
    let found = subnets_overlap_host(&cfg, &lab_host_ranges()).unwrap();
    assert!(found.any());
    assert_eq!(
        found.pod_subnets,
        [
            check("cluster.network.podSubnets[0]", "10.100.0.0/16", false, &["10.96.0.0/12"]),
            check("cluster.network.podSubnets[1]", "fd00:10:244::/56", false, &[]),
        ]
    );
    assert_eq!(
        found.service_subnets,
        [check("cluster.network.serviceSubnets[0]", "10.0.0.0/8", false, &["10.244.0.0/16", "10.96.0.0/12"])]
    );
    let paths: Vec<String> = found.iter().map(|c| c.path.to_string()).collect();
    assert_eq!(
        paths,
        ["cluster.network.podSubnets[0]", "cluster.network.podSubnets[1]", "cluster.network.serviceSubnets[0]"]
    );
}

#[test]
fn empty_lists_use_talos_defaults() {
    for cfg in [
        config("    podSubnets: []\n    dnsDomain: cluster.local\n"),
        Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n").unwrap(),
        Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\ncluster: {}\n").unwrap(),
    ] {
        let found = subnets_overlap_host(&cfg, &lab_host_ranges()).unwrap();
        assert_eq!(found.pod_subnets, [check("cluster.network.podSubnets", "10.244.0.0/16", true, &["10.244.0.0/16"])]);
        assert_eq!(
            found.service_subnets,
            [check("cluster.network.serviceSubnets", "10.96.0.0/12", true, &["10.96.0.0/12"])]
        );
    }
}

#[test]
fn custom_host_ranges() {
    let cfg = config("    podSubnets: [10.244.0.0/16]\n    serviceSubnets: [10.96.0.0/12]\n");
    let found = subnets_overlap_host(&cfg, &[p("10.5.0.0/24")]).unwrap();
    assert!(!found.any());
    let found = subnets_overlap_host(&cfg, &[]).unwrap();
    assert!(!found.any());
}

#[test]
fn unparsable_subnet_is_an_error() {
    let cfg = config("    podSubnets: [10.244.0.0/16, 10.244.0.0]\n");
    assert_eq!(
        subnets_overlap_host(&cfg, &lab_host_ranges()).map_err(|e| e.to_string()),
        Err(r#"cluster.network.podSubnets[1]: netip.ParsePrefix("10.244.0.0"): no '/'"#.to_string())
    );
    let cfg = config("    serviceSubnets: [010.96.0.0/12]\n");
    assert_eq!(
        subnets_overlap_host(&cfg, &lab_host_ranges()).map_err(|e| e.to_string()),
        Err(r#"cluster.network.serviceSubnets[0]: netip.ParsePrefix("010.96.0.0/12"): ParseAddr("010.96.0.0"): IPv4 field has octet with leading zero"#.to_string())
    );
}

#[test]
fn no_v1alpha1_document() {
    let cfg = Config::from_bytes(b"apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n").unwrap();
    assert_eq!(
        subnets_overlap_host(&cfg, &lab_host_ranges()).map_err(|e| e.to_string()),
        Err("the config has no v1alpha1 document (no cluster.network)".to_string())
    );
}

// ---------------------------------------------------------------------------------------------
// Properties

/// A prefix inside 10.0.0.0/24 with a length of 24..=32 and arbitrary host bits.
fn small_prefix() -> impl Strategy<Value = (u8, u8)> {
    (any::<u8>(), 24u8..=32)
}

fn small(last: u8, bits: u8) -> Prefix {
    Prefix::new(IpAddr::V4(Ipv4Addr::new(10, 0, 0, last)), bits).unwrap()
}

/// Brute force: the addresses of 10.0.0.0/24 the prefix covers.
fn covered(last: u8, bits: u8) -> Vec<bool> {
    let host_bits = 32 - u32::from(bits);
    let mask: u32 = if host_bits >= 8 { 0 } else { 0xff << host_bits };
    (0..=255u32).map(|a| (a & mask) == (u32::from(last) & mask)).collect()
}

fn v6_any() -> impl Strategy<Value = Ipv6Addr> {
    // Small groups so that zero runs (and so `::` compression) are frequent.
    prop::array::uniform8(prop_oneof![Just(0u16), Just(1u16), any::<u16>()]).prop_map(Ipv6Addr::from)
}

/// Dotted-quad-like text: mostly valid octets, sometimes bad ones or a wrong count.
fn v4_text() -> impl Strategy<Value = String> {
    let octet = prop_oneof![
        8 => prop::sample::select(&["0", "1", "10", "99", "255"][..]),
        1 => prop::sample::select(&["256", "01", "00", "", "a", "1000"][..]),
    ];
    let count = prop_oneof![8 => Just(4usize), 1 => 3usize..=5];
    count.prop_flat_map(move |n| prop::collection::vec(octet.clone(), n)).prop_map(|v| v.join("."))
}

/// IPv6-like text: 0..=9 groups (mostly valid), an optional `::` somewhere, an optional dotted
/// tail.
fn v6_text() -> impl Strategy<Value = String> {
    let group = prop_oneof![
        8 => prop::sample::select(&["0", "1", "ff", "abcd", "ABCD", "0000", "ffff"][..]),
        1 => prop::sample::select(&["12345", "00000", "g", "", "1x"][..]),
    ];
    (prop::collection::vec(group, 0..=9), prop::option::of(0usize..=9), prop::option::weighted(0.2, v4_text()))
        .prop_map(|(groups, ellipsis, tail)| {
            let mut s = match ellipsis {
                Some(at) => {
                    let at = at.min(groups.len());
                    format!("{}::{}", groups[..at].join(":"), groups[at..].join(":"))
                }
                None => groups.join(":"),
            };
            if let Some(v4) = tail {
                if !(s.is_empty() || s.ends_with(':')) {
                    s.push(':');
                }
                s.push_str(&v4);
            }
            s
        })
}

/// Address-like text: IPv6-ish, IPv4-ish, or free text.
fn address_text() -> impl Strategy<Value = String> {
    prop_oneof![3 => v6_text(), 2 => v4_text(), 1 => "[0-9a-f.:]{1,41}"]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn overlap_is_symmetric_and_matches_brute_force(a in small_prefix(), b in small_prefix()) {
        let (pa, pb) = (small(a.0, a.1), small(b.0, b.1));
        let (ca, cb) = (covered(a.0, a.1), covered(b.0, b.1));
        let brute = ca.iter().zip(&cb).any(|(x, y)| *x && *y);
        prop_assert_eq!(overlaps(&pa, &pb), brute);
        prop_assert_eq!(overlaps(&pb, &pa), brute);
        // contains agrees with the enumeration too
        for (i, want) in ca.iter().enumerate() {
            prop_assert_eq!(pa.contains(IpAddr::V4(Ipv4Addr::new(10, 0, 0, i as u8))), *want);
        }
    }

    #[test]
    fn overlap_is_symmetric_on_any_prefixes(
        a in (any::<u32>(), 0u8..=32), b in (any::<u32>(), 0u8..=32),
        c in (v6_any(), 0u8..=128), d in (v6_any(), 0u8..=128),
    ) {
        let pa = Prefix::new(IpAddr::V4(Ipv4Addr::from(a.0)), a.1).unwrap();
        let pb = Prefix::new(IpAddr::V4(Ipv4Addr::from(b.0)), b.1).unwrap();
        let pc = Prefix::new(IpAddr::V6(c.0), c.1).unwrap();
        let pd = Prefix::new(IpAddr::V6(d.0), d.1).unwrap();
        prop_assert_eq!(overlaps(&pa, &pb), overlaps(&pb, &pa));
        prop_assert_eq!(overlaps(&pc, &pd), overlaps(&pd, &pc));
        prop_assert!(!overlaps(&pa, &pc));
        prop_assert!(overlaps(&pa, &pa.masked()));
        // the shorter prefix contains the longer one's network exactly when they overlap
        let (short, long) = if pa.bits() <= pb.bits() { (pa, pb) } else { (pb, pa) };
        prop_assert_eq!(overlaps(&pa, &pb), short.contains(long.masked().addr()));
    }

    #[test]
    fn display_round_trips(v4 in (any::<u32>(), 0u8..=32), v6 in (v6_any(), 0u8..=128)) {
        for x in [
            Prefix::new(IpAddr::V4(Ipv4Addr::from(v4.0)), v4.1).unwrap(),
            Prefix::new(IpAddr::V6(v6.0), v6.1).unwrap(),
        ] {
            prop_assert_eq!(parse_prefix(&x.to_string()), Ok(x));
        }
    }

    #[test]
    fn never_panics_and_errors_name_the_input(s in "[0-9a-fA-F.:/%x+ -]{0,45}") {
        match parse_prefix(&s) {
            Ok(x) => prop_assert_eq!(parse_prefix(&x.to_string()), Ok(x)),
            Err(e) => {
                let prefix = format!("netip.ParsePrefix({}): ", talos_go::quote(&s));
                prop_assert!(e.starts_with(&prefix), "{}", e);
            }
        }
    }

    /// Go's address grammar without zones is the same as Rust's `std::net` parsers (both follow
    /// RFC 4291 text forms and refuse IPv4 leading zeros); only the error texts differ.
    #[test]
    fn addresses_accepted_like_std(addr in address_text(), bits in 0u8..=128) {
        let ours = parse_prefix(&format!("{addr}/{bits}")).map(|x| x.addr());
        let std = addr.parse::<IpAddr>();
        match (&ours, &std) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(e), Ok(b)) => prop_assert!(
                e.ends_with("prefix length out of range") && b.is_ipv4() && bits > 32,
                "{} vs std {}", e, b
            ),
            (Ok(a), Err(_)) => prop_assert!(false, "we accepted {} as {}, std refuses", addr, a),
            (Err(_), Err(_)) => {}
        }
    }
}
