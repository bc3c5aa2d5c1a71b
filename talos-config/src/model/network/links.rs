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
    /// Brings the link up (on unless set to false).
    #[talos(key = "up", omitempty, go_name = "LinkUp")]
    pub up: Option<bool>,
    /// The link's MTU in bytes.
    #[talos(key = "mtu", omitempty, go_name = "LinkMTU")]
    pub mtu: u32,
    /// Static addresses of the link.
    #[talos(key = "addresses", omitempty, go_name = "LinkAddresses")]
    pub addresses: Vec<AddressConfig>,
    /// Static routes through the link.
    #[talos(key = "routes", omitempty, go_name = "LinkRoutes")]
    pub routes: Vec<RouteConfig>,
    /// Turns multicast on the link on or off.
    #[talos(key = "multicast", omitempty, go_name = "LinkMulticast")]
    pub multicast: Option<bool>,
}

/// `network.AddressConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.AddressConfig")]
pub struct AddressConfig {
    /// The address in CIDR notation.
    #[talos(key = "address", go_name = "AddressAddress")]
    pub address: NetipPrefix,
    /// The metric of the prefix route the address creates.
    #[talos(key = "routePriority", omitempty, go_name = "AddressPriority")]
    pub route_priority: Option<u32>,
}

/// `network.RouteConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.RouteConfig")]
pub struct RouteConfig {
    /// The destination in CIDR notation (empty for the default route).
    #[talos(key = "destination", omitempty, go_name = "RouteDestination")]
    pub destination: Prefix,
    /// The next hop's address.
    #[talos(key = "gateway", omitempty, go_name = "RouteGateway")]
    pub gateway: Addr,
    /// The source address packets on this route use.
    #[talos(key = "source", omitempty, go_name = "RouteSource")]
    pub source: Addr,
    /// The route's priority (lower wins).
    #[talos(key = "metric", omitempty, go_name = "RouteMetric")]
    pub metric: u32,
    /// The MTU of packets on this route.
    #[talos(key = "mtu", omitempty, go_name = "RouteMTU")]
    pub mtu: u32,
    /// The routing table the route goes into.
    #[talos(key = "table", omitempty, go_name = "RouteTable")]
    pub table: RoutingTable,
}

