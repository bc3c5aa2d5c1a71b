//! `meta.Meta`: the `apiVersion` and `kind` every new-style document embeds inline.

use talos_config_derive::Talos;

/// `apiVersion` (omitempty) then `kind`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "meta.Meta")]
pub struct Meta {
    /// The document's `apiVersion:` (`v1alpha1` for every multi-document kind).
    #[talos(key = "apiVersion", omitempty, go_name = "MetaAPIVersion")]
    pub api_version: String,
    /// The document's `kind:`, which picks its type.
    #[talos(key = "kind", go_name = "MetaKind")]
    pub kind: String,
}
