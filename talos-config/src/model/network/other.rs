//! The non-link network documents.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use super::types::{
    Addr, AutoHostnameKind, CelExpression, ClientIdentifier, DefaultAction, DnsProtocol, HardwareAddr, NetipAddrPort,
    NetipPrefix, PortRange, Prefix, Protocol, RoutingRuleAction, RoutingTable, WolMode,
};
use crate::model::meta::Meta;
use crate::value::{Duration, Replaced};

/// `HostnameConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HostnameConfigV1Alpha1")]
pub struct HostnameConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "auto", omitempty, go_name = "ConfigAuto")]
    pub auto: Option<AutoHostnameKind>,
    #[talos(key = "hostname", omitempty, go_name = "ConfigHostname")]
    pub hostname: String,
}

/// `BlackholeRouteConfig` (named; the name is the destination prefix).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BlackholeRouteConfigV1Alpha1")]
pub struct BlackholeRouteConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "metric", omitempty, go_name = "RouteMetric")]
    pub metric: u32,
}

/// `DHCPv4Config` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DHCPv4ConfigV1Alpha1")]
pub struct Dhcpv4Config {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "routeMetric", omitempty, go_name = "ConfigRouteMetric")]
    pub route_metric: u32,
    #[talos(key = "ignoreHostname", omitempty, go_name = "ConfigIgnoreHostname")]
    pub ignore_hostname: Option<bool>,
    #[talos(key = "clientIdentifier", omitempty, go_name = "ConfigClientIdentifier")]
    pub client_identifier: Option<ClientIdentifier>,
    #[talos(key = "duidRaw", omitempty, go_name = "ConfigDUIDRaw")]
    pub duid_raw: HardwareAddr,
}

/// `DHCPv6Config` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DHCPv6ConfigV1Alpha1")]
pub struct Dhcpv6Config {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "routeMetric", omitempty, go_name = "ConfigRouteMetric")]
    pub route_metric: u32,
    #[talos(key = "ignoreHostname", omitempty, go_name = "ConfigIgnoreHostname")]
    pub ignore_hostname: Option<bool>,
    #[talos(key = "clientIdentifier", omitempty, go_name = "ConfigClientIdentifier")]
    pub client_identifier: Option<ClientIdentifier>,
    #[talos(key = "duidRaw", omitempty, go_name = "ConfigDUIDRaw")]
    pub duid_raw: HardwareAddr,
}

/// `network.EthernetRingsConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.EthernetRingsConfig")]
pub struct EthernetRingsConfig {
    #[talos(key = "rx", omitempty, go_name = "RX")]
    pub rx: Option<u32>,
    #[talos(key = "tx", omitempty, go_name = "TX")]
    pub tx: Option<u32>,
    #[talos(key = "rx-mini", omitempty, go_name = "RXMini")]
    pub rx_mini: Option<u32>,
    #[talos(key = "rx-jumbo", omitempty, go_name = "RXJumbo")]
    pub rx_jumbo: Option<u32>,
    #[talos(key = "rx-buf-len", omitempty, go_name = "RXBufLen")]
    pub rx_buf_len: Option<u32>,
    #[talos(key = "cqe-size", omitempty, go_name = "CQESize")]
    pub cqe_size: Option<u32>,
    #[talos(key = "tx-push", omitempty, go_name = "TXPush")]
    pub tx_push: Option<bool>,
    #[talos(key = "rx-push", omitempty, go_name = "RXPush")]
    pub rx_push: Option<bool>,
    #[talos(key = "tx-push-buf-len", omitempty, go_name = "TXPushBufLen")]
    pub tx_push_buf_len: Option<u32>,
    #[talos(key = "tcp-data-split", omitempty, go_name = "TCPDataSplit")]
    pub tcp_data_split: Option<bool>,
}

/// `network.EthernetChannelsConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.EthernetChannelsConfig")]
pub struct EthernetChannelsConfig {
    #[talos(key = "rx", omitempty, go_name = "RX")]
    pub rx: Option<u32>,
    #[talos(key = "tx", omitempty, go_name = "TX")]
    pub tx: Option<u32>,
    #[talos(key = "other", omitempty, go_name = "Other")]
    pub other: Option<u32>,
    #[talos(key = "combined", omitempty, go_name = "Combined")]
    pub combined: Option<u32>,
}

