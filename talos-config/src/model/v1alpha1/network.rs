//! `machine.network` of the legacy document: interfaces, bonds, bridges, VLANs, routes, VIPs,
//! WireGuard, KubeSpan.

use talos_config_derive::Talos;

use crate::value::Duration;

use super::lists::keyed_list;

/// `v1alpha1.NetworkConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.NetworkConfig")]
pub struct NetworkConfig {
    #[talos(key = "hostname", omitempty, go_name = "NetworkHostname")]
    pub hostname: String,
    #[talos(key = "interfaces", omitempty, go_name = "NetworkInterfaces")]
    pub interfaces: NetworkDeviceList,
    #[talos(key = "nameservers", omitempty, go_name = "NameServers")]
    pub nameservers: crate::value::NilableVec<String>,
    #[talos(key = "searchDomains", omitempty, go_name = "Searches")]
    pub search_domains: crate::value::NilableVec<String>,
    #[talos(key = "extraHostEntries", omitempty, go_name = "ExtraHostEntries")]
    pub extra_host_entries: Vec<Option<ExtraHost>>,
    #[talos(key = "kubespan", omitempty, go_name = "NetworkKubeSpan")]
    pub kubespan: Option<NetworkKubeSpan>,
    #[talos(key = "disableSearchDomain", omitempty, go_name = "NetworkDisableSearchDomain")]
    pub disable_search_domain: Option<bool>,
}

/// `v1alpha1.ExtraHost`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ExtraHost")]
pub struct ExtraHost {
    #[talos(key = "ip", go_name = "HostIP")]
    pub ip: String,
    #[talos(key = "aliases", go_name = "HostAliases")]
    pub aliases: Vec<String>,
}

/// `v1alpha1.Device`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Device")]
pub struct Device {
    #[talos(key = "interface", omitempty, go_name = "DeviceInterface")]
    pub interface: String,
    #[talos(key = "deviceSelector", omitempty, go_name = "DeviceSelector")]
    pub device_selector: Option<NetworkDeviceSelector>,
    #[talos(key = "addresses", omitempty, go_name = "DeviceAddresses")]
    pub addresses: Vec<String>,
    #[talos(key = "cidr", omitempty, go_name = "DeviceCIDR")]
    pub cidr: String,
    #[talos(key = "routes", omitempty, go_name = "DeviceRoutes")]
    pub routes: Vec<Option<Route>>,
    #[talos(key = "bond", omitempty, go_name = "DeviceBond")]
    pub bond: Option<Bond>,
    #[talos(key = "bridge", omitempty, go_name = "DeviceBridge")]
    pub bridge: Option<Bridge>,
    #[talos(key = "bridgePort", omitempty, go_name = "DeviceBridgePort")]
    pub bridge_port: Option<BridgePort>,
    #[talos(key = "vlans", omitempty, go_name = "DeviceVlans")]
    pub vlans: VlanList,
    #[talos(key = "mtu", omitempty, go_name = "DeviceMTU")]
    pub mtu: i64,
    #[talos(key = "dhcp", omitempty, go_name = "DeviceDHCP")]
    pub dhcp: Option<bool>,
    #[talos(key = "ignore", omitempty, go_name = "DeviceIgnore")]
    pub ignore: Option<bool>,
    #[talos(key = "dummy", omitempty, go_name = "DeviceDummy")]
    pub dummy: Option<bool>,
    #[talos(key = "dhcpOptions", omitempty, go_name = "DeviceDHCPOptions")]
    pub dhcp_options: Option<DHCPOptions>,
    #[talos(key = "wireguard", omitempty, go_name = "DeviceWireguardConfig")]
    pub wireguard: Option<DeviceWireguardConfig>,
    #[talos(key = "vip", omitempty, go_name = "DeviceVIPConfig")]
    pub vip: Option<DeviceVIPConfig>,
}

