//! `cluster:` of the legacy document.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::value::{Duration, Replaced, Unstructured};

use super::lists::keyed_list;
use super::types::{Args, Endpoint, Env, PEMEncodedCertificate, PEMEncodedCertificateAndKey, PEMEncodedKey};

/// `v1alpha1.ClusterConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterConfig")]
pub struct ClusterConfig {
    #[talos(key = "id", omitempty, go_name = "ClusterID")]
    pub id: String,
    #[talos(key = "secret", omitempty, go_name = "ClusterSecret")]
    pub secret: String,
    #[talos(key = "controlPlane", go_name = "ControlPlane")]
    pub control_plane: Option<ControlPlaneConfig>,
    #[talos(key = "clusterName", omitempty, go_name = "ClusterName")]
    pub cluster_name: String,
    #[talos(key = "network", omitempty, go_name = "ClusterNetwork")]
    pub network: Option<ClusterNetworkConfig>,
    #[talos(key = "token", omitempty, go_name = "BootstrapToken")]
    pub token: String,
    #[talos(key = "aescbcEncryptionSecret", omitempty, go_name = "ClusterAESCBCEncryptionSecret")]
    pub aescbc_encryption_secret: String,
    #[talos(key = "secretboxEncryptionSecret", omitempty, go_name = "ClusterSecretboxEncryptionSecret")]
    pub secretbox_encryption_secret: String,
    #[talos(key = "ca", omitempty, go_name = "ClusterCA")]
    pub ca: Option<PEMEncodedCertificateAndKey>,
    #[talos(key = "acceptedCAs", omitempty, go_name = "ClusterAcceptedCAs")]
    pub accepted_cas: Vec<Option<PEMEncodedCertificate>>,
    #[talos(key = "aggregatorCA", omitempty, go_name = "ClusterAggregatorCA")]
    pub aggregator_ca: Option<PEMEncodedCertificateAndKey>,
    #[talos(key = "serviceAccount", omitempty, go_name = "ClusterServiceAccount")]
    pub service_account: Option<PEMEncodedKey>,
    #[talos(key = "apiServer", omitempty, go_name = "APIServerConfig")]
    pub api_server: Option<APIServerConfig>,
    #[talos(key = "controllerManager", omitempty, go_name = "ControllerManagerConfig")]
    pub controller_manager: Option<ControllerManagerConfig>,
    #[talos(key = "proxy", omitempty, go_name = "ProxyConfig")]
    pub proxy: Option<ProxyConfig>,
    #[talos(key = "scheduler", omitempty, go_name = "SchedulerConfig")]
    pub scheduler: Option<SchedulerConfig>,
    #[talos(key = "discovery", omitempty, go_name = "ClusterDiscoveryConfig")]
    pub discovery: Option<ClusterDiscoveryConfig>,
    #[talos(key = "etcd", omitempty, go_name = "EtcdConfig")]
    pub etcd: Option<EtcdConfig>,
    #[talos(key = "coreDNS", omitempty, go_name = "CoreDNSConfig")]
    pub core_dns: Option<CoreDNS>,
    #[talos(key = "externalCloudProvider", omitempty, go_name = "ExternalCloudProviderConfig")]
    pub external_cloud_provider: Option<ExternalCloudProviderConfig>,
    #[talos(key = "extraManifests", omitempty, go_name = "ExtraManifests")]
    pub extra_manifests: Vec<String>,
    #[talos(key = "extraManifestHeaders", omitempty, go_name = "ExtraManifestHeaders")]
    pub extra_manifest_headers: BTreeMap<String, String>,
    #[talos(key = "inlineManifests", omitempty, go_name = "ClusterInlineManifests")]
    pub inline_manifests: ClusterInlineManifests,
    #[talos(key = "adminKubeconfig", omitempty, go_name = "AdminKubeconfigConfig")]
    pub admin_kubeconfig: Option<AdminKubeconfigConfig>,
    #[talos(key = "allowSchedulingOnMasters", omitempty, go_name = "AllowSchedulingOnMasters")]
    pub allow_scheduling_on_masters: Option<bool>,
    #[talos(key = "allowSchedulingOnControlPlanes", omitempty, go_name = "AllowSchedulingOnControlPlanes")]
    pub allow_scheduling_on_control_planes: Option<bool>,
}

