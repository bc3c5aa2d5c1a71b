//! `machine.network` of the legacy document: interfaces, bonds, bridges, VLANs, routes, VIPs,
//! WireGuard, KubeSpan.

use talos_config_derive::Talos;

use crate::value::Duration;

use super::lists::keyed_list;

/// `v1alpha1.NetworkConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.NetworkConfig")]
pub struct NetworkConfig {
    /// The node's hostname (otherwise taken from DHCP, the platform or the stable default).
    #[talos(key = "hostname", omitempty, go_name = "NetworkHostname")]
    pub hostname: String,
    /// Per-link settings: addresses, routes, bonds, bridges, VLANs, DHCP.
    #[talos(key = "interfaces", omitempty, go_name = "NetworkInterfaces")]
    pub interfaces: NetworkDeviceList,
    /// DNS resolvers the host uses, replacing those learned from DHCP.
    #[talos(key = "nameservers", omitempty, go_name = "NameServers")]
    pub nameservers: crate::value::NilableVec<String>,
    /// DNS search domains the host uses.
    #[talos(key = "searchDomains", omitempty, go_name = "Searches")]
    pub search_domains: crate::value::NilableVec<String>,
    /// Extra lines for the node's `/etc/hosts`.
    #[talos(key = "extraHostEntries", omitempty, go_name = "ExtraHostEntries")]
    pub extra_host_entries: Vec<Option<ExtraHost>>,
    /// KubeSpan: the WireGuard mesh between cluster members.
    #[talos(key = "kubespan", omitempty, go_name = "NetworkKubeSpan")]
    pub kubespan: Option<NetworkKubeSpan>,
    /// Stops Talos from adding the hostname's domain as a search domain.
    #[talos(key = "disableSearchDomain", omitempty, go_name = "NetworkDisableSearchDomain")]
    pub disable_search_domain: Option<bool>,
}

/// `v1alpha1.ExtraHost`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ExtraHost")]
pub struct ExtraHost {
    /// The address the names resolve to.
    #[talos(key = "ip", go_name = "HostIP")]
    pub ip: String,
    /// The names that resolve to the address.
    #[talos(key = "aliases", go_name = "HostAliases")]
    pub aliases: Vec<String>,
}

/// `v1alpha1.Device`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Device")]
pub struct Device {
    /// The link's name (`eth0`, `bond0`, ...); either this or `deviceSelector`.
    #[talos(key = "interface", omitempty, go_name = "DeviceInterface")]
    pub interface: String,
    /// Picks the link by its hardware facts instead of its name.
    #[talos(key = "deviceSelector", omitempty, go_name = "DeviceSelector")]
    pub device_selector: Option<NetworkDeviceSelector>,
    /// Static addresses in CIDR notation.
    #[talos(key = "addresses", omitempty, go_name = "DeviceAddresses")]
    pub addresses: Vec<String>,
    /// A single static address (deprecated: use `addresses`).
    #[talos(key = "cidr", omitempty, go_name = "DeviceCIDR")]
    pub cidr: String,
    /// Static routes through this link.
    #[talos(key = "routes", omitempty, go_name = "DeviceRoutes")]
    pub routes: Vec<Option<Route>>,
    /// Makes this link a bond over other links.
    #[talos(key = "bond", omitempty, go_name = "DeviceBond")]
    pub bond: Option<Bond>,
    /// Makes this link a bridge over other links.
    #[talos(key = "bridge", omitempty, go_name = "DeviceBridge")]
    pub bridge: Option<Bridge>,
    /// Enslaves this link to a bridge.
    #[talos(key = "bridgePort", omitempty, go_name = "DeviceBridgePort")]
    pub bridge_port: Option<BridgePort>,
    /// VLAN sub-links on top of this link.
    #[talos(key = "vlans", omitempty, go_name = "DeviceVlans")]
    pub vlans: VlanList,
    /// The link's MTU in bytes (0 keeps the default).
    #[talos(key = "mtu", omitempty, go_name = "DeviceMTU")]
    pub mtu: i64,
    /// Runs a DHCP client on the link.
    #[talos(key = "dhcp", omitempty, go_name = "DeviceDHCP")]
    pub dhcp: Option<bool>,
    /// Leaves the link entirely to something else: Talos does not touch it.
    #[talos(key = "ignore", omitempty, go_name = "DeviceIgnore")]
    pub ignore: Option<bool>,
    /// Creates the link as a dummy interface.
    #[talos(key = "dummy", omitempty, go_name = "DeviceDummy")]
    pub dummy: Option<bool>,
    /// Tuning of the DHCP client (route metric, families, DUID).
    #[talos(key = "dhcpOptions", omitempty, go_name = "DeviceDHCPOptions")]
    pub dhcp_options: Option<DHCPOptions>,
    /// Makes the link a WireGuard tunnel.
    #[talos(key = "wireguard", omitempty, go_name = "DeviceWireguardConfig")]
    pub wireguard: Option<DeviceWireguardConfig>,
    /// A shared virtual IP that one control plane node at a time holds on this link.
    #[talos(key = "vip", omitempty, go_name = "DeviceVIPConfig")]
    pub vip: Option<DeviceVIPConfig>,
}

