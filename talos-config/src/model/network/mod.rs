//! Document kinds of upstream `pkg/machinery/config/types/network` that Talos v1.13.9
//! registers (docs/merge.md Appendix B).

use crate::document::{KindEntry, entry};

mod links;
mod other;
pub mod types;
mod v1_14;

pub use links::{
    AddressConfig, BondConfig, BridgeConfig, BridgeStpConfig, BridgeVlanConfig, CommonLinkConfig, DummyLinkConfig,
    LinkConfig, RouteConfig, VlanConfig, VrfConfig, WireguardConfig, WireguardPeer,
};
pub use other::{
    BlackholeRouteConfig, CommonProbeConfig, Dhcpv4Config, Dhcpv6Config, EthernetChannelsConfig, EthernetConfig,
    EthernetRingsConfig, HcloudVipConfig, HostDnsConfig, HostnameConfig, IngressConfig, IngressRule, KubeSpanConfig,
    KubeSpanEndpointsConfig, KubeSpanFiltersConfig, Layer2VipConfig, LinkAliasConfig, LinkSelector, NameserverConfig,
    NetworkDefaultActionConfig, NetworkRuleConfig, NtpConfig, PortRanges, PtpConfig, ResolverConfig, RoutingRuleConfig,
    RulePortSelector, SearchDomainsConfig, StaticHostConfig, TcpProbeConfig, TimeSyncConfig,
};
pub use v1_14::{
    BgpBfdConfig, BgpImportRoute, BgpInstanceConfig, BgpNeighborConfig, HttpProbeConfig, VethConfig, VethPeerConfig,
};

crate::document::named_kind!(
    BlackholeRouteConfig => "BlackholeRouteConfig" since V1_13_9,
    BondConfig => "BondConfig",
    BridgeConfig => "BridgeConfig",
    Dhcpv4Config => "DHCPv4Config",
    Dhcpv6Config => "DHCPv6Config",
    DummyLinkConfig => "DummyLinkConfig",
    EthernetConfig => "EthernetConfig",
    HcloudVipConfig => "HCloudVIPConfig",
    Layer2VipConfig => "Layer2VIPConfig",
    LinkAliasConfig => "LinkAliasConfig",
    LinkConfig => "LinkConfig",
    NetworkRuleConfig => "NetworkRuleConfig",
    RoutingRuleConfig => "RoutingRuleConfig" since V1_13_9,
    StaticHostConfig => "StaticHostConfig",
    TcpProbeConfig => "TCPProbeConfig" since V1_13_9,
    VlanConfig => "VLANConfig",
    VrfConfig => "VRFConfig" since V1_13_9,
    WireguardConfig => "WireguardConfig",
);

crate::document::unnamed_kind!(
    HostnameConfig => "HostnameConfig",
    KubeSpanConfig => "KubeSpanConfig" since V1_13_9,
    KubeSpanEndpointsConfig => "KubeSpanEndpointsConfig",
    NetworkDefaultActionConfig => "NetworkDefaultActionConfig",
    ResolverConfig => "ResolverConfig",
    TimeSyncConfig => "TimeSyncConfig",
);

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[
    entry::<BlackholeRouteConfig>(),
    entry::<BondConfig>(),
    entry::<BridgeConfig>(),
    entry::<Dhcpv4Config>(),
    entry::<Dhcpv6Config>(),
    entry::<DummyLinkConfig>(),
    entry::<EthernetConfig>(),
    entry::<HcloudVipConfig>(),
    entry::<Layer2VipConfig>(),
    entry::<LinkAliasConfig>(),
    entry::<LinkConfig>(),
    entry::<NetworkRuleConfig>(),
    entry::<NetworkDefaultActionConfig>(),
    entry::<RoutingRuleConfig>(),
    entry::<StaticHostConfig>(),
    entry::<TcpProbeConfig>(),
    entry::<VlanConfig>(),
    entry::<VrfConfig>(),
    entry::<WireguardConfig>(),
    entry::<HostnameConfig>(),
    entry::<KubeSpanConfig>(),
    entry::<KubeSpanEndpointsConfig>(),
    entry::<ResolverConfig>(),
    entry::<TimeSyncConfig>(),
    entry::<BgpInstanceConfig>(),
    entry::<HttpProbeConfig>(),
    entry::<VethConfig>(),
];
