//! The Kubernetes components' documents: controller manager, scheduler, kube-proxy, CoreDNS,
//! Flannel and the kubelet (with its credential providers).

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use super::ResourcesConfig;
use crate::model::meta::Meta;
use crate::model::v1alpha1::Args;
use crate::value::{Replaced, Unstructured};

/// `KubeControllerManagerConfig` (unnamed, control planes only): the kube-controller-manager
/// pod.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeControllerManagerConfigV1Alpha1")]
pub struct KubeControllerManagerConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Whether the pod runs (true when unset).
    #[talos(key = "enabled", omitempty, go_name = "PodEnabled")]
    pub enabled: Option<bool>,
    /// The image.
    #[talos(key = "image", go_name = "PodImage")]
    pub image: String,
    /// Extra command-line flags.
    #[talos(key = "extraArgs", omitempty, go_name = "PodArgs")]
    pub extra_args: Args,
    /// Extra environment variables of the pod.
    #[talos(key = "env", omitempty, go_name = "PodEnv")]
    pub env: BTreeMap<String, String>,
    /// CPU and memory requests and limits.
    #[talos(key = "resources", omitempty, go_name = "PodResources")]
    pub resources: ResourcesConfig,
}

crate::document::unnamed_kind!(KubeControllerManagerConfig => "KubeControllerManagerConfig" since V1_14_0_RC1 only control_planes);

/// `KubeSchedulerConfig` (unnamed, control planes only): the kube-scheduler pod.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeSchedulerConfigV1Alpha1")]
pub struct KubeSchedulerConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Whether the pod runs (true when unset).
    #[talos(key = "enabled", omitempty, go_name = "PodEnabled")]
    pub enabled: Option<bool>,
    /// The image.
    #[talos(key = "image", go_name = "PodImage")]
    pub image: String,
    /// A `KubeSchedulerConfiguration` merged into the generated one.
    #[talos(key = "config", go_name = "PodConfig")]
    pub config: Unstructured,
    /// Extra command-line flags.
    #[talos(key = "extraArgs", omitempty, go_name = "PodArgs")]
    pub extra_args: Args,
    /// Extra environment variables of the pod.
    #[talos(key = "env", omitempty, go_name = "PodEnv")]
    pub env: BTreeMap<String, String>,
    /// CPU and memory requests and limits.
    #[talos(key = "resources", omitempty, go_name = "PodResources")]
    pub resources: ResourcesConfig,
}

crate::document::unnamed_kind!(KubeSchedulerConfig => "KubeSchedulerConfig" since V1_14_0_RC1 only control_planes);

/// `KubeProxyConfig` (unnamed, control planes only): kube-proxy.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeProxyConfigV1Alpha1")]
pub struct KubeProxyConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Whether kube-proxy runs (true when unset).
    #[talos(key = "enabled", omitempty, go_name = "ProxyEnabled")]
    pub enabled: Option<bool>,
    /// The image.
    #[talos(key = "image", omitempty, go_name = "ProxyImage")]
    pub image: String,
    /// `nftables` (the default), `iptables` or `ipvs`.
    #[talos(key = "mode", omitempty, go_name = "ProxyMode")]
    pub mode: String,
    /// A `KubeProxyConfiguration` merged into the generated one.
    #[talos(key = "config", go_name = "ProxyConfig")]
    pub config: Unstructured,
    /// Extra command-line flags.
    #[talos(key = "extraArgs", omitempty, go_name = "ProxyExtraArgs")]
    pub extra_args: Args,
    /// CPU and memory requests and limits.
    #[talos(key = "resources", omitempty, go_name = "ProxyResources")]
    pub resources: ResourcesConfig,
}

crate::document::unnamed_kind!(KubeProxyConfig => "KubeProxyConfig" since V1_14_0_RC1 only control_planes);