/// `v1alpha1.DHCPOptions`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DHCPOptions")]
pub struct DHCPOptions {
    /// The metric of routes learned from DHCP.
    #[talos(key = "routeMetric", go_name = "DHCPRouteMetric")]
    pub route_metric: u32,
    /// Asks for an IPv4 lease (on unless set to false).
    #[talos(key = "ipv4", omitempty, go_name = "DHCPIPv4")]
    pub ipv4: Option<bool>,
    /// Asks for an IPv6 lease.
    #[talos(key = "ipv6", omitempty, go_name = "DHCPIPv6")]
    pub ipv6: Option<bool>,
    /// The DHCPv6 client identifier (DUID), in hex.
    #[talos(key = "duidv6", omitempty, go_name = "DHCPDUIDv6")]
    pub duidv6: String,
}

/// `v1alpha1.DeviceWireguardConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DeviceWireguardConfig")]
pub struct DeviceWireguardConfig {
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
    pub peers: Vec<Option<DeviceWireguardPeer>>,
}

/// `v1alpha1.DeviceWireguardPeer`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DeviceWireguardPeer")]
pub struct DeviceWireguardPeer {
    /// The peer's public key (base64).
    #[talos(key = "publicKey", omitempty, go_name = "WireguardPublicKey")]
    pub public_key: String,
    /// Where the peer is reached (`host:port`).
    #[talos(key = "endpoint", omitempty, go_name = "WireguardEndpoint")]
    pub endpoint: String,
    /// How often a keepalive is sent to the peer (0 disables it).
    #[talos(key = "persistentKeepaliveInterval", omitempty, go_name = "WireguardPersistentKeepaliveInterval")]
    pub persistent_keepalive_interval: Duration,
    /// The networks routed to, and accepted from, the peer.
    #[talos(key = "allowedIPs", omitempty, go_name = "WireguardAllowedIPs")]
    pub allowed_ips: Vec<String>,
}

/// `v1alpha1.DeviceVIPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DeviceVIPConfig")]
pub struct DeviceVIPConfig {
    /// The virtual IP address.
    #[talos(key = "ip", omitempty, go_name = "SharedIP")]
    pub ip: String,
    /// Moves the VIP through the Equinix Metal API instead of gratuitous ARP.
    #[talos(key = "equinixMetal", omitempty, go_name = "EquinixMetalConfig")]
    pub equinix_metal: Option<VIPEquinixMetalConfig>,
    /// Moves the VIP through the Hetzner Cloud API instead of gratuitous ARP.
    #[talos(key = "hcloud", omitempty, go_name = "HCloudConfig")]
    pub hcloud: Option<VIPHCloudConfig>,
}

/// `v1alpha1.VIPEquinixMetalConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.VIPEquinixMetalConfig")]
pub struct VIPEquinixMetalConfig {
    /// The Equinix Metal API token; a secret.
    #[talos(key = "apiToken", go_name = "EquinixMetalAPIToken")]
    pub api_token: String,
}

/// `v1alpha1.VIPHCloudConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.VIPHCloudConfig")]
pub struct VIPHCloudConfig {
    /// The Hetzner Cloud API token; a secret.
    #[talos(key = "apiToken", go_name = "HCloudAPIToken")]
    pub api_token: String,
}

