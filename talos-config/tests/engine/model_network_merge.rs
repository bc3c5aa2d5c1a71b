//! Merge behaviour of the network documents (Go `merge.Merge` rules, docs/merge.md §7/§8).

use crate::model_network_util;

use model_network_util::*;
use talos_config::model::network::types::{IpPrefix, PortRange};
use talos_config::model::network::{
    BondConfig, DummyLinkConfig, EthernetConfig, IngressRule, LinkAliasConfig, LinkConfig, NetworkRuleConfig,
    ResolverConfig, RoutingRuleConfig,
};
use talos_config::testing::lookup;
use talos_config::testing::{DeletePath, Value};

const NAMED: &[&str] = &[
    "BlackholeRouteConfig",
    "BondConfig",
    "BridgeConfig",
    "DHCPv4Config",
    "DHCPv6Config",
    "DummyLinkConfig",
    "EthernetConfig",
    "HCloudVIPConfig",
    "Layer2VIPConfig",
    "LinkAliasConfig",
    "LinkConfig",
    "NetworkRuleConfig",
    "RoutingRuleConfig",
    "StaticHostConfig",
    "TCPProbeConfig",
    "VLANConfig",
    "VRFConfig",
    "WireguardConfig",
];
const UNNAMED: &[&str] = &[
    "HostnameConfig",
    "KubeSpanConfig",
    "KubeSpanEndpointsConfig",
    "NetworkDefaultActionConfig",
    "ResolverConfig",
    "TimeSyncConfig",
];

#[test]
fn registry_matches_appendix_b() {
    for kind in NAMED {
        assert!(lookup(kind).is_some_and(|e| e.named), "{kind}");
    }
    for kind in UNNAMED {
        assert!(lookup(kind).is_some_and(|e| !e.named), "{kind}");
    }
    // The default release's kinds (v1.14 adds BGPInstance, HTTPProbe and Veth).
    let default_kinds =
        talos_config::model::network::KINDS.iter().filter(|e| e.since <= talos_config::Release::DEFAULT);
    assert_eq!(default_kinds.count(), NAMED.len() + UNNAMED.len());
    for later in ["BGPConfig", "VethConfig", "VXLANConfig", "MacVLANConfig", "HTTPProbeConfig", "ProbeConfig"] {
        assert!(lookup(later).is_none(), "{later}");
    }
    assert_eq!(lookup("NetworkRuleConfig").map(|e| (e.go_type)()), Some("*network.RuleConfigV1Alpha1".into()));
    assert_eq!(
        lookup("KubeSpanEndpointsConfig").map(|e| (e.go_type)()),
        Some("*network.KubespanEndpointsConfigV1Alpha1".into())
    );
}

#[test]
fn link_config_decodes_exact_fields() {
    let link: LinkConfig = doc("apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nmtu: 1500\nup: false\n\
         addresses:\n  - address: 10.0.42.136/24\n    routePriority: 0\nroutes:\n  - gateway: 10.0.42.1\n    table: 100\n    metric: 7\n");
    assert_eq!(link.name, "eth0");
    assert_eq!(link.common.mtu, 1500);
    assert_eq!(link.common.up, Some(false));
    assert_eq!(link.common.addresses.len(), 1);
    assert_eq!(link.common.addresses[0].address.0, "10.0.42.136/24".parse::<IpPrefix>().expect("prefix"));
    assert_eq!(link.common.addresses[0].route_priority, Some(0));
    assert_eq!(link.common.routes[0].metric, 7);
    assert_eq!(link.common.routes[0].table.0, 100);
    assert_eq!(
        emit(&link),
        "apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nup: false\nmtu: 1500\naddresses:\n    - address: 10.0.42.136/24\n      routePriority: 0\n\
         routes:\n    - gateway: 10.0.42.1\n      metric: 7\n      table: \"100\"\n"
    );
}

