//! Document kinds of upstream `pkg/machinery/config/types/k8s` (new in v1.14): the Kubernetes
//! settings that used to live in the v1alpha1 document's `cluster` and `machine.kubelet`, one
//! document per component.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::value::Unstructured;

mod apiserver;
mod cluster;
mod components;
mod manifests;

pub use apiserver::{
    KubeAdmissionControlConfig, KubeAggregatorCaConfig, KubeApiServerCaConfig, KubeApiServerConfig,
    KubeAuditPolicyConfig, KubeAuthenticationConfig, KubeAuthorizerConfig, KubeEtcdEncryptionConfig,
    KubeServiceAccountConfig, ServiceAccountAccepted, ServiceAccountIssuer,
};
pub use cluster::{
    KubeClusterConfig, KubeNetworkConfig, KubeNodeConfig, KubePrismConfig, KubeTalosApiAccessConfig, NodeIpConfig,
};
pub use components::{
    KubeControllerManagerConfig, KubeCoreDnsConfig, KubeCredentialProviderConfig, KubeFlannelCniConfig,
    KubeProxyConfig, KubeSchedulerConfig, KubeletConfig,
};
pub use manifests::{KubeExternalManifestConfig, KubeInlineManifestConfig, KubeStaticPodConfig};

/// `k8s.ResourcesConfig`: CPU and memory requests and limits of a Kubernetes component's pod.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.ResourcesConfig")]
pub struct ResourcesConfig {
    /// Resource requests (`cpu`, `memory`).
    #[talos(key = "requests", omitempty, go_name = "Requests")]
    pub requests: Unstructured,
    /// Resource limits (`cpu`, `memory`).
    #[talos(key = "limits", omitempty, go_name = "Limits")]
    pub limits: Unstructured,
}

/// The kinds of this area, as registered upstream (in file order).
pub const KINDS: &[KindEntry] = &[
    entry::<KubeAdmissionControlConfig>(),
    entry::<KubeAggregatorCaConfig>(),
    entry::<KubeApiServerConfig>(),
    entry::<KubeApiServerCaConfig>(),
    entry::<KubeAuditPolicyConfig>(),
    entry::<KubeAuthenticationConfig>(),
    entry::<KubeAuthorizerConfig>(),
    entry::<KubeClusterConfig>(),
    entry::<KubeControllerManagerConfig>(),
    entry::<KubeCoreDnsConfig>(),
    entry::<KubeCredentialProviderConfig>(),
    entry::<KubeEtcdEncryptionConfig>(),
    entry::<KubeExternalManifestConfig>(),
    entry::<KubeFlannelCniConfig>(),
    entry::<KubeInlineManifestConfig>(),
    entry::<KubeletConfig>(),
    entry::<KubePrismConfig>(),
    entry::<KubeNetworkConfig>(),
    entry::<KubeNodeConfig>(),
    entry::<KubeProxyConfig>(),
    entry::<KubeSchedulerConfig>(),
    entry::<KubeServiceAccountConfig>(),
    entry::<KubeStaticPodConfig>(),
    entry::<KubeTalosApiAccessConfig>(),
];