/// `v1alpha1.Bond`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Bond")]
pub struct Bond {
    /// The links enslaved to the bond, by name.
    #[talos(key = "interfaces", go_name = "BondInterfaces")]
    pub interfaces: Vec<String>,
    /// The links enslaved to the bond, by hardware facts.
    #[talos(key = "deviceSelectors", omitempty, go_name = "BondDeviceSelectors")]
    pub device_selectors: Vec<NetworkDeviceSelector>,
    /// Addresses probed by ARP monitoring.
    #[talos(key = "arpIPTarget", omitempty, go_name = "BondARPIPTarget")]
    pub arp_ip_target: Vec<String>,
    /// The bonding mode (`balance-rr`, `active-backup`, `802.3ad`, ...).
    #[talos(key = "mode", go_name = "BondMode")]
    pub mode: String,
    /// How traffic is spread over the links (`layer2`, `layer3+4`, ...).
    #[talos(key = "xmitHashPolicy", omitempty, go_name = "BondHashPolicy")]
    pub xmit_hash_policy: String,
    /// How often LACP partners exchange LACPDUs (`slow`, `fast`).
    #[talos(key = "lacpRate", omitempty, go_name = "BondLACPRate")]
    pub lacp_rate: String,
    /// The MAC address used as the 802.3ad actor system ID.
    #[talos(key = "adActorSystem", omitempty, go_name = "BondADActorSystem")]
    pub ad_actor_system: String,
    /// Which ARP probes and replies are checked (`none`, `active`, ...).
    #[talos(key = "arpValidate", omitempty, go_name = "BondARPValidate")]
    pub arp_validate: String,
    /// Whether any or all ARP targets must answer (`any`, `all`).
    #[talos(key = "arpAllTargets", omitempty, go_name = "BondARPAllTargets")]
    pub arp_all_targets: String,
    /// The preferred link in active-backup style modes.
    #[talos(key = "primary", omitempty, go_name = "BondPrimary")]
    pub primary: String,
    /// When the primary link takes over again (`always`, `better`, `failure`).
    #[talos(key = "primaryReselect", omitempty, go_name = "BondPrimaryReselect")]
    pub primary_reselect: String,
    /// How MAC addresses are set on failover (`none`, `active`, `follow`).
    #[talos(key = "failOverMac", omitempty, go_name = "BondFailOverMac")]
    pub fail_over_mac: String,
    /// How the 802.3ad aggregator is chosen (`stable`, `bandwidth`, `count`).
    #[talos(key = "adSelect", omitempty, go_name = "BondADSelect")]
    pub ad_select: String,
    /// The link monitoring interval, in milliseconds.
    #[talos(key = "miimon", omitempty, go_name = "BondMIIMon")]
    pub miimon: u32,
    /// Milliseconds to wait before using a link that came up.
    #[talos(key = "updelay", omitempty, go_name = "BondUpDelay")]
    pub updelay: u32,
    /// Milliseconds to wait before dropping a link that went down.
    #[talos(key = "downdelay", omitempty, go_name = "BondDownDelay")]
    pub downdelay: u32,
    /// The ARP monitoring interval, in milliseconds.
    #[talos(key = "arpInterval", omitempty, go_name = "BondARPInterval")]
    pub arp_interval: u32,
    /// How many IGMP membership reports are sent after a failover.
    #[talos(key = "resendIgmp", omitempty, go_name = "BondResendIGMP")]
    pub resend_igmp: u32,
    /// How many links must be up for the bond to be up.
    #[talos(key = "minLinks", omitempty, go_name = "BondMinLinks")]
    pub min_links: u32,
    /// Seconds between learning packets sent to each peer switch.
    #[talos(key = "lpInterval", omitempty, go_name = "BondLPInterval")]
    pub lp_interval: u32,
    /// Packets sent through a link before the next one (`balance-rr`).
    #[talos(key = "packetsPerSlave", omitempty, go_name = "BondPacketsPerSlave")]
    pub packets_per_slave: u32,
    /// How many peer notifications are sent after a failover.
    #[talos(key = "numPeerNotif", omitempty, go_name = "BondNumPeerNotif")]
    pub num_peer_notif: u8,
    /// Whether transmit load balancing spreads by load (1) or by hash (0).
    #[talos(key = "tlbDynamicLb", omitempty, go_name = "BondTLBDynamicLB")]
    pub tlb_dynamic_lb: u8,
    /// Whether duplicate frames received on inactive links are delivered (1) or dropped (0).
    #[talos(key = "allSlavesActive", omitempty, go_name = "BondAllSlavesActive")]
    pub all_slaves_active: u8,
    /// Whether link state comes from the carrier (else from MII/ethtool).
    #[talos(key = "useCarrier", omitempty, go_name = "BondUseCarrier")]
    pub use_carrier: Option<bool>,
    /// The 802.3ad actor system priority.
    #[talos(key = "adActorSysPrio", omitempty, go_name = "BondADActorSysPrio")]
    pub ad_actor_sys_prio: u16,
    /// The user-defined part of the 802.3ad port key.
    #[talos(key = "adUserPortKey", omitempty, go_name = "BondADUserPortKey")]
    pub ad_user_port_key: u16,
    /// Milliseconds between peer notifications after a failover.
    #[talos(key = "peerNotifyDelay", omitempty, go_name = "BondPeerNotifyDelay")]
    pub peer_notify_delay: u32,
}