/// `v1alpha1.ControlPlaneConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ControlPlaneConfig")]
pub struct ControlPlaneConfig {
    #[talos(key = "endpoint", go_name = "Endpoint")]
    pub endpoint: Option<Endpoint>,
    #[talos(key = "localAPIServerPort", omitempty, go_name = "LocalAPIServerPort")]
    pub local_api_server_port: i64,
}

/// `v1alpha1.ClusterNetworkConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterNetworkConfig")]
pub struct ClusterNetworkConfig {
    #[talos(key = "cni", omitempty, go_name = "CNI")]
    pub cni: Option<CNIConfig>,
    #[talos(key = "dnsDomain", go_name = "DNSDomain")]
    pub dns_domain: String,
    #[talos(key = "podSubnets", go_name = "PodSubnet")]
    pub pod_subnets: Replaced<Vec<String>>,
    #[talos(key = "serviceSubnets", go_name = "ServiceSubnet")]
    pub service_subnets: Replaced<Vec<String>>,
}

/// `v1alpha1.CNIConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.CNIConfig")]
pub struct CNIConfig {
    #[talos(key = "name", omitempty, go_name = "CNIName")]
    pub name: String,
    #[talos(key = "urls", omitempty, go_name = "CNIUrls")]
    pub urls: Vec<String>,
    #[talos(key = "flannel", omitempty, go_name = "CNIFlannel")]
    pub flannel: Option<FlannelCNIConfig>,
}

/// `v1alpha1.FlannelCNIConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.FlannelCNIConfig")]
pub struct FlannelCNIConfig {
    #[talos(key = "extraArgs", omitempty, go_name = "FlanneldExtraArgs")]
    pub extra_args: Vec<String>,
    #[talos(key = "kubeNetworkPoliciesEnabled", omitempty, go_name = "FlannelKubeNetworkPoliciesEnabled")]
    pub kube_network_policies_enabled: Option<bool>,
}

/// `v1alpha1.APIServerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.APIServerConfig")]
pub struct APIServerConfig {
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
    #[talos(key = "extraVolumes", omitempty, go_name = "ExtraVolumesConfig")]
    pub extra_volumes: Vec<VolumeMountConfig>,
    #[talos(key = "env", omitempty, go_name = "EnvConfig")]
    pub env: Env,
    #[talos(key = "certSANs", omitempty, go_name = "CertSANs")]
    pub cert_sans: Vec<String>,
    #[talos(key = "disablePodSecurityPolicy", omitempty, go_name = "DisablePodSecurityPolicyConfig")]
    pub disable_pod_security_policy: Option<bool>,
    #[talos(key = "admissionControl", omitempty, go_name = "AdmissionControlConfig")]
    pub admission_control: AdmissionPluginConfigList,
    #[talos(key = "auditPolicy", omitempty, go_name = "AuditPolicyConfig")]
    pub audit_policy: Replaced<Unstructured>,
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ResourcesConfig>,
    #[talos(key = "authorizationConfig", omitempty, go_name = "AuthorizationConfigConfig")]
    pub authorization_config: crate::value::NilableVec<Option<AuthorizationConfigAuthorizerConfig>>,
}

/// `v1alpha1.AdmissionPluginConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.AdmissionPluginConfig")]
pub struct AdmissionPluginConfig {
    #[talos(key = "name", go_name = "PluginName")]
    pub name: String,
    #[talos(key = "configuration", go_name = "PluginConfiguration")]
    pub configuration: Unstructured,
}

