//! `machine:` of the legacy document (apart from network, install and registries).

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::value::{Duration, FileMode, Unstructured};

use super::install::{InstallConfig, MachineDisk, SystemDiskEncryptionConfig};
use super::network::NetworkConfig;
use super::registries::RegistriesConfig;
use super::types::{Args, Endpoint, Env, PEMEncodedCertificate, PEMEncodedCertificateAndKey};

/// `v1alpha1.MachineConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineConfig")]
pub struct MachineConfig {
    #[talos(key = "type", go_name = "MachineType")]
    pub r#type: String,
    #[talos(key = "token", go_name = "MachineToken")]
    pub token: String,
    #[talos(key = "ca", omitempty, go_name = "MachineCA")]
    pub ca: Option<PEMEncodedCertificateAndKey>,
    #[talos(key = "acceptedCAs", omitempty, go_name = "MachineAcceptedCAs")]
    pub accepted_cas: Vec<Option<PEMEncodedCertificate>>,
    #[talos(key = "certSANs", go_name = "MachineCertSANs")]
    pub cert_sans: Vec<String>,
    #[talos(key = "controlPlane", omitempty, go_name = "MachineControlPlane")]
    pub control_plane: Option<MachineControlPlaneConfig>,
    #[talos(key = "kubelet", omitempty, go_name = "MachineKubelet")]
    pub kubelet: Option<KubeletConfig>,
    #[talos(key = "pods", omitempty, go_name = "MachinePods")]
    pub pods: Vec<Unstructured>,
    #[talos(key = "network", omitempty, go_name = "MachineNetwork")]
    pub network: Option<NetworkConfig>,
    #[talos(key = "disks", omitempty, go_name = "MachineDisks")]
    pub disks: Vec<Option<MachineDisk>>,
    #[talos(key = "install", omitempty, go_name = "MachineInstall")]
    pub install: Option<InstallConfig>,
    #[talos(key = "files", omitempty, go_name = "MachineFiles")]
    pub files: Vec<Option<MachineFile>>,
    #[talos(key = "env", omitempty, go_name = "MachineEnv")]
    pub env: Env,
    #[talos(key = "time", omitempty, go_name = "MachineTime")]
    pub time: Option<TimeConfig>,
    #[talos(key = "sysctls", omitempty, go_name = "MachineSysctls")]
    pub sysctls: BTreeMap<String, String>,
    #[talos(key = "sysfs", omitempty, go_name = "MachineSysfs")]
    pub sysfs: BTreeMap<String, String>,
    #[talos(key = "registries", omitempty, go_name = "MachineRegistries")]
    pub registries: RegistriesConfig,
    #[talos(key = "systemDiskEncryption", omitempty, go_name = "MachineSystemDiskEncryption")]
    pub system_disk_encryption: Option<SystemDiskEncryptionConfig>,
    #[talos(key = "features", omitempty, go_name = "MachineFeatures")]
    pub features: Option<FeaturesConfig>,
    #[talos(key = "udev", omitempty, go_name = "MachineUdev")]
    pub udev: Option<UdevConfig>,
    #[talos(key = "logging", omitempty, go_name = "MachineLogging")]
    pub logging: Option<LoggingConfig>,
    #[talos(key = "kernel", omitempty, go_name = "MachineKernel")]
    pub kernel: Option<KernelConfig>,
    #[talos(key = "seccompProfiles", omitempty, go_name = "MachineSeccompProfiles")]
    pub seccomp_profiles: Vec<Option<MachineSeccompProfile>>,
    #[talos(key = "baseRuntimeSpecOverrides", omitempty, go_name = "MachineBaseRuntimeSpecOverrides")]
    pub base_runtime_spec_overrides: Unstructured,
    #[talos(key = "nodeLabels", omitempty, go_name = "MachineNodeLabels")]
    pub node_labels: BTreeMap<String, String>,
    #[talos(key = "nodeAnnotations", omitempty, go_name = "MachineNodeAnnotations")]
    pub node_annotations: BTreeMap<String, String>,
    #[talos(key = "nodeTaints", omitempty, go_name = "MachineNodeTaints")]
    pub node_taints: BTreeMap<String, String>,
}

/// `v1alpha1.MachineSeccompProfile`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineSeccompProfile")]
pub struct MachineSeccompProfile {
    #[talos(key = "name", go_name = "MachineSeccompProfileName")]
    pub name: String,
    #[talos(key = "value", go_name = "MachineSeccompProfileValue")]
    pub value: Unstructured,
}

/// `v1alpha1.MachineControlPlaneConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineControlPlaneConfig")]
pub struct MachineControlPlaneConfig {
    #[talos(key = "controllerManager", omitempty, go_name = "MachineControllerManager")]
    pub controller_manager: Option<MachineControllerManagerConfig>,
    #[talos(key = "scheduler", omitempty, go_name = "MachineScheduler")]
    pub scheduler: Option<MachineSchedulerConfig>,
}