/// `v1alpha1.STP`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.STP")]
pub struct STP {
    /// Runs the spanning tree protocol on the bridge.
    #[talos(key = "enabled", omitempty, go_name = "STPEnabled")]
    pub enabled: Option<bool>,
}

/// `v1alpha1.BridgeVLAN`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.BridgeVLAN")]
pub struct BridgeVLAN {
    /// Makes the bridge filter frames by VLAN.
    #[talos(key = "vlanFiltering", omitempty, go_name = "BridgeVLANFiltering")]
    pub vlan_filtering: Option<bool>,
}

/// `v1alpha1.Bridge`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Bridge")]
pub struct Bridge {
    /// The links enslaved to the bridge.
    #[talos(key = "interfaces", go_name = "BridgedInterfaces")]
    pub interfaces: Vec<String>,
    /// Spanning tree settings.
    #[talos(key = "stp", omitempty, go_name = "BridgeSTP")]
    pub stp: Option<STP>,
    /// VLAN settings of the bridge.
    #[talos(key = "vlan", omitempty, go_name = "BridgeVLAN")]
    pub vlan: Option<BridgeVLAN>,
}

/// `v1alpha1.BridgePort`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.BridgePort")]
pub struct BridgePort {
    /// The bridge this link joins.
    #[talos(key = "master", omitempty, go_name = "BridgePortMaster")]
    pub master: String,
}

/// `v1alpha1.Vlan`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Vlan")]
pub struct Vlan {
    /// Static addresses of the VLAN link, in CIDR notation.
    #[talos(key = "addresses", omitempty, go_name = "VlanAddresses")]
    pub addresses: Vec<String>,
    /// A single static address (deprecated: use `addresses`).
    #[talos(key = "cidr", omitempty, go_name = "VlanCIDR")]
    pub cidr: String,
    /// Static routes through the VLAN link.
    #[talos(key = "routes", go_name = "VlanRoutes")]
    pub routes: Vec<Option<Route>>,
    /// Runs a DHCP client on the VLAN link.
    #[talos(key = "dhcp", omitempty, go_name = "VlanDHCP")]
    pub dhcp: Option<bool>,
    /// The VLAN ID (1-4094).
    #[talos(key = "vlanId", go_name = "VlanID")]
    pub vlan_id: u16,
    /// The VLAN link's MTU in bytes.
    #[talos(key = "mtu", omitempty, go_name = "VlanMTU")]
    pub mtu: u32,
    /// A shared virtual IP on the VLAN link.
    #[talos(key = "vip", omitempty, go_name = "VlanVIP")]
    pub vip: Option<DeviceVIPConfig>,
    /// Tuning of the VLAN link's DHCP client.
    #[talos(key = "dhcpOptions", omitempty, go_name = "VlanDHCPOptions")]
    pub dhcp_options: Option<DHCPOptions>,
}

/// `v1alpha1.Route`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Route")]
pub struct Route {
    /// The destination in CIDR notation (empty for the default route).
    #[talos(key = "network", go_name = "RouteNetwork")]
    pub network: String,
    /// The next hop's address.
    #[talos(key = "gateway", go_name = "RouteGateway")]
    pub gateway: String,
    /// The source address packets on this route use.
    #[talos(key = "source", omitempty, go_name = "RouteSource")]
    pub source: String,
    /// The route's priority (lower wins).
    #[talos(key = "metric", omitempty, go_name = "RouteMetric")]
    pub metric: u32,
    /// The MTU of packets on this route.
    #[talos(key = "mtu", omitempty, go_name = "RouteMTU")]
    pub mtu: u32,
}

