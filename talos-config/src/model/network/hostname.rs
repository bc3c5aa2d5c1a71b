//! `HostnameConfig` (unnamed).

use talos_config_derive::Talos;

use super::types::AutoHostnameKind;
use crate::document::Kind;
use crate::model::meta::Meta;

/// `network.HostnameConfigV1Alpha1`.
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

impl Kind for HostnameConfig {
    const KIND: &'static str = "HostnameConfig";
    const NAMED: bool = false;
}
