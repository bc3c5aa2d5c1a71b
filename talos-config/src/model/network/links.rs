//! Link documents: `LinkConfig`, `BondConfig`, `BridgeConfig`, `DummyLinkConfig`, `VLANConfig`,
//! `VRFConfig`, `WireguardConfig`, and the embedded `CommonLinkConfig`.

use talos_config_derive::Talos;

use super::types::{
    AdLacpActive, AdSelect, Addr, AddrPort, ArpAllTargets, ArpValidate, BondMode, BondXmitHashPolicy, FailOverMac,
    HardwareAddr, LacpRate, NetipAddr, NetipPrefix, Prefix, PrimaryReselect, RoutingTable, VlanProtocol,
};
use crate::model::meta::Meta;
use crate::value::Duration;

/// `network.CommonLinkConfig`, embedded inline by every link document.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.CommonLinkConfig")]
pub struct CommonLinkConfig {
    #[talos(key = "up", omitempty, go_name = "LinkUp")]
    pub up: Option<bool>,
    #[talos(key = "mtu", omitempty, go_name = "LinkMTU")]
    pub mtu: u32,
    #[talos(key = "addresses", omitempty, go_name = "LinkAddresses")]
    pub addresses: Vec<AddressConfig>,
    #[talos(key = "routes", omitempty, go_name = "LinkRoutes")]
    pub routes: Vec<RouteConfig>,
    #[talos(key = "multicast", omitempty, go_name = "LinkMulticast")]
    pub multicast: Option<bool>,
}

/// `network.AddressConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.AddressConfig")]
pub struct AddressConfig {
    #[talos(key = "address", go_name = "AddressAddress")]
    pub address: NetipPrefix,
    #[talos(key = "routePriority", omitempty, go_name = "AddressPriority")]
    pub route_priority: Option<u32>,
}

/// `network.RouteConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RouteConfig")]
pub struct RouteConfig {
    #[talos(key = "destination", omitempty, go_name = "RouteDestination")]
    pub destination: Prefix,
    #[talos(key = "gateway", omitempty, go_name = "RouteGateway")]
    pub gateway: Addr,
    #[talos(key = "source", omitempty, go_name = "RouteSource")]
    pub source: Addr,
    #[talos(key = "metric", omitempty, go_name = "RouteMetric")]
    pub metric: u32,
    #[talos(key = "mtu", omitempty, go_name = "RouteMTU")]
    pub mtu: u32,
    #[talos(key = "table", omitempty, go_name = "RouteTable")]
    pub table: RoutingTable,
}

/// `LinkConfig` (named): a physical link.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.LinkConfigV1Alpha1")]
pub struct LinkConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `BondConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BondConfigV1Alpha1")]
pub struct BondConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    #[talos(key = "links", omitempty, go_name = "BondLinks")]
    pub links: Vec<String>,
    #[talos(key = "bondMode", omitempty, go_name = "BondMode")]
    pub bond_mode: Option<BondMode>,
    #[talos(key = "miimon", omitempty, go_name = "BondMIIMon")]
    pub miimon: Option<u32>,
    #[talos(key = "updelay", omitempty, go_name = "BondUpDelay")]
    pub updelay: Option<u32>,
    #[talos(key = "downdelay", omitempty, go_name = "BondDownDelay")]
    pub downdelay: Option<u32>,
    #[talos(key = "useCarrier", omitempty, go_name = "BondUseCarrier")]
    pub use_carrier: Option<bool>,
    #[talos(key = "xmitHashPolicy", omitempty, go_name = "BondXmitHashPolicy")]
    pub xmit_hash_policy: Option<BondXmitHashPolicy>,
    #[talos(key = "arpInterval", omitempty, go_name = "BondARPInterval")]
    pub arp_interval: Option<u32>,
    #[talos(key = "arpIpTargets", omitempty, go_name = "BondARPIPTargets")]
    pub arp_ip_targets: Vec<NetipAddr>,
    #[talos(key = "nsIp6Targets", omitempty, go_name = "BondNSIP6Targets")]
    pub ns_ip6_targets: Vec<NetipAddr>,
    #[talos(key = "arpValidate", omitempty, go_name = "BondARPValidate")]
    pub arp_validate: Option<ArpValidate>,
    #[talos(key = "arpAllTargets", omitempty, go_name = "BondARPAllTargets")]
    pub arp_all_targets: Option<ArpAllTargets>,
    #[talos(key = "lacpRate", omitempty, go_name = "BondLACPRate")]
    pub lacp_rate: Option<LacpRate>,
    #[talos(key = "failOverMac", omitempty, go_name = "BondFailOverMAC")]
    pub fail_over_mac: Option<FailOverMac>,
    #[talos(key = "adSelect", omitempty, go_name = "BondADSelect")]
    pub ad_select: Option<AdSelect>,
    #[talos(key = "adActorSysPrio", omitempty, go_name = "BondADActorSysPrio")]
    pub ad_actor_sys_prio: Option<u16>,
    #[talos(key = "adUserPortKey", omitempty, go_name = "BondADUserPortKey")]
    pub ad_user_port_key: Option<u16>,
    #[talos(key = "adLACPActive", omitempty, go_name = "BondADLACPActive")]
    pub ad_lacp_active: Option<AdLacpActive>,
    #[talos(key = "primaryReselect", omitempty, go_name = "BondPrimaryReselect")]
    pub primary_reselect: Option<PrimaryReselect>,
    #[talos(key = "resendIGMP", omitempty, go_name = "BondResendIGMP")]
    pub resend_igmp: Option<u32>,
    #[talos(key = "minLinks", omitempty, go_name = "BondMinLinks")]
    pub min_links: Option<u32>,
    #[talos(key = "lpInterval", omitempty, go_name = "BondLPInterval")]
    pub lp_interval: Option<u32>,
    #[talos(key = "packetsPerSlave", omitempty, go_name = "BondPacketsPerSlave")]
    pub packets_per_slave: Option<u32>,
    #[talos(key = "numPeerNotif", omitempty, go_name = "BondNumPeerNotif")]
    pub num_peer_notif: Option<u8>,
    #[talos(key = "tlbLogicalLb", omitempty, go_name = "BondTLBDynamicLB")]
    pub tlb_logical_lb: Option<u8>,
    #[talos(key = "allSlavesActive", omitempty, go_name = "BondAllSlavesActive")]
    pub all_slaves_active: Option<u8>,
    #[talos(key = "peerNotifDelay", omitempty, go_name = "BondPeerNotifyDelay")]
    pub peer_notif_delay: Option<u32>,
    #[talos(key = "missedMax", omitempty, go_name = "BondMissedMax")]
    pub missed_max: Option<u8>,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `network.BridgeSTPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BridgeSTPConfig")]