/// `EthernetConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.EthernetConfigV1Alpha1")]
pub struct EthernetConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "features", omitempty, go_name = "FeaturesConfig")]
    pub features: BTreeMap<String, bool>,
    #[talos(key = "rings", omitempty, go_name = "RingsConfig")]
    pub rings: Option<EthernetRingsConfig>,
    #[talos(key = "channels", omitempty, go_name = "ChannelsConfig")]
    pub channels: Option<EthernetChannelsConfig>,
    #[talos(key = "wakeOnLan", omitempty, go_name = "WakeOnLANConfig")]
    pub wake_on_lan: Vec<WolMode>,
}

/// `HCloudVIPConfig` (named; the name is the VIP).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HCloudVIPConfigV1Alpha1")]
pub struct HcloudVipConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "link", go_name = "LinkName")]
    pub link: String,
    #[talos(key = "apiToken", go_name = "APIToken")]
    pub api_token: String,
}

/// `Layer2VIPConfig` (named; the name is the VIP).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.Layer2VIPConfigV1Alpha1")]
pub struct Layer2VipConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "link", go_name = "LinkName")]
    pub link: String,
}

/// `network.LinkSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.LinkSelector")]
pub struct LinkSelector {
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// `LinkAliasConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.LinkAliasConfigV1Alpha1")]
pub struct LinkAliasConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "selector", omitempty, go_name = "Selector")]
    pub selector: LinkSelector,
}

/// `network.RulePortSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RulePortSelector")]
pub struct RulePortSelector {
    /// `merge:"replace"`.
    #[talos(key = "ports", go_name = "Ports")]
    pub ports: Replaced<Vec<PortRange>>,
    #[talos(key = "protocol", go_name = "Protocol")]
    pub protocol: Protocol,
}

/// `network.IngressRule`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.IngressRule")]
pub struct IngressRule {
    #[talos(key = "subnet", go_name = "Subnet")]
    pub subnet: NetipPrefix,
    #[talos(key = "except", omitempty, go_name = "Except")]
    pub except: Prefix,
}

/// `NetworkRuleConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RuleConfigV1Alpha1")]
pub struct NetworkRuleConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "portSelector", go_name = "PortSelector")]
    pub port_selector: RulePortSelector,
    /// `merge:"replace"`.
    #[talos(key = "ingress", go_name = "Ingress")]
    pub ingress: Replaced<Vec<IngressRule>>,
}

/// `NetworkDefaultActionConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DefaultActionConfigV1Alpha1")]
pub struct NetworkDefaultActionConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "ingress", go_name = "Ingress")]
    pub ingress: DefaultAction,
}

/// `RoutingRuleConfig` (named; the name is the priority).
///
/// Upstream has no merger for its `network.Prefix` fields, so merging two documents always
/// fails on `src` (see [`super::types::Prefix`]).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RoutingRuleConfigV1Alpha1")]
pub struct RoutingRuleConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "RulePriority")]
    pub name: String,
    #[talos(key = "src", omitempty, go_name = "RuleSrc")]
    pub src: Prefix,
    #[talos(key = "dst", omitempty, go_name = "RuleDst")]
    pub dst: Prefix,
    #[talos(key = "table", go_name = "RuleTable")]
    pub table: RoutingTable,
    #[talos(key = "action", omitempty, go_name = "RuleAction")]
    pub action: RoutingRuleAction,
    #[talos(key = "iifName", omitempty, go_name = "RuleIIFName")]
    pub iif_name: String,
    #[talos(key = "oifName", omitempty, go_name = "RuleOIFName")]
    pub oif_name: String,
    #[talos(key = "fwMark", omitempty, go_name = "RuleFwMark")]
    pub fw_mark: u32,
    #[talos(key = "fwMask", omitempty, go_name = "RuleFwMask")]
    pub fw_mask: u32,
}

/// `StaticHostConfig` (named; the name is the IP address).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.StaticHostConfigV1Alpha1")]
pub struct StaticHostConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "hostnames", go_name = "Hostnames")]
    pub hostnames: Vec<String>,
}

/// `network.CommonProbeConfig`, embedded inline.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.CommonProbeConfig")]
pub struct CommonProbeConfig {
    #[talos(key = "interval", omitempty, go_name = "ProbeInterval")]
    pub interval: Duration,
    #[talos(key = "failureThreshold", omitempty, go_name = "ProbeFailureThreshold")]
    pub failure_threshold: i64,
}

/// `TCPProbeConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.TCPProbeConfigV1Alpha1")]
pub struct TcpProbeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(inline)]
    pub common: CommonProbeConfig,
    #[talos(key = "endpoint", go_name = "TCPEndpoint")]
    pub endpoint: String,
    #[talos(key = "timeout", omitempty, go_name = "TCPTimeout")]
    pub timeout: Duration,
}