/// `v1alpha1.MachineControllerManagerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineControllerManagerConfig")]
pub struct MachineControllerManagerConfig {
    #[talos(key = "disabled", omitempty, go_name = "MachineControllerManagerDisabled")]
    pub disabled: Option<bool>,
}

/// `v1alpha1.MachineSchedulerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineSchedulerConfig")]
pub struct MachineSchedulerConfig {
    #[talos(key = "disabled", omitempty, go_name = "MachineSchedulerDisabled")]
    pub disabled: Option<bool>,
}

/// `v1alpha1.KubeletConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubeletConfig")]
pub struct KubeletConfig {
    #[talos(key = "image", omitempty, go_name = "KubeletImage")]
    pub image: String,
    #[talos(key = "clusterDNS", omitempty, go_name = "KubeletClusterDNS")]
    pub cluster_dns: Vec<String>,
    #[talos(key = "extraArgs", omitempty, go_name = "KubeletExtraArgs")]
    pub extra_args: Args,
    #[talos(key = "extraMounts", omitempty, go_name = "KubeletExtraMounts")]
    pub extra_mounts: Vec<ExtraMount>,
    #[talos(key = "extraConfig", omitempty, go_name = "KubeletExtraConfig")]
    pub extra_config: Unstructured,
    #[talos(key = "credentialProviderConfig", omitempty, go_name = "KubeletCredentialProviderConfig")]
    pub credential_provider_config: Unstructured,
    #[talos(
        key = "defaultRuntimeSeccompProfileEnabled",
        omitempty,
        go_name = "KubeletDefaultRuntimeSeccompProfileEnabled"
    )]
    pub default_runtime_seccomp_profile_enabled: Option<bool>,
    #[talos(key = "registerWithFQDN", omitempty, go_name = "KubeletRegisterWithFQDN")]
    pub register_with_fqdn: Option<bool>,
    #[talos(key = "nodeIP", omitempty, go_name = "KubeletNodeIP")]
    pub node_ip: Option<KubeletNodeIPConfig>,
    #[talos(key = "skipNodeRegistration", omitempty, go_name = "KubeletSkipNodeRegistration")]
    pub skip_node_registration: Option<bool>,
    #[talos(key = "disableManifestsDirectory", omitempty, go_name = "KubeletDisableManifestsDirectory")]
    pub disable_manifests_directory: Option<bool>,
}

/// `v1alpha1.KubeletNodeIPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubeletNodeIPConfig")]
pub struct KubeletNodeIPConfig {
    #[talos(key = "validSubnets", omitempty, go_name = "KubeletNodeIPValidSubnets")]
    pub valid_subnets: Vec<String>,
}

/// `v1alpha1.LinuxIDMapping`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.LinuxIDMapping")]
pub struct LinuxIDMapping {
    #[talos(key = "containerID", go_name = "ContainerID")]
    pub container_id: u32,
    #[talos(key = "hostID", go_name = "HostID")]
    pub host_id: u32,
    #[talos(key = "size", go_name = "Size")]
    pub size: u32,
}

/// `v1alpha1.ExtraMount`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ExtraMount")]
pub struct ExtraMount {
    #[talos(key = "destination", go_name = "Destination")]
    pub destination: String,
    #[talos(key = "type", omitempty, go_name = "Type")]
    pub r#type: String,
    #[talos(key = "source", omitempty, go_name = "Source")]
    pub source: String,
    #[talos(key = "options", omitempty, go_name = "Options")]
    pub options: Vec<String>,
    #[talos(key = "uidMappings", omitempty, go_name = "UIDMappings")]
    pub uid_mappings: Vec<LinuxIDMapping>,
    #[talos(key = "gidMappings", omitempty, go_name = "GIDMappings")]
    pub gid_mappings: Vec<LinuxIDMapping>,
}

/// `v1alpha1.MachineFile`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineFile")]
pub struct MachineFile {
    #[talos(key = "content", go_name = "FileContent")]
    pub content: String,
    #[talos(key = "permissions", go_name = "FilePermissions")]
    pub permissions: FileMode,
    #[talos(key = "path", go_name = "FilePath")]
    pub path: String,
    #[talos(key = "op", go_name = "FileOp")]
    pub op: String,
}

/// `v1alpha1.TimeConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.TimeConfig")]
pub struct TimeConfig {
    #[talos(key = "disabled", omitempty, go_name = "TimeDisabled")]
    pub disabled: Option<bool>,
    #[talos(key = "servers", omitempty, go_name = "TimeServers")]
    pub servers: crate::value::NilableVec<String>,
    #[talos(key = "bootTimeout", omitempty, go_name = "TimeBootTimeout")]
    pub boot_timeout: Duration,
}