pub struct BridgeStpConfig {
    #[talos(key = "enabled", omitempty, go_name = "BridgeSTPEnabled")]
    pub enabled: Option<bool>,
}

/// `network.BridgeVLANConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BridgeVLANConfig")]
pub struct BridgeVlanConfig {
    #[talos(key = "filtering", omitempty, go_name = "BridgeVLANFiltering")]
    pub filtering: Option<bool>,
}

/// `BridgeConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BridgeConfigV1Alpha1")]
pub struct BridgeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    #[talos(key = "links", omitempty, go_name = "BridgeLinks")]
    pub links: Vec<String>,
    #[talos(key = "stp", omitempty, go_name = "BridgeSTP")]
    pub stp: BridgeStpConfig,
    #[talos(key = "vlan", omitempty, go_name = "BridgeVLAN")]
    pub vlan: BridgeVlanConfig,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `DummyLinkConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DummyLinkConfigV1Alpha1")]
pub struct DummyLinkConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `VLANConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.VLANConfigV1Alpha1")]
pub struct VlanConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "vlanID", omitempty, go_name = "VLANIDConfig")]
    pub vlan_id: u16,
    #[talos(key = "vlanMode", omitempty, go_name = "VLANModeConfig")]
    pub vlan_mode: Option<VlanProtocol>,
    #[talos(key = "parent", omitempty, go_name = "ParentLinkConfig")]
    pub parent: String,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `VRFConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.VRFConfigV1Alpha1")]
pub struct VrfConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    #[talos(key = "links", omitempty, go_name = "VRFLinks")]
    pub links: Vec<String>,
    #[talos(key = "table", go_name = "VRFTable")]
    pub table: RoutingTable,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `network.WireguardPeer`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.WireguardPeer")]
pub struct WireguardPeer {
    #[talos(key = "publicKey", omitempty, go_name = "WireguardPublicKey")]
    pub public_key: String,
    #[talos(key = "presharedKey", omitempty, go_name = "WireguardPresharedKey")]
    pub preshared_key: String,
    #[talos(key = "endpoint", omitempty, go_name = "WireguardEndpoint")]
    pub endpoint: AddrPort,
    #[talos(key = "persistentKeepaliveInterval", omitempty, go_name = "WireguardPersistentKeepaliveInterval")]
    pub persistent_keepalive_interval: Duration,
    #[talos(key = "allowedIPs", omitempty, go_name = "WireguardAllowedIPs")]
    pub allowed_ips: Vec<Prefix>,
}

/// `WireguardConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.WireguardConfigV1Alpha1")]
pub struct WireguardConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "privateKey", omitempty, go_name = "WireguardPrivateKey")]
    pub private_key: String,
    #[talos(key = "listenPort", omitempty, go_name = "WireguardListenPort")]
    pub listen_port: i64,
    #[talos(key = "firewallMark", omitempty, go_name = "WireguardFirewallMark")]
    pub firewall_mark: i64,
    #[talos(key = "peers", omitempty, go_name = "WireguardPeers")]
    pub peers: Vec<WireguardPeer>,
    #[talos(inline)]
    pub common: CommonLinkConfig,
}
