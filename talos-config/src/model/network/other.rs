//! The non-link network documents.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use super::types::{
    Addr, AutoHostnameKind, CelExpression, ClientIdentifier, DefaultAction, HardwareAddr, NetipAddrPort, NetipPrefix,
    PortRange, Prefix, Protocol, RoutingRuleAction, RoutingTable, WolMode,
};
use crate::model::meta::Meta;
use crate::value::{Duration, Replaced};

/// `HostnameConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HostnameConfigV1Alpha1")]
pub struct HostnameConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// How a hostname is made up when none is set (`stable`, `off`).
    #[talos(key = "auto", omitempty, go_name = "ConfigAuto")]
    pub auto: Option<AutoHostnameKind>,
    /// The node's hostname.
    #[talos(key = "hostname", omitempty, go_name = "ConfigHostname")]
    pub hostname: String,
}

/// `BlackholeRouteConfig` (named; the name is the destination prefix).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BlackholeRouteConfigV1Alpha1")]
pub struct BlackholeRouteConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The destination dropped, in CIDR notation.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The route's priority (lower wins).
    #[talos(key = "metric", omitempty, go_name = "RouteMetric")]
    pub metric: u32,
}

/// `DHCPv4Config` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DHCPv4ConfigV1Alpha1")]
pub struct Dhcpv4Config {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The link the DHCPv4 client runs on.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The metric of routes learned from DHCP.
    #[talos(key = "routeMetric", omitempty, go_name = "ConfigRouteMetric")]
    pub route_metric: u32,
    /// Ignores the hostname the DHCP server offers.
    #[talos(key = "ignoreHostname", omitempty, go_name = "ConfigIgnoreHostname")]
    pub ignore_hostname: Option<bool>,
    /// Ignores the routes the DHCP server offers (v1.14).
    #[talos(key = "ignoreRoutes", omitempty, go_name = "ConfigIgnoreRoutes", since = V1_14_0_RC1)]
    pub ignore_routes: Option<bool>,
    /// What the client identifies itself by (`mac`, `duid`, `none`).
    #[talos(key = "clientIdentifier", omitempty, go_name = "ConfigClientIdentifier")]
    pub client_identifier: Option<ClientIdentifier>,
    /// The client DUID, as colon-separated hex.
    #[talos(key = "duidRaw", omitempty, go_name = "ConfigDUIDRaw")]
    pub duid_raw: HardwareAddr,
}

/// `DHCPv6Config` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DHCPv6ConfigV1Alpha1")]
pub struct Dhcpv6Config {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The link the DHCPv6 client runs on.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The metric of routes learned from DHCP.
    #[talos(key = "routeMetric", omitempty, go_name = "ConfigRouteMetric")]
    pub route_metric: u32,
    /// Ignores the hostname the DHCP server offers.
    #[talos(key = "ignoreHostname", omitempty, go_name = "ConfigIgnoreHostname")]
    pub ignore_hostname: Option<bool>,
    /// What the client identifies itself by (`mac`, `duid`, `none`).
    #[talos(key = "clientIdentifier", omitempty, go_name = "ConfigClientIdentifier")]
    pub client_identifier: Option<ClientIdentifier>,
    /// The client DUID, as colon-separated hex.
    #[talos(key = "duidRaw", omitempty, go_name = "ConfigDUIDRaw")]
    pub duid_raw: HardwareAddr,
}

/// `network.EthernetRingsConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.EthernetRingsConfig")]
pub struct EthernetRingsConfig {
    /// Entries of the receive ring.
    #[talos(key = "rx", omitempty, go_name = "RX")]
    pub rx: Option<u32>,
    /// Entries of the transmit ring.
    #[talos(key = "tx", omitempty, go_name = "TX")]
    pub tx: Option<u32>,
    /// Entries of the mini receive ring.
    #[talos(key = "rx-mini", omitempty, go_name = "RXMini")]
    pub rx_mini: Option<u32>,
    /// Entries of the jumbo receive ring.
    #[talos(key = "rx-jumbo", omitempty, go_name = "RXJumbo")]
    pub rx_jumbo: Option<u32>,
    /// The size of each receive buffer, in bytes.
    #[talos(key = "rx-buf-len", omitempty, go_name = "RXBufLen")]
    pub rx_buf_len: Option<u32>,
    /// The size of a completion queue event, in bytes.
    #[talos(key = "cqe-size", omitempty, go_name = "CQESize")]
    pub cqe_size: Option<u32>,
    /// Turns transmit push on.
    #[talos(key = "tx-push", omitempty, go_name = "TXPush")]
    pub tx_push: Option<bool>,
    /// Turns receive push on.
    #[talos(key = "rx-push", omitempty, go_name = "RXPush")]
    pub rx_push: Option<bool>,
    /// The size of the transmit push buffer, in bytes.
    #[talos(key = "tx-push-buf-len", omitempty, go_name = "TXPushBufLen")]
    pub tx_push_buf_len: Option<u32>,
    /// Turns TCP header/data split on.
    #[talos(key = "tcp-data-split", omitempty, go_name = "TCPDataSplit")]
    pub tcp_data_split: Option<bool>,
}