/// `LinkConfig` (named): a physical link.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.LinkConfigV1Alpha1")]
pub struct LinkConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The physical link configured (its name or alias).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `BondConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BondConfigV1Alpha1")]
pub struct BondConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The bond link's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The bond's MAC address.
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    /// The links enslaved to the bond.
    #[talos(key = "links", omitempty, go_name = "BondLinks")]
    pub links: Vec<String>,
    /// The bonding mode (`balance-rr`, `active-backup`, `802.3ad`, ...).
    #[talos(key = "bondMode", omitempty, go_name = "BondMode")]
    pub bond_mode: Option<BondMode>,
    /// The link monitoring interval, in milliseconds.
    #[talos(key = "miimon", omitempty, go_name = "BondMIIMon")]
    pub miimon: Option<u32>,
    /// Milliseconds to wait before using a link that came up.
    #[talos(key = "updelay", omitempty, go_name = "BondUpDelay")]
    pub updelay: Option<u32>,
    /// Milliseconds to wait before dropping a link that went down.
    #[talos(key = "downdelay", omitempty, go_name = "BondDownDelay")]
    pub downdelay: Option<u32>,
    /// Whether link state comes from the carrier.
    #[talos(key = "useCarrier", omitempty, go_name = "BondUseCarrier")]
    pub use_carrier: Option<bool>,
    /// How traffic is spread over the links.
    #[talos(key = "xmitHashPolicy", omitempty, go_name = "BondXmitHashPolicy")]
    pub xmit_hash_policy: Option<BondXmitHashPolicy>,
    /// The ARP monitoring interval, in milliseconds.
    #[talos(key = "arpInterval", omitempty, go_name = "BondARPInterval")]
    pub arp_interval: Option<u32>,
    /// IPv4 addresses probed by ARP monitoring.
    #[talos(key = "arpIpTargets", omitempty, go_name = "BondARPIPTargets")]
    pub arp_ip_targets: Vec<NetipAddr>,
    /// IPv6 addresses probed by neighbour solicitation.
    #[talos(key = "nsIp6Targets", omitempty, go_name = "BondNSIP6Targets")]
    pub ns_ip6_targets: Vec<NetipAddr>,
    /// Which ARP probes and replies are checked.
    #[talos(key = "arpValidate", omitempty, go_name = "BondARPValidate")]
    pub arp_validate: Option<ArpValidate>,
    /// Whether any or all ARP targets must answer.
    #[talos(key = "arpAllTargets", omitempty, go_name = "BondARPAllTargets")]
    pub arp_all_targets: Option<ArpAllTargets>,
    /// How often LACP partners exchange LACPDUs (`slow`, `fast`).
    #[talos(key = "lacpRate", omitempty, go_name = "BondLACPRate")]
    pub lacp_rate: Option<LacpRate>,
    /// How MAC addresses are set on failover.
    #[talos(key = "failOverMac", omitempty, go_name = "BondFailOverMAC")]
    pub fail_over_mac: Option<FailOverMac>,
    /// How the 802.3ad aggregator is chosen.
    #[talos(key = "adSelect", omitempty, go_name = "BondADSelect")]
    pub ad_select: Option<AdSelect>,
    /// The 802.3ad actor system priority.
    #[talos(key = "adActorSysPrio", omitempty, go_name = "BondADActorSysPrio")]
    pub ad_actor_sys_prio: Option<u16>,
    /// The user-defined part of the 802.3ad port key.
    #[talos(key = "adUserPortKey", omitempty, go_name = "BondADUserPortKey")]
    pub ad_user_port_key: Option<u16>,
    /// Whether LACP is sent actively (`on`) or only answered (`off`).
    #[talos(key = "adLACPActive", omitempty, go_name = "BondADLACPActive")]
    pub ad_lacp_active: Option<AdLacpActive>,
    /// When the primary link takes over again.
    #[talos(key = "primaryReselect", omitempty, go_name = "BondPrimaryReselect")]
    pub primary_reselect: Option<PrimaryReselect>,
    /// How many IGMP membership reports are sent after a failover.
    #[talos(key = "resendIGMP", omitempty, go_name = "BondResendIGMP")]
    pub resend_igmp: Option<u32>,
    /// How many links must be up for the bond to be up.
    #[talos(key = "minLinks", omitempty, go_name = "BondMinLinks")]
    pub min_links: Option<u32>,
    /// Seconds between learning packets sent to each peer switch.
    #[talos(key = "lpInterval", omitempty, go_name = "BondLPInterval")]
    pub lp_interval: Option<u32>,
    /// Packets sent through a link before the next one (`balance-rr`).
    #[talos(key = "packetsPerSlave", omitempty, go_name = "BondPacketsPerSlave")]
    pub packets_per_slave: Option<u32>,
    /// How many peer notifications are sent after a failover.
    #[talos(key = "numPeerNotif", omitempty, go_name = "BondNumPeerNotif")]
    pub num_peer_notif: Option<u8>,
    /// Whether transmit load balancing spreads by load (1) or by hash (0).
    #[talos(key = "tlbLogicalLb", omitempty, go_name = "BondTLBDynamicLB")]
    pub tlb_logical_lb: Option<u8>,
    /// Whether duplicate frames received on inactive links are delivered.
    #[talos(key = "allSlavesActive", omitempty, go_name = "BondAllSlavesActive")]
    pub all_slaves_active: Option<u8>,
    /// Milliseconds between peer notifications after a failover.
    #[talos(key = "peerNotifDelay", omitempty, go_name = "BondPeerNotifyDelay")]
    pub peer_notif_delay: Option<u32>,
    /// How many missed ARP monitoring intervals mark a link down.
    #[talos(key = "missedMax", omitempty, go_name = "BondMissedMax")]
    pub missed_max: Option<u8>,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `network.BridgeSTPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BridgeSTPConfig")]
pub struct BridgeStpConfig {
    /// Runs the spanning tree protocol on the bridge.
    #[talos(key = "enabled", omitempty, go_name = "BridgeSTPEnabled")]
    pub enabled: Option<bool>,
}