/// `v1alpha1.DHCPOptions`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DHCPOptions")]
pub struct DHCPOptions {
    #[talos(key = "routeMetric", go_name = "DHCPRouteMetric")]
    pub route_metric: u32,
    #[talos(key = "ipv4", omitempty, go_name = "DHCPIPv4")]
    pub ipv4: Option<bool>,
    #[talos(key = "ipv6", omitempty, go_name = "DHCPIPv6")]
    pub ipv6: Option<bool>,
    #[talos(key = "duidv6", omitempty, go_name = "DHCPDUIDv6")]
    pub duidv6: String,
}

/// `v1alpha1.DeviceWireguardConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DeviceWireguardConfig")]
pub struct DeviceWireguardConfig {
    #[talos(key = "privateKey", omitempty, go_name = "WireguardPrivateKey")]
    pub private_key: String,
    #[talos(key = "listenPort", omitempty, go_name = "WireguardListenPort")]
    pub listen_port: i64,
    #[talos(key = "firewallMark", omitempty, go_name = "WireguardFirewallMark")]
    pub firewall_mark: i64,
    #[talos(key = "peers", omitempty, go_name = "WireguardPeers")]
    pub peers: Vec<Option<DeviceWireguardPeer>>,
}

/// `v1alpha1.DeviceWireguardPeer`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DeviceWireguardPeer")]
pub struct DeviceWireguardPeer {
    #[talos(key = "publicKey", omitempty, go_name = "WireguardPublicKey")]
    pub public_key: String,
    #[talos(key = "endpoint", omitempty, go_name = "WireguardEndpoint")]
    pub endpoint: String,
    #[talos(key = "persistentKeepaliveInterval", omitempty, go_name = "WireguardPersistentKeepaliveInterval")]
    pub persistent_keepalive_interval: Duration,
    #[talos(key = "allowedIPs", omitempty, go_name = "WireguardAllowedIPs")]
    pub allowed_ips: Vec<String>,
}

/// `v1alpha1.DeviceVIPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DeviceVIPConfig")]
pub struct DeviceVIPConfig {
    #[talos(key = "ip", omitempty, go_name = "SharedIP")]
    pub ip: String,
    #[talos(key = "equinixMetal", omitempty, go_name = "EquinixMetalConfig")]
    pub equinix_metal: Option<VIPEquinixMetalConfig>,
    #[talos(key = "hcloud", omitempty, go_name = "HCloudConfig")]
    pub hcloud: Option<VIPHCloudConfig>,
}

/// `v1alpha1.VIPEquinixMetalConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.VIPEquinixMetalConfig")]
pub struct VIPEquinixMetalConfig {
    #[talos(key = "apiToken", go_name = "EquinixMetalAPIToken")]
    pub api_token: String,
}

/// `v1alpha1.VIPHCloudConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.VIPHCloudConfig")]
pub struct VIPHCloudConfig {
    #[talos(key = "apiToken", go_name = "HCloudAPIToken")]
    pub api_token: String,
}