/// `network.EthernetChannelsConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.EthernetChannelsConfig")]
pub struct EthernetChannelsConfig {
    /// Receive-only channels.
    #[talos(key = "rx", omitempty, go_name = "RX")]
    pub rx: Option<u32>,
    /// Transmit-only channels.
    #[talos(key = "tx", omitempty, go_name = "TX")]
    pub tx: Option<u32>,
    /// Channels for other purposes (link interrupts, ...).
    #[talos(key = "other", omitempty, go_name = "Other")]
    pub other: Option<u32>,
    /// Combined receive/transmit channels.
    #[talos(key = "combined", omitempty, go_name = "Combined")]
    pub combined: Option<u32>,
}

/// `EthernetConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.EthernetConfigV1Alpha1")]
pub struct EthernetConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The Ethernet link configured.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Offload features turned on or off, by ethtool name.
    #[talos(key = "features", omitempty, go_name = "FeaturesConfig")]
    pub features: BTreeMap<String, bool>,
    /// Ring buffer sizes.
    #[talos(key = "rings", omitempty, go_name = "RingsConfig")]
    pub rings: Option<EthernetRingsConfig>,
    /// Queue channel counts.
    #[talos(key = "channels", omitempty, go_name = "ChannelsConfig")]
    pub channels: Option<EthernetChannelsConfig>,
    /// Wake-on-LAN modes.
    #[talos(key = "wakeOnLan", omitempty, go_name = "WakeOnLANConfig")]
    pub wake_on_lan: Vec<WolMode>,
}

/// `HCloudVIPConfig` (named; the name is the VIP).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HCloudVIPConfigV1Alpha1")]
pub struct HcloudVipConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The virtual IP address.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The link the virtual IP is held on.
    #[talos(key = "link", go_name = "LinkName")]
    pub link: String,
    /// The Hetzner Cloud API token; a secret.
    #[talos(key = "apiToken", go_name = "APIToken")]
    pub api_token: String,
}

/// `Layer2VIPConfig` (named; the name is the VIP).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.Layer2VIPConfigV1Alpha1")]
pub struct Layer2VipConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The virtual IP address.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The link the virtual IP is announced on with gratuitous ARP.
    #[talos(key = "link", go_name = "LinkName")]
    pub link: String,
}

/// `network.LinkSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.LinkSelector")]
pub struct LinkSelector {
    /// A CEL expression over each link's facts.
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// `LinkAliasConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.LinkAliasConfigV1Alpha1")]
pub struct LinkAliasConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The alias given to the link.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// A CEL expression matching the one link that gets the alias.
    #[talos(key = "selector", omitempty, go_name = "Selector")]
    pub selector: LinkSelector,
}

/// `network.RulePortSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RulePortSelector")]
pub struct RulePortSelector {
    /// `merge:"replace"`.
    #[talos(key = "ports", go_name = "Ports")]
    pub ports: Replaced<PortRanges>,
    /// The protocol (`tcp` or `udp`).
    #[talos(key = "protocol", go_name = "Protocol")]
    pub protocol: Protocol,
}

/// `network.PortRanges`: a named slice, merged by appending (the field replaces it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PortRanges(pub Vec<PortRange>);

crate::value::go_slice_type!(PortRanges, PortRange, "network.PortRanges", merge = append_items);

/// `network.IngressConfig`: a named slice, merged by appending (the field replaces it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IngressConfig(pub Vec<IngressRule>);

crate::value::go_slice_type!(IngressConfig, IngressRule, "network.IngressConfig", merge = append_items);

/// Go's merge of a slice type without a `Merge` method: append.
fn append_items<T: Clone>(left: &mut Vec<T>, right: &[T], _flags: crate::value::MergeFlags) -> Result<(), String> {
    left.extend_from_slice(right);
    Ok(())
}

/// `network.IngressRule`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.IngressRule")]
pub struct IngressRule {
    /// The source network allowed, in CIDR notation.
    #[talos(key = "subnet", go_name = "Subnet")]
    pub subnet: NetipPrefix,
    /// A part of the subnet that is not allowed.
    #[talos(key = "except", omitempty, go_name = "Except")]
    pub except: Prefix,
}

