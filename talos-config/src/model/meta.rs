//! `meta.Meta`: the `apiVersion` and `kind` every new-style document embeds inline.

use talos_config_derive::Talos;

/// `apiVersion` (omitempty) then `kind`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "meta.Meta")]
pub struct Meta {
    #[talos(key = "apiVersion", omitempty, go_name = "MetaAPIVersion")]
    pub api_version: String,
    #[talos(key = "kind", go_name = "MetaKind")]
    pub kind: String,
}