/// `v1alpha1.Bond`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Bond")]
pub struct Bond {
    #[talos(key = "interfaces", go_name = "BondInterfaces")]
    pub interfaces: Vec<String>,
    #[talos(key = "deviceSelectors", omitempty, go_name = "BondDeviceSelectors")]
    pub device_selectors: Vec<NetworkDeviceSelector>,
    #[talos(key = "arpIPTarget", omitempty, go_name = "BondARPIPTarget")]
    pub arp_ip_target: Vec<String>,
    #[talos(key = "mode", go_name = "BondMode")]
    pub mode: String,
    #[talos(key = "xmitHashPolicy", omitempty, go_name = "BondHashPolicy")]
    pub xmit_hash_policy: String,
    #[talos(key = "lacpRate", omitempty, go_name = "BondLACPRate")]
    pub lacp_rate: String,
    #[talos(key = "adActorSystem", omitempty, go_name = "BondADActorSystem")]
    pub ad_actor_system: String,
    #[talos(key = "arpValidate", omitempty, go_name = "BondARPValidate")]
    pub arp_validate: String,
    #[talos(key = "arpAllTargets", omitempty, go_name = "BondARPAllTargets")]
    pub arp_all_targets: String,
    #[talos(key = "primary", omitempty, go_name = "BondPrimary")]
    pub primary: String,
    #[talos(key = "primaryReselect", omitempty, go_name = "BondPrimaryReselect")]
    pub primary_reselect: String,
    #[talos(key = "failOverMac", omitempty, go_name = "BondFailOverMac")]
    pub fail_over_mac: String,
    #[talos(key = "adSelect", omitempty, go_name = "BondADSelect")]
    pub ad_select: String,
    #[talos(key = "miimon", omitempty, go_name = "BondMIIMon")]
    pub miimon: u32,
    #[talos(key = "updelay", omitempty, go_name = "BondUpDelay")]
    pub updelay: u32,
    #[talos(key = "downdelay", omitempty, go_name = "BondDownDelay")]
    pub downdelay: u32,
    #[talos(key = "arpInterval", omitempty, go_name = "BondARPInterval")]
    pub arp_interval: u32,
    #[talos(key = "resendIgmp", omitempty, go_name = "BondResendIGMP")]
    pub resend_igmp: u32,
    #[talos(key = "minLinks", omitempty, go_name = "BondMinLinks")]
    pub min_links: u32,
    #[talos(key = "lpInterval", omitempty, go_name = "BondLPInterval")]
    pub lp_interval: u32,
    #[talos(key = "packetsPerSlave", omitempty, go_name = "BondPacketsPerSlave")]
    pub packets_per_slave: u32,
    #[talos(key = "numPeerNotif", omitempty, go_name = "BondNumPeerNotif")]
    pub num_peer_notif: u8,
    #[talos(key = "tlbDynamicLb", omitempty, go_name = "BondTLBDynamicLB")]
    pub tlb_dynamic_lb: u8,
    #[talos(key = "allSlavesActive", omitempty, go_name = "BondAllSlavesActive")]
    pub all_slaves_active: u8,
    #[talos(key = "useCarrier", omitempty, go_name = "BondUseCarrier")]
    pub use_carrier: Option<bool>,
    #[talos(key = "adActorSysPrio", omitempty, go_name = "BondADActorSysPrio")]
    pub ad_actor_sys_prio: u16,
    #[talos(key = "adUserPortKey", omitempty, go_name = "BondADUserPortKey")]
    pub ad_user_port_key: u16,
    #[talos(key = "peerNotifyDelay", omitempty, go_name = "BondPeerNotifyDelay")]
    pub peer_notify_delay: u32,
}

/// `v1alpha1.STP`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.STP")]
pub struct STP {
    #[talos(key = "enabled", omitempty, go_name = "STPEnabled")]
    pub enabled: Option<bool>,
}

/// `v1alpha1.BridgeVLAN`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.BridgeVLAN")]
pub struct BridgeVLAN {
    #[talos(key = "vlanFiltering", omitempty, go_name = "BridgeVLANFiltering")]
    pub vlan_filtering: Option<bool>,
}

/// `v1alpha1.Bridge`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Bridge")]
pub struct Bridge {
    #[talos(key = "interfaces", go_name = "BridgedInterfaces")]
    pub interfaces: Vec<String>,
    #[talos(key = "stp", omitempty, go_name = "BridgeSTP")]
    pub stp: Option<STP>,
    #[talos(key = "vlan", omitempty, go_name = "BridgeVLAN")]
    pub vlan: Option<BridgeVLAN>,
}

/// `v1alpha1.BridgePort`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.BridgePort")]
pub struct BridgePort {
    #[talos(key = "master", omitempty, go_name = "BridgePortMaster")]
    pub master: String,
}