#[test]
fn unknown_keys_inside_links_are_reported() {
    let roots = talos_yaml::parse::parse_documents(
        b"apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\naddresses:\n  - address: 1.2.3.4/32\n    bogus: 1\n",
    )
    .expect("parses");
    let summary = LinkConfig::unknown_keys(&roots[0]).expect("ok").expect("some");
    assert_eq!(talos_yaml::emit_v4::emit_v4(&summary), "addresses:\n    - bogus: 1\n");
}

#[test]
fn link_addresses_append_and_delete_by_text() {
    let mut left: LinkConfig =
        doc("apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nup: true\naddresses:\n  - address: 10.0.42.136/24\n");
    let right: LinkConfig =
        doc("apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nup: false\naddresses:\n  - address: 2001:db8::1/64\n");
    merge_docs(&mut left, &right).expect("merges");
    assert_eq!(left.common.up, Some(false));
    assert_eq!(
        left.common.addresses.iter().map(|a| a.address.0.go_string()).collect::<Vec<_>>(),
        ["10.0.42.136/24", "2001:db8::1/64"]
    );
    let segments = vec!["addresses".to_string(), "[0]".to_string()];
    let path = DeletePath { segments: &segments, element: Some(("address", "10.0.42.136/24")) };
    left.delete(path).expect("element deleted");
    assert_eq!(left.common.addresses.len(), 1);
    assert_eq!(left.delete(path), Err("lookup failed".to_string()));
}

#[test]
fn routing_rule_merge_fails_like_upstream() {
    let mut left: RoutingRuleConfig =
        doc("apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"1000\"\nsrc: 10.0.0.0/8\ntable: \"100\"\n");
    let right: RoutingRuleConfig =
        doc("apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"1000\"\naction: blackhole\n");
    assert_eq!(
        merge_docs(&mut left, &right),
        Err("merge field network.RoutingRuleConfigV1Alpha1.RuleSrc: merge field network.Prefix.Prefix: \
             merge field netip.Prefix.ip: merge field netip.Addr.addr: merge field netip.uint128.hi: \
             merge not possible, left 0 is not settable"
            .to_string())
    );
    // An IPv6 source: the high half of the address is printed.
    let mut left: RoutingRuleConfig =
        doc("apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"7\"\nsrc: 2001:db8::/32\ntable: \"100\"\n");
    let err = merge_docs(&mut left, &right).expect_err("fails");
    assert!(err.ends_with("merge not possible, left 2306139568115548160 is not settable"), "{err}");
}

#[test]
fn network_rule_lists_are_replaced() {
    let mut left: NetworkRuleConfig = doc(
        "apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n  ports: [53, 8000-9000]\n  protocol: udp\n\
         ingress:\n  - subnet: 192.168.0.0/16\n    except: 192.168.0.3/32\n",
    );
    let right: NetworkRuleConfig =
        doc("apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n  ports: [80]\n  protocol: tcp\n\
         ingress:\n  - subnet: 10.0.0.0/8\n");
    merge_docs(&mut left, &right).expect("merges");
    assert_eq!(left.port_selector.ports.get().0, vec![PortRange { lo: 80, hi: 80 }]);
    assert_eq!(left.port_selector.protocol.0, 6);
    let ingress: Vec<IngressRule> = left.ingress.get().0;
    assert_eq!(ingress.len(), 1);
    assert_eq!(ingress[0].subnet.0.go_string(), "10.0.0.0/8");

    // Absent lists keep the left value; `[]` clears.
    let keep: NetworkRuleConfig = doc("apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\n");
    merge_docs(&mut left, &keep).expect("merges");
    assert_eq!(left.port_selector.ports.get().0.len(), 1);
    assert_eq!(left.ingress.get().0.len(), 1);
    let clear: NetworkRuleConfig =
        doc("apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n  ports: []\ningress: []\n");
    merge_docs(&mut left, &clear).expect("merges");
    assert!(left.port_selector.ports.get().is_empty());
    assert!(left.ingress.get().is_empty());
    assert_eq!(
        emit(&left),
        "apiVersion: v1alpha1\nkind: NetworkRuleConfig\nname: r\nportSelector:\n    ports: []\n    protocol: tcp\ningress: []\n"
    );
}

