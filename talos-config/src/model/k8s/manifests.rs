//! Manifests Talos applies to the cluster (fetched or inline) and static pods it runs.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;
use crate::value::{Replaced, Unstructured};

/// `KubeExternalManifestConfig` (named): a manifest fetched from a URL and applied.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeExternalManifestConfigV1Alpha1")]
pub struct KubeExternalManifestConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The manifest's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// HTTP headers sent when fetching it.
    #[talos(key = "headers", omitempty, go_name = "HeadersSpec")]
    pub headers: BTreeMap<String, String>,
    /// Where it is fetched from.
    #[talos(key = "url", go_name = "URLSpec")]
    pub url: MetaUrl,
}

crate::document::named_kind!(KubeExternalManifestConfig => "KubeExternalManifestConfig" since V1_14_0_RC1);

/// `KubeInlineManifestConfig` (named): a manifest given inline and applied.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeInlineManifestConfigV1Alpha1")]
pub struct KubeInlineManifestConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The manifest's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The manifest's YAML text.
    #[talos(key = "manifest", go_name = "ManifestSpec")]
    pub manifest: String,
}

crate::document::named_kind!(KubeInlineManifestConfig => "KubeInlineManifestConfig" since V1_14_0_RC1);

/// `KubeStaticPodConfig` (named): a static pod the kubelet runs.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeStaticPodConfigV1Alpha1")]
pub struct KubeStaticPodConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The pod's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The `Pod` object; a patch replaces it whole.
    #[talos(key = "pod", go_name = "PodSpec")]
    pub pod: Replaced<Unstructured>,
}

crate::document::named_kind!(KubeStaticPodConfig => "KubeStaticPodConfig" since V1_14_0_RC1);
