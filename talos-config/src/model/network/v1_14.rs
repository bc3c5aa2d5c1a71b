//! Network documents new in v1.14: `BGPInstanceConfig`, `HTTPProbeConfig` and `VethConfig`.

use talos_config_derive::Talos;

use super::links::CommonLinkConfig;
use super::other::CommonProbeConfig;
use super::types::{Addr, Prefix};
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;
use crate::value::{Duration, Replaced};

/// `BGPInstanceConfig` (named): a BGP speaker.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BGPInstanceConfigV1Alpha1")]
pub struct BgpInstanceConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The instance's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The VRF the instance is bound to.
    #[talos(key = "vrf", omitempty, go_name = "BGPVRF")]
    pub vrf: String,
    /// The local autonomous system number.
    #[talos(key = "localASN", go_name = "BGPLocalASN")]
    pub local_asn: u32,
    /// The router ID (an IPv4 address).
    #[talos(key = "routerID", omitempty, go_name = "BGPRouterID")]
    pub router_id: Addr,
    /// The source address of installed routes.
    #[talos(key = "routeSource", omitempty, go_name = "BGPRouteSource")]
    pub route_source: Addr,
    /// Links whose addresses are advertised; a patch replaces the list.
    #[talos(key = "advertise", omitempty, go_name = "BGPAdvertise")]
    pub advertise: Replaced<Vec<String>>,
    /// Turns ECMP multipath on.
    #[talos(key = "multipath", omitempty, go_name = "BGPMultipath")]
    pub multipath: Option<bool>,
    /// The most equal-cost paths installed.
    #[talos(key = "maxPaths", omitempty, go_name = "BGPMaxPaths")]
    pub max_paths: u8,
    /// Installs learned routes (on unless set to false).
    #[talos(key = "installRoutes", omitempty, go_name = "BGPInstallRoutes")]
    pub install_routes: Option<bool>,
    /// Routes imported from other instances; a patch replaces the list.
    #[talos(key = "importRoutes", omitempty, go_name = "BGPImportRoutes")]
    pub import_routes: Replaced<Vec<BgpImportRoute>>,
    /// The BGP peers; a patch replaces the list.
    #[talos(key = "neighbors", omitempty, go_name = "BGPNeighborConfigs")]
    pub neighbors: Replaced<Vec<BgpNeighborConfig>>,
}
crate::document::named_kind!(BgpInstanceConfig => "BGPInstanceConfig" since V1_14_0_RC1);

/// `network.BGPImportRoute`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BGPImportRoute")]
pub struct BgpImportRoute {
    /// The instance routes are imported from.
    #[talos(key = "bgpInstance", go_name = "ImportBGPInstance")]
    pub bgp_instance: String,
    /// The prefixes imported.
    #[talos(key = "prefixes", go_name = "ImportPrefixes")]
    pub prefixes: Vec<Prefix>,
}

/// `network.BGPNeighborConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BGPNeighborConfig")]
pub struct BgpNeighborConfig {
    /// The peer's address.
    #[talos(key = "address", omitempty, go_name = "NeighborAddressConfig")]
    pub address: Addr,
    /// The link an unnumbered peer is reached over.
    #[talos(key = "link", omitempty, go_name = "NeighborLinkConfig")]
    pub link: String,
    /// The peer's autonomous system number.
    #[talos(key = "peerASN", omitempty, go_name = "NeighborPeerASN")]
    pub peer_asn: u32,
    /// A local ASN for this peer only.
    #[talos(key = "localASN", omitempty, go_name = "NeighborLocalASN")]
    pub local_asn: u32,
    /// Waits for the peer to connect.
    #[talos(key = "passive", omitempty, go_name = "NeighborPassive")]
    pub passive: bool,
    /// The BGP hold time.
    #[talos(key = "holdTime", omitempty, go_name = "NeighborHoldTime")]
    pub hold_time: Duration,
    /// BFD for this peer.
    #[talos(key = "bfd", omitempty, go_name = "NeighborBFDConfig")]
    pub bfd: Option<BgpBfdConfig>,
}

/// `network.BGPBFDConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.BGPBFDConfig")]
pub struct BgpBfdConfig {
    /// The BFD transmit interval.
    #[talos(key = "transmitInterval", omitempty, go_name = "BFDTransmitInterval")]
    pub transmit_interval: Duration,
    /// The BFD receive interval.
    #[talos(key = "receiveInterval", omitempty, go_name = "BFDReceiveInterval")]
    pub receive_interval: Duration,
    /// Missed packets before the session is down.
    #[talos(key = "detectMultiplier", omitempty, go_name = "BFDDetectMultiplier")]
    pub detect_multiplier: u8,
}

/// `HTTPProbeConfig` (named): a reachability probe over HTTP.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.HTTPProbeConfigV1Alpha1")]
pub struct HttpProbeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The probe's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Interval and failure threshold, inline in YAML.
    #[talos(inline)]
    pub common: CommonProbeConfig,
    /// The URL requested.
    #[talos(key = "url", go_name = "HTTPEndpoint")]
    pub url: MetaUrl,
    /// How long one request may take.
    #[talos(key = "timeout", omitempty, go_name = "HTTPTimeout")]
    pub timeout: Duration,
}
crate::document::named_kind!(HttpProbeConfig => "HTTPProbeConfig" since V1_14_0_RC1);

/// `VethConfig` (named): a virtual Ethernet pair.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.VethConfigV1Alpha1")]
pub struct VethConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// This end's link name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The other end.
    #[talos(key = "peer", go_name = "VethPeer")]
    pub peer: VethPeerConfig,
    /// This end's link settings, inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}
crate::document::named_kind!(VethConfig => "VethConfig" since V1_14_0_RC1);

/// `network.VethPeerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "network.VethPeerConfig")]
pub struct VethPeerConfig {
    /// The peer's link name.
    #[talos(key = "name", go_name = "VethPeerName")]
    pub name: String,
    /// The peer's link settings, inline in YAML.
    #[talos(inline)]
    pub common: CommonLinkConfig,
}