/// `v1alpha1.FeaturesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.FeaturesConfig")]
pub struct FeaturesConfig {
    #[talos(key = "rbac", omitempty, go_name = "RBAC")]
    pub rbac: Option<bool>,
    #[talos(key = "stableHostname", omitempty, go_name = "StableHostname")]
    pub stable_hostname: Option<bool>,
    #[talos(key = "kubernetesTalosAPIAccess", omitempty, go_name = "KubernetesTalosAPIAccessConfig")]
    pub kubernetes_talos_api_access: Option<KubernetesTalosAPIAccessConfig>,
    #[talos(key = "apidCheckExtKeyUsage", omitempty, go_name = "ApidCheckExtKeyUsage")]
    pub apid_check_ext_key_usage: Option<bool>,
    #[talos(key = "diskQuotaSupport", omitempty, go_name = "DiskQuotaSupport")]
    pub disk_quota_support: Option<bool>,
    #[talos(key = "kubePrism", omitempty, go_name = "KubePrismSupport")]
    pub kube_prism: Option<KubePrism>,
    #[talos(key = "hostDNS", omitempty, go_name = "HostDNSSupport")]
    pub host_dns: Option<HostDNSConfig>,
    #[talos(key = "imageCache", omitempty, go_name = "ImageCacheSupport")]
    pub image_cache: Option<ImageCacheConfig>,
    #[talos(key = "nodeAddressSortAlgorithm", omitempty, go_name = "FeatureNodeAddressSortAlgorithm")]
    pub node_address_sort_algorithm: String,
}

/// `v1alpha1.KubePrism`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubePrism")]
pub struct KubePrism {
    #[talos(key = "enabled", omitempty, go_name = "ServerEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "port", omitempty, go_name = "ServerPort")]
    pub port: i64,
}

/// `v1alpha1.ImageCacheConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ImageCacheConfig")]
pub struct ImageCacheConfig {
    #[talos(key = "localEnabled", omitempty, go_name = "CacheLocalEnabled")]
    pub local_enabled: Option<bool>,
}

/// `v1alpha1.KubernetesTalosAPIAccessConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubernetesTalosAPIAccessConfig")]
pub struct KubernetesTalosAPIAccessConfig {
    #[talos(key = "enabled", omitempty, go_name = "AccessEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "allowedRoles", omitempty, go_name = "AccessAllowedRoles")]
    pub allowed_roles: Vec<String>,
    #[talos(key = "allowedKubernetesNamespaces", omitempty, go_name = "AccessAllowedKubernetesNamespaces")]
    pub allowed_kubernetes_namespaces: Vec<String>,
}

/// `v1alpha1.HostDNSConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.HostDNSConfig")]
pub struct HostDNSConfig {
    #[talos(key = "enabled", omitempty, go_name = "HostDNSEnabled")]
    pub enabled: Option<bool>,
    #[talos(key = "forwardKubeDNSToHost", omitempty, go_name = "HostDNSForwardKubeDNSToHost")]
    pub forward_kube_dns_to_host: Option<bool>,
    #[talos(key = "resolveMemberNames", omitempty, go_name = "HostDNSResolveMemberNames")]
    pub resolve_member_names: Option<bool>,
}

/// `v1alpha1.UdevConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.UdevConfig")]
pub struct UdevConfig {
    #[talos(key = "rules", omitempty, go_name = "UdevRules")]
    pub rules: Vec<String>,
}

/// `v1alpha1.LoggingConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.LoggingConfig")]
pub struct LoggingConfig {
    #[talos(key = "destinations", go_name = "LoggingDestinations")]
    pub destinations: Vec<LoggingDestination>,
}

/// `v1alpha1.LoggingDestination`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.LoggingDestination")]
pub struct LoggingDestination {
    #[talos(key = "endpoint", go_name = "LoggingEndpoint")]
    pub endpoint: Option<Endpoint>,
    #[talos(key = "format", go_name = "LoggingFormat")]
    pub format: String,
    #[talos(key = "extraTags", omitempty, go_name = "LoggingExtraTags")]
    pub extra_tags: BTreeMap<String, String>,
}

/// `v1alpha1.KernelConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KernelConfig")]
pub struct KernelConfig {
    #[talos(key = "modules", omitempty, go_name = "KernelModules")]
    pub modules: Vec<Option<KernelModuleConfig>>,
}

/// `v1alpha1.KernelModuleConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KernelModuleConfig")]
pub struct KernelModuleConfig {
    #[talos(key = "name", go_name = "ModuleName")]
    pub name: String,
    #[talos(key = "parameters", omitempty, go_name = "ModuleParameters")]
    pub parameters: Vec<String>,
}