/// `network.BridgeVLANConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BridgeVLANConfig")]
pub struct BridgeVlanConfig {
    /// Makes the bridge filter frames by VLAN.
    #[talos(key = "filtering", omitempty, go_name = "BridgeVLANFiltering")]
    pub filtering: Option<bool>,
}

/// `BridgeConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BridgeConfigV1Alpha1")]
pub struct BridgeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The bridge link's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The bridge's MAC address.
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    /// The links enslaved to the bridge.
    #[talos(key = "links", omitempty, go_name = "BridgeLinks")]
    pub links: Vec<String>,
    /// Spanning tree settings.
    #[talos(key = "stp", omitempty, go_name = "BridgeSTP")]
    pub stp: BridgeStpConfig,
    /// VLAN settings of the bridge.
    #[talos(key = "vlan", omitempty, go_name = "BridgeVLAN")]
    pub vlan: BridgeVlanConfig,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `DummyLinkConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.DummyLinkConfigV1Alpha1")]
pub struct DummyLinkConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The dummy link's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The dummy link's MAC address.
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `VLANConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.VLANConfigV1Alpha1")]
pub struct VlanConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The VLAN link's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The VLAN ID (1-4094).
    #[talos(key = "vlanID", omitempty, go_name = "VLANIDConfig")]
    pub vlan_id: u16,
    /// The VLAN protocol (`802.1q` or `802.1ad`).
    #[talos(key = "vlanMode", omitempty, go_name = "VLANModeConfig")]
    pub vlan_mode: Option<VlanProtocol>,
    /// The link the VLAN sits on.
    #[talos(key = "parent", omitempty, go_name = "ParentLinkConfig")]
    pub parent: String,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `VRFConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.VRFConfigV1Alpha1")]
pub struct VrfConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The VRF link's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The VRF's MAC address.
    #[talos(key = "hardwareAddr", omitempty, go_name = "HardwareAddressConfig")]
    pub hardware_addr: HardwareAddr,
    /// The links enslaved to the VRF.
    #[talos(key = "links", omitempty, go_name = "VRFLinks")]
    pub links: Vec<String>,
    /// The routing table the VRF uses.
    #[talos(key = "table", go_name = "VRFTable")]
    pub table: RoutingTable,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}

/// `network.WireguardPeer`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.WireguardPeer")]
pub struct WireguardPeer {
    /// The peer's public key (base64).
    #[talos(key = "publicKey", omitempty, go_name = "WireguardPublicKey")]
    pub public_key: String,
    /// An extra symmetric key shared with the peer; a secret.
    #[talos(key = "presharedKey", omitempty, go_name = "WireguardPresharedKey")]
    pub preshared_key: String,
    /// Where the peer is reached (`host:port`).
    #[talos(key = "endpoint", omitempty, go_name = "WireguardEndpoint")]
    pub endpoint: AddrPort,
    /// How often a keepalive is sent to the peer (0 disables it).
    #[talos(key = "persistentKeepaliveInterval", omitempty, go_name = "WireguardPersistentKeepaliveInterval")]
    pub persistent_keepalive_interval: Duration,
    /// The networks routed to, and accepted from, the peer.
    #[talos(key = "allowedIPs", omitempty, go_name = "WireguardAllowedIPs")]
    pub allowed_ips: Vec<Prefix>,
}

/// `WireguardConfig` (named).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.WireguardConfigV1Alpha1")]
pub struct WireguardConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The WireGuard link's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The tunnel's private key (base64); a secret.
    #[talos(key = "privateKey", omitempty, go_name = "WireguardPrivateKey")]
    pub private_key: String,
    /// The UDP port the tunnel listens on.
    #[talos(key = "listenPort", omitempty, go_name = "WireguardListenPort")]
    pub listen_port: i64,
    /// The firewall mark set on the tunnel's packets.
    #[talos(key = "firewallMark", omitempty, go_name = "WireguardFirewallMark")]
    pub firewall_mark: i64,
    /// The tunnel's peers.
    #[talos(key = "peers", omitempty, go_name = "WireguardPeers")]
    pub peers: Vec<WireguardPeer>,
    /// The settings every link kind shares (up, MTU, addresses, routes), inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}