/// `network.KubeSpanFiltersConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.KubeSpanFiltersConfig")]
pub struct KubeSpanFiltersConfig {
    #[talos(key = "endpoints", omitempty, go_name = "ConfigEndpoints")]
    pub endpoints: Vec<String>,
    #[talos(key = "excludeAdvertisedNetworks", omitempty, go_name = "ConfigExcludeAdvertisedNetworks")]
    pub exclude_advertised_networks: Vec<Prefix>,
}

/// `KubeSpanConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.KubeSpanConfigV1Alpha1")]
pub struct KubeSpanConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "enabled", omitempty, go_name = "ConfigEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "advertiseKubernetesNetworks", omitempty, go_name = "ConfigAdvertiseKubernetesNetworks")]
    pub advertise_kubernetes_networks: Option<bool>,
    #[talos(key = "allowDownPeerBypass", omitempty, go_name = "ConfigAllowDownPeerBypass")]
    pub allow_down_peer_bypass: Option<bool>,
    #[talos(key = "harvestExtraEndpoints", omitempty, go_name = "ConfigHarvestExtraEndpoints")]
    pub harvest_extra_endpoints: Option<bool>,
    #[talos(key = "mtu", omitempty, go_name = "ConfigMTU")]
    pub mtu: Option<u32>,
    #[talos(key = "filters", omitempty, go_name = "ConfigFilters")]
    pub filters: Option<KubeSpanFiltersConfig>,
}

/// `KubeSpanEndpointsConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.KubespanEndpointsConfigV1Alpha1")]
pub struct KubeSpanEndpointsConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "extraAnnouncedEndpoints", go_name = "ExtraAnnouncedEndpointsConfig")]
    pub extra_announced_endpoints: Vec<NetipAddrPort>,
}

/// `network.NameserverConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.NameserverConfig")]
pub struct NameserverConfig {
    #[talos(key = "address", go_name = "Address")]
    pub address: Addr,
    #[talos(key = "protocol", omitempty, go_name = "Protocol")]
    pub protocol: DnsProtocol,
    #[talos(key = "tlsServerName", omitempty, go_name = "TLSServerName")]
    pub tls_server_name: String,
}

/// `network.SearchDomainsConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.SearchDomainsConfig")]
pub struct SearchDomainsConfig {
    #[talos(key = "domains", omitempty, go_name = "SearchDomains")]
    pub domains: Vec<String>,
    #[talos(key = "disableDefault", omitempty, go_name = "SearchDisableDefault")]
    pub disable_default: Option<bool>,
}

/// `network.HostDNSConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HostDNSConfig")]
pub struct HostDnsConfig {
    #[talos(key = "enabled", omitempty, go_name = "HostDNSEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "forwardKubeDNSToHost", omitempty, go_name = "HostDNSForwardKubeDNSToHost")]
    pub forward_kube_dns_to_host: Option<bool>,
    #[talos(key = "resolveMemberNames", omitempty, go_name = "HostDNSResolveMemberNames")]
    pub resolve_member_names: Option<bool>,
}

/// `ResolverConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.ResolverConfigV1Alpha1")]
pub struct ResolverConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "nameservers", omitempty, go_name = "ResolverNameservers")]
    pub nameservers: Vec<NameserverConfig>,
    #[talos(key = "searchDomains", omitempty, go_name = "ResolverSearchDomains")]
    pub search_domains: SearchDomainsConfig,
    #[talos(key = "hostDNS", omitempty, go_name = "ResolverHostDNS")]
    pub host_dns: HostDnsConfig,
}

/// `network.NTPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.NTPConfig")]
pub struct NtpConfig {
    #[talos(key = "servers", omitempty, go_name = "Servers")]
    pub servers: Vec<String>,
}

/// `network.PTPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.PTPConfig")]
pub struct PtpConfig {
    #[talos(key = "devices", omitempty, go_name = "Devices")]
    pub devices: Vec<String>,
}

/// `TimeSyncConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.TimeSyncConfigV1Alpha1")]
pub struct TimeSyncConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "enabled", omitempty, go_name = "TimeEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "bootTimeout", omitempty, go_name = "TimeBootTimeout")]
    pub boot_timeout: Duration,
    #[talos(key = "ntp", omitempty, go_name = "TimeNTP")]
    pub ntp: Option<NtpConfig>,
    #[talos(key = "ptp", omitempty, go_name = "TimePTP")]
    pub ptp: Option<PtpConfig>,
}
