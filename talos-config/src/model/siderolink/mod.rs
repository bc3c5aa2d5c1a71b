//! Document kinds of upstream `pkg/machinery/config/types/siderolink`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

mod meta_url;

pub use meta_url::MetaUrl;

/// `SideroLinkConfig` (unnamed): the SideroLink API endpoint.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "siderolink.ConfigV1Alpha1")]
pub struct SideroLinkConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The SideroLink API URL (Omni), with the join token in its query.
    #[talos(key = "apiUrl", go_name = "APIUrlConfig")]
    pub api_url: MetaUrl,
    /// The node's unique token for SideroLink (a secret).
    #[talos(key = "uniqueToken", omitempty, go_name = "UniqueTokenConfig")]
    pub unique_token: String,
}

crate::document::unnamed_kind!(SideroLinkConfig => "SideroLinkConfig");

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<SideroLinkConfig>()];