/// `v1alpha1.Vlan`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Vlan")]
pub struct Vlan {
    #[talos(key = "addresses", omitempty, go_name = "VlanAddresses")]
    pub addresses: Vec<String>,
    #[talos(key = "cidr", omitempty, go_name = "VlanCIDR")]
    pub cidr: String,
    #[talos(key = "routes", go_name = "VlanRoutes")]
    pub routes: Vec<Option<Route>>,
    #[talos(key = "dhcp", omitempty, go_name = "VlanDHCP")]
    pub dhcp: Option<bool>,
    #[talos(key = "vlanId", go_name = "VlanID")]
    pub vlan_id: u16,
    #[talos(key = "mtu", omitempty, go_name = "VlanMTU")]
    pub mtu: u32,
    #[talos(key = "vip", omitempty, go_name = "VlanVIP")]
    pub vip: Option<DeviceVIPConfig>,
    #[talos(key = "dhcpOptions", omitempty, go_name = "VlanDHCPOptions")]
    pub dhcp_options: Option<DHCPOptions>,
}

/// `v1alpha1.Route`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Route")]
pub struct Route {
    #[talos(key = "network", go_name = "RouteNetwork")]
    pub network: String,
    #[talos(key = "gateway", go_name = "RouteGateway")]
    pub gateway: String,
    #[talos(key = "source", omitempty, go_name = "RouteSource")]
    pub source: String,
    #[talos(key = "metric", omitempty, go_name = "RouteMetric")]
    pub metric: u32,
    #[talos(key = "mtu", omitempty, go_name = "RouteMTU")]
    pub mtu: u32,
}

/// `v1alpha1.NetworkKubeSpan`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.NetworkKubeSpan")]
pub struct NetworkKubeSpan {
    #[talos(key = "enabled", omitempty, go_name = "KubeSpanEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "advertiseKubernetesNetworks", omitempty, go_name = "KubeSpanAdvertiseKubernetesNetworks")]
    pub advertise_kubernetes_networks: Option<bool>,
    #[talos(key = "allowDownPeerBypass", omitempty, go_name = "KubeSpanAllowDownPeerBypass")]
    pub allow_down_peer_bypass: Option<bool>,
    #[talos(key = "harvestExtraEndpoints", omitempty, go_name = "KubeSpanHarvestExtraEndpoints")]
    pub harvest_extra_endpoints: Option<bool>,
    #[talos(key = "mtu", omitempty, go_name = "KubeSpanMTU")]
    pub mtu: Option<u32>,
    #[talos(key = "filters", omitempty, go_name = "KubeSpanFilters")]
    pub filters: Option<KubeSpanFilters>,
}

/// `v1alpha1.KubeSpanFilters`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubeSpanFilters")]
pub struct KubeSpanFilters {
    #[talos(key = "endpoints", omitempty, go_name = "KubeSpanFiltersEndpoints")]
    pub endpoints: Vec<String>,
    #[talos(key = "excludeAdvertisedNetworks", omitempty, go_name = "KubeSpanFiltersExcludeAdvertisedNetworks")]
    pub exclude_advertised_networks: Vec<String>,
}

/// `v1alpha1.NetworkDeviceSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.NetworkDeviceSelector")]
pub struct NetworkDeviceSelector {
    #[talos(key = "busPath", omitempty, go_name = "NetworkDeviceBus")]
    pub bus_path: String,
    #[talos(key = "hardwareAddr", omitempty, go_name = "NetworkDeviceHardwareAddress")]
    pub hardware_addr: String,
    #[talos(key = "permanentAddr", omitempty, go_name = "NetworkDevicePermanentAddress")]
    pub permanent_addr: String,
    #[talos(key = "pciID", omitempty, go_name = "NetworkDevicePCIID")]
    pub pci_id: String,
    #[talos(key = "driver", omitempty, go_name = "NetworkDeviceKernelDriver")]
    pub driver: String,
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
