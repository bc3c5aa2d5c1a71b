//! Document kinds of upstream `pkg/machinery/config/types/cri`.

use talos_config_derive::Talos;

use crate::document::{Kind, KindEntry, entry};
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;

/// `RegistryMirrorConfig` (named by the registry name): mirror endpoints of an image registry.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryMirrorConfigV1Alpha1")]
pub struct RegistryMirrorConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "endpoints", omitempty, go_name = "RegistryEndpoints")]
    pub endpoints: Vec<RegistryEndpoint>,
    #[talos(key = "skipFallback", omitempty, go_name = "RegistrySkipFallback")]
    pub skip_fallback: Option<bool>,
}

impl Kind for RegistryMirrorConfig {
    const KIND: &'static str = "RegistryMirrorConfig";
    const NAMED: bool = true;

    fn name(&self) -> &str {
        &self.name
    }
}

/// One mirror endpoint.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryEndpoint")]
pub struct RegistryEndpoint {
    #[talos(key = "url", go_name = "EndpointURL")]
    pub url: MetaUrl,
    #[talos(key = "overridePath", omitempty, go_name = "EndpointOverridePath")]
    pub override_path: Option<bool>,
}

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<RegistryMirrorConfig>()];