/// `v1alpha1.AuthorizationConfigAuthorizerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.AuthorizationConfigAuthorizerConfig")]
pub struct AuthorizationConfigAuthorizerConfig {
    #[talos(key = "type", go_name = "AuthorizerType")]
    pub r#type: String,
    #[talos(key = "name", go_name = "AuthorizerName")]
    pub name: String,
    #[talos(key = "webhook", omitempty, go_name = "AuthorizerWebhook")]
    pub webhook: Unstructured,
}

/// `v1alpha1.ControllerManagerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ControllerManagerConfig")]
pub struct ControllerManagerConfig {
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
    #[talos(key = "extraVolumes", omitempty, go_name = "ExtraVolumesConfig")]
    pub extra_volumes: Vec<VolumeMountConfig>,
    #[talos(key = "env", omitempty, go_name = "EnvConfig")]
    pub env: Env,
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ResourcesConfig>,
}

/// `v1alpha1.ProxyConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ProxyConfig")]
pub struct ProxyConfig {
    #[talos(key = "disabled", omitempty, go_name = "Disabled")]
    pub disabled: Option<bool>,
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    #[talos(key = "mode", omitempty, go_name = "ModeConfig")]
    pub mode: String,
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
}

/// `v1alpha1.SchedulerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.SchedulerConfig")]
pub struct SchedulerConfig {
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
    #[talos(key = "extraVolumes", omitempty, go_name = "ExtraVolumesConfig")]
    pub extra_volumes: Vec<VolumeMountConfig>,
    #[talos(key = "env", omitempty, go_name = "EnvConfig")]
    pub env: Env,
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ResourcesConfig>,
    #[talos(key = "config", omitempty, go_name = "SchedulerConfig")]
    pub config: Unstructured,
}

/// `v1alpha1.EtcdConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EtcdConfig")]
pub struct EtcdConfig {
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    #[talos(key = "ca", go_name = "RootCA")]
    pub ca: Option<PEMEncodedCertificateAndKey>,
    #[talos(key = "extraArgs", omitempty, go_name = "EtcdExtraArgs")]
    pub extra_args: Args,
    #[talos(key = "subnet", omitempty, go_name = "EtcdSubnet")]
    pub subnet: String,
    #[talos(key = "advertisedSubnets", omitempty, go_name = "EtcdAdvertisedSubnets")]
    pub advertised_subnets: Vec<String>,
    #[talos(key = "listenSubnets", omitempty, go_name = "EtcdListenSubnets")]
    pub listen_subnets: Vec<String>,
}

/// `v1alpha1.CoreDNS`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.CoreDNS")]
pub struct CoreDNS {
    #[talos(key = "disabled", omitempty, go_name = "CoreDNSDisabled")]
    pub disabled: Option<bool>,
    #[talos(key = "image", omitempty, go_name = "CoreDNSImage")]
    pub image: String,
}

/// `v1alpha1.ExternalCloudProviderConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ExternalCloudProviderConfig")]
pub struct ExternalCloudProviderConfig {
    #[talos(key = "enabled", omitempty, go_name = "ExternalEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "manifests", omitempty, go_name = "ExternalManifests")]
    pub manifests: Vec<String>,
}

/// `v1alpha1.AdminKubeconfigConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.AdminKubeconfigConfig")]
pub struct AdminKubeconfigConfig {
    #[talos(key = "certLifetime", omitempty, go_name = "AdminKubeconfigCertLifetime")]
    pub cert_lifetime: Duration,
}

/// `v1alpha1.ResourcesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ResourcesConfig")]
pub struct ResourcesConfig {
    #[talos(key = "requests", omitempty, go_name = "Requests")]
    pub requests: Unstructured,
    #[talos(key = "limits", omitempty, go_name = "Limits")]
    pub limits: Unstructured,
}