/// `v1alpha1.NetworkKubeSpan`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.NetworkKubeSpan")]
pub struct NetworkKubeSpan {
    /// Turns the KubeSpan mesh on.
    #[talos(key = "enabled", omitempty, go_name = "KubeSpanEnabled")]
    pub enabled: Option<bool>,
    /// Routes pod traffic through the mesh too.
    #[talos(key = "advertiseKubernetesNetworks", omitempty, go_name = "KubeSpanAdvertiseKubernetesNetworks")]
    pub advertise_kubernetes_networks: Option<bool>,
    /// Sends traffic around a peer whose tunnel is down instead of dropping it.
    #[talos(key = "allowDownPeerBypass", omitempty, go_name = "KubeSpanAllowDownPeerBypass")]
    pub allow_down_peer_bypass: Option<bool>,
    /// Learns more peer endpoints from the peers themselves.
    #[talos(key = "harvestExtraEndpoints", omitempty, go_name = "KubeSpanHarvestExtraEndpoints")]
    pub harvest_extra_endpoints: Option<bool>,
    /// The MTU of the KubeSpan link.
    #[talos(key = "mtu", omitempty, go_name = "KubeSpanMTU")]
    pub mtu: Option<u32>,
    /// Which endpoints and networks take part in the mesh.
    #[talos(key = "filters", omitempty, go_name = "KubeSpanFilters")]
    pub filters: Option<KubeSpanFilters>,
}

/// `v1alpha1.KubeSpanFilters`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubeSpanFilters")]
pub struct KubeSpanFilters {
    /// Endpoint filters (CIDRs, `!` to exclude) for the addresses peers are reached at.
    #[talos(key = "endpoints", omitempty, go_name = "KubeSpanFiltersEndpoints")]
    pub endpoints: Vec<String>,
    /// Networks never advertised through the mesh.
    #[talos(key = "excludeAdvertisedNetworks", omitempty, go_name = "KubeSpanFiltersExcludeAdvertisedNetworks")]
    pub exclude_advertised_networks: Vec<String>,
}

/// `v1alpha1.NetworkDeviceSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.NetworkDeviceSelector")]
pub struct NetworkDeviceSelector {
    /// Matches the link's bus path (glob).
    #[talos(key = "busPath", omitempty, go_name = "NetworkDeviceBus")]
    pub bus_path: String,
    /// Matches the link's current MAC address (glob).
    #[talos(key = "hardwareAddr", omitempty, go_name = "NetworkDeviceHardwareAddress")]
    pub hardware_addr: String,
    /// Matches the link's permanent MAC address (glob).
    #[talos(key = "permanentAddr", omitempty, go_name = "NetworkDevicePermanentAddress")]
    pub permanent_addr: String,
    /// Matches the link's PCI vendor and device ID (glob).
    #[talos(key = "pciID", omitempty, go_name = "NetworkDevicePCIID")]
    pub pci_id: String,
    /// Matches the link's kernel driver name (glob).
    #[talos(key = "driver", omitempty, go_name = "NetworkDeviceKernelDriver")]
    pub driver: String,
    /// Matches only physical links.
    #[talos(key = "physical", omitempty, go_name = "NetworkDevicePhysical")]
    pub physical: Option<bool>,
}

/// Go struct equality of two selectors; `physical` is a pointer compared by identity, so a
/// selector with `physical` set never equals another one.
fn selector_eq(a: &NetworkDeviceSelector, b: &NetworkDeviceSelector) -> bool {
    a.bus_path == b.bus_path
        && a.hardware_addr == b.hardware_addr
        && a.permanent_addr == b.permanent_addr
        && a.pci_id == b.pci_id
        && a.driver == b.driver
        && a.physical.is_none()
        && b.physical.is_none()
}

keyed_list!(
    /// `v1alpha1.NetworkDeviceList` (`[]*Device`): keyed by `interface`, else by `deviceSelector`.
    NetworkDeviceList,
    Device,
    "v1alpha1.NetworkDeviceList",
    |l: &Device, r: &Device| {
        if !r.interface.is_empty() {
            l.interface == r.interface
        } else if let Some(rs) = &r.device_selector {
            l.device_selector.as_ref().is_some_and(|ls| selector_eq(ls, rs))
        } else {
            false
        }
    }
);

keyed_list!(
    /// `v1alpha1.VlanList` (`[]*Vlan`): keyed by `vlanId`.
    VlanList,
    Vlan,
    "v1alpha1.VlanList",
    |l: &Vlan, r: &Vlan| l.vlan_id == r.vlan_id
);