/// `KubeCoreDNSConfig` (unnamed, control planes only): the CoreDNS deployment.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeCoreDNSConfigV1Alpha1")]
pub struct KubeCoreDnsConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Whether CoreDNS is deployed (true when unset).
    #[talos(key = "enabled", omitempty, go_name = "PodEnabled")]
    pub enabled: Option<bool>,
    /// The image (Talos's default when empty).
    #[talos(key = "image", omitempty, go_name = "PodImage")]
    pub image: String,
}

crate::document::unnamed_kind!(KubeCoreDnsConfig => "KubeCoreDNSConfig" since V1_14_0_RC1 only control_planes);

/// `KubeFlannelCNIConfig` (unnamed, control planes only): the Flannel CNI Talos deploys.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeFlannelCNIConfigV1Alpha1")]
pub struct KubeFlannelCniConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The Flannel backend (`vxlan`).
    #[talos(key = "backendType", go_name = "FlannelBackendType")]
    pub backend_type: String,
    /// The backend's UDP port.
    #[talos(key = "backendPort", omitempty, go_name = "FlannelBackendPort")]
    pub backend_port: u16,
    /// The backend's MTU.
    #[talos(key = "backendMTU", omitempty, go_name = "FlannelBackendMTU")]
    pub backend_mtu: u32,
    /// Further backend settings.
    #[talos(key = "backendExtraConfig", omitempty, go_name = "FlannelBackendExtraConfig")]
    pub backend_extra_config: Unstructured,
    /// CPU and memory requests and limits.
    #[talos(key = "resources", omitempty, go_name = "FlannelResources")]
    pub resources: ResourcesConfig,
    /// Extra flanneld flags.
    #[talos(key = "extraArgs", omitempty, go_name = "FlannelExtraArgs")]
    pub extra_args: Vec<String>,
    /// Whether kube-network-policies is deployed along.
    #[talos(key = "kubeNetworkPoliciesEnabled", omitempty, go_name = "FlannelKubeNetworkPoliciesEnabled")]
    pub kube_network_policies_enabled: Option<bool>,
}

crate::document::unnamed_kind!(KubeFlannelCniConfig => "KubeFlannelCNIConfig" since V1_14_0_RC1 only control_planes);

/// `KubeletConfig` (unnamed): the kubelet.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeletConfigV1Alpha1")]
pub struct KubeletConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The kubelet image.
    #[talos(key = "image", go_name = "KubeletImage")]
    pub image: String,
    /// A `KubeletConfiguration` merged into the generated one.
    #[talos(key = "config", go_name = "KubeletConfig")]
    pub config: Unstructured,
    /// Extra command-line flags.
    #[talos(key = "extraArgs", omitempty, go_name = "KubeletArgs")]
    pub extra_args: Args,
    /// The cluster DNS addresses handed to pods.
    #[talos(key = "clusterDNS", omitempty, go_name = "KubeletClusterDNS")]
    pub cluster_dns: Vec<String>,
    /// Whether `RuntimeDefault` is every pod's default seccomp profile.
    #[talos(
        key = "defaultRuntimeSeccompProfileEnabled",
        omitempty,
        go_name = "KubeletDefaultRuntimeSeccompProfileEnabled"
    )]
    pub default_runtime_seccomp_profile_enabled: Option<bool>,
}

crate::document::unnamed_kind!(KubeletConfig => "KubeletConfig" since V1_14_0_RC1);

/// `KubeCredentialProviderConfig` (unnamed): the kubelet's `CredentialProviderConfig`; a patch
/// replaces it whole.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeCredentialProviderConfigV1Alpha1")]
pub struct KubeCredentialProviderConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The credential provider configuration.
    #[talos(key = "configuration", go_name = "CredentialProviderConfig")]
    pub configuration: Replaced<Unstructured>,
}

crate::document::unnamed_kind!(KubeCredentialProviderConfig => "KubeCredentialProviderConfig" since V1_14_0_RC1);
