//! CRI documents new in v1.14: `CRIBaseRuntimeSpecConfig`, `CRICustomizationConfig` and
//! `ImageCacheConfig`.

use talos_config_derive::Talos;

use crate::model::meta::Meta;
use crate::value::{Replaced, Unstructured};

/// `CRIBaseRuntimeSpecConfig` (unnamed): overrides of the containers' base OCI runtime spec.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.CRIBaseRuntimeSpecConfigV1Alpha1")]
pub struct CriBaseRuntimeSpecConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The overrides; a patch replaces them as a whole.
    #[talos(key = "overrides", omitempty, go_name = "OverridesConfig")]
    pub overrides: Replaced<Unstructured>,
}
crate::document::unnamed_kind!(CriBaseRuntimeSpecConfig => "CRIBaseRuntimeSpecConfig" since V1_14_0_RC1);

/// `CRICustomizationConfig` (named): a containerd configuration fragment.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.CRICustomizationConfigV1Alpha1")]
pub struct CriCustomizationConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The fragment's name (fragments apply in name order).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The TOML text.
    #[talos(key = "content", go_name = "CustomizationContent")]
    pub content: String,
}
crate::document::named_kind!(CriCustomizationConfig => "CRICustomizationConfig" since V1_14_0_RC1);

/// `ImageCacheConfig` (unnamed): the machine's image cache.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.ImageCacheConfigV1Alpha1")]
pub struct ImageCacheConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The local image cache.
    #[talos(key = "local", go_name = "LocalConfig")]
    pub local: LocalImageCacheConfig,
}
crate::document::unnamed_kind!(ImageCacheConfig => "ImageCacheConfig" since V1_14_0_RC1);

/// `cri.LocalImageCacheConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.LocalImageCacheConfig")]
pub struct LocalImageCacheConfig {
    /// Turns the local image cache on.
    #[talos(key = "enabled", omitempty, go_name = "ConfigEnabled")]
    pub enabled: Option<bool>,
}