/// `v1alpha1.VolumeMountConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.VolumeMountConfig")]
pub struct VolumeMountConfig {
    #[talos(key = "hostPath", go_name = "VolumeHostPath")]
    pub host_path: String,
    #[talos(key = "mountPath", go_name = "VolumeMountPath")]
    pub mount_path: String,
    #[talos(key = "readonly", omitempty, go_name = "VolumeReadOnly")]
    pub readonly: bool,
}

/// `v1alpha1.ClusterInlineManifest`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterInlineManifest")]
pub struct ClusterInlineManifest {
    #[talos(key = "name", go_name = "InlineManifestName")]
    pub name: String,
    #[talos(key = "contents", go_name = "InlineManifestContents")]
    pub contents: String,
}

/// `v1alpha1.ClusterDiscoveryConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterDiscoveryConfig")]
pub struct ClusterDiscoveryConfig {
    #[talos(key = "enabled", omitempty, go_name = "DiscoveryEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "registries", go_name = "DiscoveryRegistries")]
    pub registries: DiscoveryRegistriesConfig,
}

/// `v1alpha1.DiscoveryRegistriesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DiscoveryRegistriesConfig")]
pub struct DiscoveryRegistriesConfig {
    #[talos(key = "kubernetes", go_name = "RegistryKubernetes")]
    pub kubernetes: RegistryKubernetesConfig,
    #[talos(key = "service", go_name = "RegistryService")]
    pub service: RegistryServiceConfig,
}

/// `v1alpha1.RegistryKubernetesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryKubernetesConfig")]
pub struct RegistryKubernetesConfig {
    #[talos(key = "disabled", omitempty, go_name = "RegistryDisabled")]
    pub disabled: Option<bool>,
}

/// `v1alpha1.RegistryServiceConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryServiceConfig")]
pub struct RegistryServiceConfig {
    #[talos(key = "disabled", omitempty, go_name = "RegistryDisabled")]
    pub disabled: Option<bool>,
    #[talos(key = "endpoint", omitempty, go_name = "RegistryEndpoint")]
    pub endpoint: String,
}

/// `v1alpha1.PodCheckpointer` (unused by the document; kept for completeness).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.PodCheckpointer")]
pub struct PodCheckpointer {
    #[talos(key = "image", omitempty, go_name = "PodCheckpointerImage")]
    pub image: String,
}

keyed_list!(
    /// `v1alpha1.AdmissionPluginConfigList` (`[]*AdmissionPluginConfig`): keyed by `name`.
    AdmissionPluginConfigList,
    AdmissionPluginConfig,
    "v1alpha1.AdmissionPluginConfigList",
    |l: &AdmissionPluginConfig, r: &AdmissionPluginConfig| l.name == r.name
);

// ---------------------------------------------------------------------------------------------
// Inline manifests

/// `v1alpha1.ClusterInlineManifests`: on decode, leading `\t\n\v\f\r` of every `contents` are
/// stripped. Merged like a slice (appended).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterInlineManifests(pub Vec<ClusterInlineManifest>);

crate::value::go_slice_type!(
    ClusterInlineManifests,
    ClusterInlineManifest,
    "v1alpha1.ClusterInlineManifests",
    merge = |l: &mut Vec<ClusterInlineManifest>, r: &[ClusterInlineManifest]| {
        l.extend(r.iter().cloned());
        Ok(())
    },
    decode_type = Vec::<ClusterInlineManifest>::go_type(),
    decode_fixup = strip_leading_manifest_breaks,
);

/// Upstream's `UnmarshalYAML` strips leading `\t\n\v\f\r` of every manifest's contents.
fn strip_leading_manifest_breaks(items: &mut [ClusterInlineManifest]) {
    for m in items {
        let trimmed = m.contents.trim_start_matches(['\t', '\n', '\u{b}', '\u{c}', '\r']);
        if trimmed.len() != m.contents.len() {
            m.contents = trimmed.to_string();
        }
    }
}