/// `NetworkRuleConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RuleConfigV1Alpha1")]
pub struct NetworkRuleConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The rule's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The ports and protocol the rule opens.
    #[talos(key = "portSelector", go_name = "PortSelector")]
    pub port_selector: RulePortSelector,
    /// `merge:"replace"`.
    #[talos(key = "ingress", go_name = "Ingress")]
    pub ingress: Replaced<IngressConfig>,
}

/// `NetworkDefaultActionConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DefaultActionConfigV1Alpha1")]
pub struct NetworkDefaultActionConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// What happens to ingress traffic no rule accepts (`accept` or `block`).
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
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The rule's priority.
    #[talos(key = "name", go_name = "RulePriority")]
    pub name: String,
    /// Matches the source network.
    #[talos(key = "src", omitempty, go_name = "RuleSrc")]
    pub src: Prefix,
    /// Matches the destination network.
    #[talos(key = "dst", omitempty, go_name = "RuleDst")]
    pub dst: Prefix,
    /// The routing table a matching packet is looked up in.
    #[talos(key = "table", go_name = "RuleTable")]
    pub table: RoutingTable,
    /// What the rule does (`unicast`, `blackhole`, ...).
    #[talos(key = "action", omitempty, go_name = "RuleAction")]
    pub action: RoutingRuleAction,
    /// Matches the incoming link.
    #[talos(key = "iifName", omitempty, go_name = "RuleIIFName")]
    pub iif_name: String,
    /// Matches the outgoing link.
    #[talos(key = "oifName", omitempty, go_name = "RuleOIFName")]
    pub oif_name: String,
    /// Matches the firewall mark.
    #[talos(key = "fwMark", omitempty, go_name = "RuleFwMark")]
    pub fw_mark: u32,
    /// The mask applied to the firewall mark before matching.
    #[talos(key = "fwMask", omitempty, go_name = "RuleFwMask")]
    pub fw_mask: u32,
}

/// `StaticHostConfig` (named; the name is the IP address).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.StaticHostConfigV1Alpha1")]
pub struct StaticHostConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The address the host names resolve to.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The names that resolve to the address.
    #[talos(key = "hostnames", go_name = "Hostnames")]
    pub hostnames: Vec<String>,
}

/// `network.CommonProbeConfig`, embedded inline.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.CommonProbeConfig")]
pub struct CommonProbeConfig {
    /// How often the probe runs.
    #[talos(key = "interval", omitempty, go_name = "ProbeInterval")]
    pub interval: Duration,
    /// How many failures in a row mark the probe failed.
    #[talos(key = "failureThreshold", omitempty, go_name = "ProbeFailureThreshold")]
    pub failure_threshold: i64,
}

/// `TCPProbeConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.TCPProbeConfigV1Alpha1")]
pub struct TcpProbeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The probe's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Interval and failure threshold, inline in YAML.
    #[talos(inline)]
    pub common: CommonProbeConfig,
    /// The `host:port` the probe connects to.
    #[talos(key = "endpoint", go_name = "TCPEndpoint")]
    pub endpoint: String,
    /// How long one connection attempt may take.
    #[talos(key = "timeout", omitempty, go_name = "TCPTimeout")]
    pub timeout: Duration,
}

/// `network.KubeSpanFiltersConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.KubeSpanFiltersConfig")]
pub struct KubeSpanFiltersConfig {
    /// Endpoint filters (CIDRs, `!` to exclude) for the addresses peers are reached at.
    #[talos(key = "endpoints", omitempty, go_name = "ConfigEndpoints")]
    pub endpoints: Vec<String>,
    /// Networks never advertised through the mesh.
    #[talos(key = "excludeAdvertisedNetworks", omitempty, go_name = "ConfigExcludeAdvertisedNetworks")]
    pub exclude_advertised_networks: Vec<Prefix>,
}

/// `KubeSpanConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.KubeSpanConfigV1Alpha1")]
pub struct KubeSpanConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Turns the KubeSpan mesh on.
    #[talos(key = "enabled", omitempty, go_name = "ConfigEnabled")]
    pub enabled: Option<bool>,
    /// Routes pod traffic through the mesh too.
    #[talos(key = "advertiseKubernetesNetworks", omitempty, go_name = "ConfigAdvertiseKubernetesNetworks")]
    pub advertise_kubernetes_networks: Option<bool>,
    /// Sends traffic around a peer whose tunnel is down instead of dropping it.
    #[talos(key = "allowDownPeerBypass", omitempty, go_name = "ConfigAllowDownPeerBypass")]
    pub allow_down_peer_bypass: Option<bool>,
    /// Learns more peer endpoints from the peers themselves.
    #[talos(key = "harvestExtraEndpoints", omitempty, go_name = "ConfigHarvestExtraEndpoints")]
    pub harvest_extra_endpoints: Option<bool>,
    /// The MTU of the KubeSpan link.
    #[talos(key = "mtu", omitempty, go_name = "ConfigMTU")]
    pub mtu: Option<u32>,
    /// Which endpoints and networks take part in the mesh.
    #[talos(key = "filters", omitempty, go_name = "ConfigFilters")]
    pub filters: Option<KubeSpanFiltersConfig>,
}