#[test]
fn ethernet_features_false_overwrites() {
    let mut left: EthernetConfig = doc(
        "apiVersion: v1alpha1\nkind: EthernetConfig\nname: enp0s1\nfeatures:\n  tx-checksum-ipv4: true\n  rx-gro: true\n\
         rings:\n  rx: 16\nwakeOnLan: [magic]\n",
    );
    let right: EthernetConfig =
        doc("apiVersion: v1alpha1\nkind: EthernetConfig\nname: enp0s1\nfeatures:\n  tx-checksum-ipv4: false\n\
         rings:\n  rx: 0\n  tx: 4\nwakeOnLan: [unicast]\n");
    merge_docs(&mut left, &right).expect("merges");
    assert_eq!(left.features.get("tx-checksum-ipv4"), Some(&false));
    assert_eq!(left.features.get("rx-gro"), Some(&true));
    let rings = left.rings.clone().expect("rings");
    assert_eq!((rings.rx, rings.tx), (Some(0), Some(4)));
    assert_eq!(
        emit(&left),
        "apiVersion: v1alpha1\nkind: EthernetConfig\nname: enp0s1\nfeatures:\n    rx-gro: true\n    tx-checksum-ipv4: false\n\
         rings:\n    rx: 0\n    tx: 4\nwakeOnLan:\n    - magic\n    - unicast\n"
    );
}

#[test]
fn link_alias_selector_is_always_replaced() {
    let mut left: LinkAliasConfig =
        doc("apiVersion: v1alpha1\nkind: LinkAliasConfig\nname: net0\nselector:\n  match: link.driver == \"e1000\"\n");
    let right: LinkAliasConfig = doc("apiVersion: v1alpha1\nkind: LinkAliasConfig\nname: net0\n");
    merge_docs(&mut left, &right).expect("merges");
    assert_eq!(left.selector.r#match.0, None);
    assert_eq!(emit(&left), "apiVersion: v1alpha1\nkind: LinkAliasConfig\nname: net0\n");
}

#[test]
fn pointers_and_hardware_addresses() {
    let mut left: BondConfig =
        doc("apiVersion: v1alpha1\nkind: BondConfig\nname: b\nmiimon: 100\nlinks: [eth0]\nbondMode: 802.3ad\n");
    let right: BondConfig =
        doc("apiVersion: v1alpha1\nkind: BondConfig\nname: b\nmiimon: 0\nlinks: [eth1]\nbondMode: balance-rr\n");
    merge_docs(&mut left, &right).expect("merges");
    assert_eq!(left.miimon, Some(0));
    assert_eq!(left.links, ["eth0", "eth1"]);
    assert_eq!(left.bond_mode.map(|m| m.0), Some(0));

    let mut left: DummyLinkConfig =
        doc("apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: d\nhardwareAddr: 2e:3c:4d:5e:6f:70\n");
    let keep: DummyLinkConfig = doc("apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: d\n");
    merge_docs(&mut left, &keep).expect("merges");
    assert_eq!(left.hardware_addr.go_string(), "2e:3c:4d:5e:6f:70");
    let replace: DummyLinkConfig = doc("apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: d\nhardwareAddr: 00:11\n");
    merge_docs(&mut left, &replace).expect("merges");
    assert_eq!(left.hardware_addr.go_string(), "00:11");
}

#[test]
fn resolver_nameservers_append() {
    let mut left: ResolverConfig = doc(
        "apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n  - address: 10.0.0.1\nsearchDomains:\n  disableDefault: true\n",
    );
    let right: ResolverConfig = doc(
        "apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n  - address: 2001:4860:4860::8888\nsearchDomains:\n  domains: [example.org]\n",
    );
    merge_docs(&mut left, &right).expect("merges");
    assert_eq!(
        emit(&left),
        "apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n    - address: 10.0.0.1\n    - address: 2001:4860:4860::8888\n\
         searchDomains:\n    domains:\n        - example.org\n    disableDefault: true\n"
    );
}
