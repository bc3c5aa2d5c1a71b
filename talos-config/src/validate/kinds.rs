//! Kinds without checks of their own yet (each gets a real `Validate` in its own module).

use super::Validate;
use crate::model::{block, cri, hardware, network, runtime, security, siderolink};

macro_rules! no_checks {
    ($($t:path),* $(,)?) => {$( impl Validate for $t {} )*};
}

no_checks!(
    network::BlackholeRouteConfig,
    network::BondConfig,
    network::BridgeConfig,
    network::Dhcpv4Config,
    network::Dhcpv6Config,
    network::DummyLinkConfig,
    network::EthernetConfig,
    network::HcloudVipConfig,
    network::Layer2VipConfig,
    network::LinkAliasConfig,
    network::LinkConfig,
    network::NetworkRuleConfig,
    network::NetworkDefaultActionConfig,
    network::RoutingRuleConfig,
    network::StaticHostConfig,
    network::TcpProbeConfig,
    network::VlanConfig,
    network::VrfConfig,
    network::WireguardConfig,
    network::HostnameConfig,
    network::KubeSpanConfig,
    network::KubeSpanEndpointsConfig,
    network::ResolverConfig,
    network::TimeSyncConfig,
    block::VolumeConfig,
    block::UserVolumeConfig,
    block::RawVolumeConfig,
    block::SwapVolumeConfig,
    block::ExistingVolumeConfig,
    block::ExternalVolumeConfig,
    block::ZswapConfig,
    cri::RegistryAuthConfig,
    cri::RegistryMirrorConfig,
    cri::RegistryTlsConfig,
    runtime::EnvironmentConfig,
    runtime::EventSinkConfig,
    runtime::KmsgLogConfig,
    runtime::OomConfig,
    runtime::WatchdogTimerConfig,
    runtime::ExtensionServiceConfig,
    security::ImageVerificationConfig,
    security::TrustedRootsConfig,
    siderolink::SideroLinkConfig,
    hardware::PciDriverRebindConfig,
);