/// `KubeSpanEndpointsConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.KubespanEndpointsConfigV1Alpha1")]
pub struct KubeSpanEndpointsConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Extra `host:port` endpoints announced to peers (e.g. behind NAT).
    #[talos(key = "extraAnnouncedEndpoints", go_name = "ExtraAnnouncedEndpointsConfig")]
    pub extra_announced_endpoints: Vec<NetipAddrPort>,
}

/// `network.NameserverConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.NameserverConfig")]
pub struct NameserverConfig {
    /// The resolver's address.
    #[talos(key = "address", go_name = "Address")]
    pub address: Addr,
    /// `Do53` (plain DNS, the default), `DoT` or `DoH` (v1.14).
    #[talos(key = "protocol", omitempty, go_name = "Protocol", since = V1_14_0_RC1)]
    pub protocol: super::types::DnsProtocol,
    /// The name the DoT/DoH server's certificate must carry (v1.14).
    #[talos(key = "tlsServerName", omitempty, go_name = "TLSServerName", since = V1_14_0_RC1)]
    pub tls_server_name: String,
}

/// `network.SearchDomainsConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.SearchDomainsConfig")]
pub struct SearchDomainsConfig {
    /// The DNS search domains.
    #[talos(key = "domains", omitempty, go_name = "SearchDomains")]
    pub domains: Vec<String>,
    /// Stops Talos from adding the hostname's domain as a search domain.
    #[talos(key = "disableDefault", omitempty, go_name = "SearchDisableDefault")]
    pub disable_default: Option<bool>,
}

/// `ResolverConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.ResolverConfigV1Alpha1")]
pub struct ResolverConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The DNS resolvers the host uses.
    #[talos(key = "nameservers", omitempty, go_name = "ResolverNameservers")]
    pub nameservers: Vec<NameserverConfig>,
    /// The DNS search domains the host uses.
    #[talos(key = "searchDomains", omitempty, go_name = "ResolverSearchDomains")]
    pub search_domains: SearchDomainsConfig,
    /// The host DNS resolver (v1.14; replaces `.machine.features.hostDNS`).
    #[talos(key = "hostDNS", omitempty, go_name = "ResolverHostDNS", since = V1_14_0_RC1)]
    pub host_dns: HostDnsConfig,
}

/// `network.HostDNSConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HostDNSConfig")]
pub struct HostDnsConfig {
    /// Turns the host DNS resolver on.
    #[talos(key = "enabled", omitempty, go_name = "HostDNSEnabled")]
    pub enabled: Option<bool>,
    /// Forwards the cluster DNS's queries to the host resolver.
    #[talos(key = "forwardKubeDNSToHost", omitempty, go_name = "HostDNSForwardKubeDNSToHost")]
    pub forward_kube_dns_to_host: Option<bool>,
    /// Resolves cluster member names through the host resolver.
    #[talos(key = "resolveMemberNames", omitempty, go_name = "HostDNSResolveMemberNames")]
    pub resolve_member_names: Option<bool>,
}

/// `network.NTPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.NTPConfig")]
pub struct NtpConfig {
    /// NTP servers to sync from.
    #[talos(key = "servers", omitempty, go_name = "Servers")]
    pub servers: Vec<String>,
    /// Uses Network Time Security (the servers must be host names; v1.14).
    #[talos(key = "useNTS", omitempty, go_name = "UseNTS", since = V1_14_0_RC1)]
    pub use_nts: Option<bool>,
}

/// `network.PTPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.PTPConfig")]
pub struct PtpConfig {
    /// PTP hardware clock devices to sync from.
    #[talos(key = "devices", omitempty, go_name = "Devices")]
    pub devices: Vec<String>,
}

/// `TimeSyncConfig` (unnamed).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.TimeSyncConfigV1Alpha1")]
pub struct TimeSyncConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Turns time synchronisation on.
    #[talos(key = "enabled", omitempty, go_name = "TimeEnabled")]
    pub enabled: Option<bool>,
    /// How long boot waits for the clock to sync before going on.
    #[talos(key = "bootTimeout", omitempty, go_name = "TimeBootTimeout")]
    pub boot_timeout: Duration,
    /// Sync from NTP servers.
    #[talos(key = "ntp", omitempty, go_name = "TimeNTP")]
    pub ntp: Option<NtpConfig>,
    /// Sync from PTP hardware clocks.
    #[talos(key = "ptp", omitempty, go_name = "TimePTP")]
    pub ptp: Option<PtpConfig>,
}
