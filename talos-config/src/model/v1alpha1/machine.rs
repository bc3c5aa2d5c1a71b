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
    /// The node's role: `controlplane` or `worker`.
    #[talos(key = "type", go_name = "MachineType", schema = "crate::value::json_schema::machine_type")]
    pub r#type: String,
    /// The shared secret a node presents to join the cluster's machine PKI (trustd); a secret.
    #[talos(key = "token", go_name = "MachineToken")]
    pub token: String,
    /// The root certificate authority of the Talos API (and its key on control plane nodes); the key is a secret.
    #[talos(key = "ca", omitempty, go_name = "MachineCA")]
    pub ca: Option<PEMEncodedCertificateAndKey>,
    /// Further certificate authorities whose client certificates the Talos API also accepts.
    #[talos(key = "acceptedCAs", omitempty, go_name = "MachineAcceptedCAs")]
    pub accepted_cas: Vec<Option<PEMEncodedCertificate>>,
    /// Extra names and addresses put into the Talos API server certificate.
    #[talos(key = "certSANs", go_name = "MachineCertSANs")]
    pub cert_sans: Vec<String>,
    /// Settings of the control plane components this node runs (control plane nodes only).
    #[talos(key = "controlPlane", omitempty, go_name = "MachineControlPlane")]
    pub control_plane: Option<MachineControlPlaneConfig>,
    /// How the kubelet on this node runs: image, flags, mounts, node IP selection.
    #[talos(key = "kubelet", omitempty, go_name = "MachineKubelet")]
    pub kubelet: Option<KubeletConfig>,
    /// Static pod manifests the kubelet runs on this node.
    #[talos(key = "pods", omitempty, go_name = "MachinePods")]
    pub pods: Vec<Unstructured>,
    /// Host networking: hostname, interfaces, nameservers, extra hosts, KubeSpan.
    #[talos(key = "network", omitempty, go_name = "MachineNetwork")]
    pub network: Option<NetworkConfig>,
    /// Extra disks to partition and mount (deprecated in favour of volume documents).
    #[talos(key = "disks", omitempty, go_name = "MachineDisks")]
    pub disks: Vec<Option<MachineDisk>>,
    /// Where and with which image Talos installs itself (required in metal mode until installed).
    #[talos(key = "install", omitempty, go_name = "MachineInstall")]
    pub install: Option<InstallConfig>,
    /// Files Talos writes or appends to on the node at boot.
    #[talos(key = "files", omitempty, go_name = "MachineFiles")]
    pub files: Vec<Option<MachineFile>>,
    /// Environment variables given to Talos's own services.
    #[talos(key = "env", omitempty, go_name = "MachineEnv")]
    pub env: Env,
    /// Time synchronisation: NTP servers and how long boot waits for a synced clock.
    #[talos(key = "time", omitempty, go_name = "MachineTime")]
    pub time: Option<TimeConfig>,
    /// Kernel parameters set through `/proc/sys`, by dotted name.
    #[talos(key = "sysctls", omitempty, go_name = "MachineSysctls")]
    pub sysctls: BTreeMap<String, String>,
    /// Values written to `/sys` entries, by dotted path.
    #[talos(key = "sysfs", omitempty, go_name = "MachineSysfs")]
    pub sysfs: BTreeMap<String, String>,
    /// Image registry mirrors and per-registry authentication and TLS.
    #[talos(key = "registries", omitempty, go_name = "MachineRegistries")]
    pub registries: RegistriesConfig,
    /// Encryption of the system disk's STATE and EPHEMERAL partitions.
    #[talos(key = "systemDiskEncryption", omitempty, go_name = "MachineSystemDiskEncryption")]
    pub system_disk_encryption: Option<SystemDiskEncryptionConfig>,
    /// Optional Talos features (RBAC, KubePrism, host DNS, image cache, ...).
    #[talos(key = "features", omitempty, go_name = "MachineFeatures")]
    pub features: Option<FeaturesConfig>,
    /// Extra udev rules installed on the node.
    #[talos(key = "udev", omitempty, go_name = "MachineUdev")]
    pub udev: Option<UdevConfig>,
    /// Where Talos ships its service logs, besides keeping them in memory.
    #[talos(key = "logging", omitempty, go_name = "MachineLogging")]
    pub logging: Option<LoggingConfig>,
    /// Kernel modules loaded at boot, with their parameters.
    #[talos(key = "kernel", omitempty, go_name = "MachineKernel")]
    pub kernel: Option<KernelConfig>,
    /// Seccomp profiles written for the kubelet to offer to pods.
    #[talos(key = "seccompProfiles", omitempty, go_name = "MachineSeccompProfiles")]
    pub seccomp_profiles: Vec<Option<MachineSeccompProfile>>,
    /// Overrides merged into the base OCI runtime spec of every container containerd starts.
    #[talos(key = "baseRuntimeSpecOverrides", omitempty, go_name = "MachineBaseRuntimeSpecOverrides")]
    pub base_runtime_spec_overrides: Unstructured,
    /// Labels Talos keeps on this node's Kubernetes Node object (applied without a reboot).
    #[talos(key = "nodeLabels", omitempty, go_name = "MachineNodeLabels")]
    pub node_labels: BTreeMap<String, String>,
    /// Annotations Talos keeps on this node's Kubernetes Node object.
    #[talos(key = "nodeAnnotations", omitempty, go_name = "MachineNodeAnnotations")]
    pub node_annotations: BTreeMap<String, String>,
    /// Taints Talos keeps on this node's Kubernetes Node object (`key: value:Effect`).
    #[talos(key = "nodeTaints", omitempty, go_name = "MachineNodeTaints")]
    pub node_taints: BTreeMap<String, String>,
}

/// `v1alpha1.MachineSeccompProfile`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineSeccompProfile")]
pub struct MachineSeccompProfile {
    /// The profile's file name under the kubelet's seccomp directory.
    #[talos(key = "name", go_name = "MachineSeccompProfileName")]
    pub name: String,
    /// The profile itself, as seccomp JSON written out as YAML.
    #[talos(key = "value", go_name = "MachineSeccompProfileValue")]
    pub value: Unstructured,
}

/// `v1alpha1.MachineControlPlaneConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineControlPlaneConfig")]
pub struct MachineControlPlaneConfig {
    /// Whether this node runs kube-controller-manager.
    #[talos(key = "controllerManager", omitempty, go_name = "MachineControllerManager")]
    pub controller_manager: Option<MachineControllerManagerConfig>,
    /// Whether this node runs kube-scheduler.
    #[talos(key = "scheduler", omitempty, go_name = "MachineScheduler")]
    pub scheduler: Option<MachineSchedulerConfig>,
}

/// `v1alpha1.MachineControllerManagerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineControllerManagerConfig")]
pub struct MachineControllerManagerConfig {
    /// Keeps kube-controller-manager off this control plane node.
    #[talos(key = "disabled", omitempty, go_name = "MachineControllerManagerDisabled")]
    pub disabled: Option<bool>,
}

/// `v1alpha1.MachineSchedulerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineSchedulerConfig")]
pub struct MachineSchedulerConfig {
    /// Keeps kube-scheduler off this control plane node.
    #[talos(key = "disabled", omitempty, go_name = "MachineSchedulerDisabled")]
    pub disabled: Option<bool>,
}

/// `v1alpha1.KubeletConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubeletConfig")]
pub struct KubeletConfig {
    /// The kubelet container image (its tag sets the Kubernetes version the node runs).
    #[talos(key = "image", omitempty, go_name = "KubeletImage")]
    pub image: String,
    /// DNS server addresses the kubelet gives pods, replacing the cluster default.
    #[talos(key = "clusterDNS", omitempty, go_name = "KubeletClusterDNS")]
    pub cluster_dns: Vec<String>,
    /// Extra kubelet command-line flags (`name: value`); an unknown flag stops the kubelet.
    #[talos(key = "extraArgs", omitempty, go_name = "KubeletExtraArgs")]
    pub extra_args: Args,
    /// Extra host paths mounted into the kubelet's container.
    #[talos(key = "extraMounts", omitempty, go_name = "KubeletExtraMounts")]
    pub extra_mounts: Vec<ExtraMount>,
    /// Fields merged into the generated KubeletConfiguration.
    #[talos(key = "extraConfig", omitempty, go_name = "KubeletExtraConfig")]
    pub extra_config: Unstructured,
    /// A CredentialProviderConfig for the kubelet's image credential plugins.
    #[talos(key = "credentialProviderConfig", omitempty, go_name = "KubeletCredentialProviderConfig")]
    pub credential_provider_config: Unstructured,
    #[talos(
        key = "defaultRuntimeSeccompProfileEnabled",
        omitempty,
        go_name = "KubeletDefaultRuntimeSeccompProfileEnabled"
    )]
    /// Runs pods under the runtime's default seccomp profile unless they ask otherwise.
    pub default_runtime_seccomp_profile_enabled: Option<bool>,
    /// Registers the Node under the fully qualified host name instead of the short one.
    #[talos(key = "registerWithFQDN", omitempty, go_name = "KubeletRegisterWithFQDN")]
    pub register_with_fqdn: Option<bool>,
    /// Which host addresses the kubelet may pick as the Node's IP.
    #[talos(key = "nodeIP", omitempty, go_name = "KubeletNodeIP")]
    pub node_ip: Option<KubeletNodeIPConfig>,
    /// Runs the kubelet in standalone mode, without registering a Node.
    #[talos(key = "skipNodeRegistration", omitempty, go_name = "KubeletSkipNodeRegistration")]
    pub skip_node_registration: Option<bool>,
    /// Stops the kubelet from reading static pods from `/etc/kubernetes/manifests`.
    #[talos(key = "disableManifestsDirectory", omitempty, go_name = "KubeletDisableManifestsDirectory")]
    pub disable_manifests_directory: Option<bool>,
}

/// `v1alpha1.KubeletNodeIPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubeletNodeIPConfig")]
pub struct KubeletNodeIPConfig {
    /// Subnets (CIDRs, `!`-prefixed to exclude) the Node IP must come from.
    #[talos(key = "validSubnets", omitempty, go_name = "KubeletNodeIPValidSubnets")]
    pub valid_subnets: Vec<String>,
}

/// `v1alpha1.LinuxIDMapping`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.LinuxIDMapping")]
pub struct LinuxIDMapping {
    /// First user or group ID inside the container.
    #[talos(key = "containerID", go_name = "ContainerID")]
    pub container_id: u32,
    /// First user or group ID on the host it maps to.
    #[talos(key = "hostID", go_name = "HostID")]
    pub host_id: u32,
    /// How many consecutive IDs are mapped.
    #[talos(key = "size", go_name = "Size")]
    pub size: u32,
}

/// `v1alpha1.ExtraMount`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ExtraMount")]
pub struct ExtraMount {
    /// Where the mount appears inside the kubelet's container.
    #[talos(key = "destination", go_name = "Destination")]
    pub destination: String,
    /// The mount type (`bind`, ...).
    #[talos(key = "type", omitempty, go_name = "Type")]
    pub r#type: String,
    /// The host path (or device) mounted.
    #[talos(key = "source", omitempty, go_name = "Source")]
    pub source: String,
    /// Mount options (`bind`, `rshared`, `rw`, ...).
    #[talos(key = "options", omitempty, go_name = "Options")]
    pub options: Vec<String>,
    /// User ID mappings for an ID-mapped mount.
    #[talos(key = "uidMappings", omitempty, go_name = "UIDMappings")]
    pub uid_mappings: Vec<LinuxIDMapping>,
    /// Group ID mappings for an ID-mapped mount.
    #[talos(key = "gidMappings", omitempty, go_name = "GIDMappings")]
    pub gid_mappings: Vec<LinuxIDMapping>,
}

/// `v1alpha1.MachineFile`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineFile")]
pub struct MachineFile {
    /// The text written to the file.
    #[talos(key = "content", go_name = "FileContent")]
    pub content: String,
    /// The file's mode (octal in YAML, e.g. `0o644`).
    #[talos(key = "permissions", go_name = "FilePermissions")]
    pub permissions: FileMode,
    /// The absolute path of the file on the node.
    #[talos(key = "path", go_name = "FilePath")]
    pub path: String,
    /// `create` (only under `/var`) or `append` (to an existing file).
    #[talos(key = "op", go_name = "FileOp")]
    pub op: String,
}

/// `v1alpha1.TimeConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.TimeConfig")]
pub struct TimeConfig {
    /// Turns Talos's time synchronisation off.
    #[talos(key = "disabled", omitempty, go_name = "TimeDisabled")]
    pub disabled: Option<bool>,
    /// NTP servers (host names or addresses) to sync from.
    #[talos(key = "servers", omitempty, go_name = "TimeServers")]
    pub servers: crate::value::NilableVec<String>,
    /// How long boot waits for the clock to sync before going on.
    #[talos(key = "bootTimeout", omitempty, go_name = "TimeBootTimeout")]
    pub boot_timeout: Duration,
}

/// `v1alpha1.FeaturesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.FeaturesConfig")]
pub struct FeaturesConfig {
    /// Enforces role-based access control on the Talos API.
    #[talos(key = "rbac", omitempty, go_name = "RBAC")]
    pub rbac: Option<bool>,
    /// Derives a stable default hostname from the machine's identity.
    #[talos(key = "stableHostname", omitempty, go_name = "StableHostname")]
    pub stable_hostname: Option<bool>,
    /// Lets chosen Kubernetes workloads call the Talos API.
    #[talos(key = "kubernetesTalosAPIAccess", omitempty, go_name = "KubernetesTalosAPIAccessConfig")]
    pub kubernetes_talos_api_access: Option<KubernetesTalosAPIAccessConfig>,
    /// Makes the Talos API check the extended key usage of client certificates.
    #[talos(key = "apidCheckExtKeyUsage", omitempty, go_name = "ApidCheckExtKeyUsage")]
    pub apid_check_ext_key_usage: Option<bool>,
    /// Enables filesystem project quotas on EPHEMERAL (for kubelet local storage limits).
    #[talos(key = "diskQuotaSupport", omitempty, go_name = "DiskQuotaSupport")]
    pub disk_quota_support: Option<bool>,
    /// A local load balancer in front of the Kubernetes API servers.
    #[talos(key = "kubePrism", omitempty, go_name = "KubePrismSupport")]
    pub kube_prism: Option<KubePrism>,
    /// A caching DNS resolver on the host.
    #[talos(key = "hostDNS", omitempty, go_name = "HostDNSSupport")]
    pub host_dns: Option<HostDNSConfig>,
    /// Serving container images from a local cache.
    #[talos(key = "imageCache", omitempty, go_name = "ImageCacheSupport")]
    pub image_cache: Option<ImageCacheConfig>,
    /// How node addresses are ordered when picking the primary one (`v1` or `v2`).
    #[talos(key = "nodeAddressSortAlgorithm", omitempty, go_name = "FeatureNodeAddressSortAlgorithm")]
    pub node_address_sort_algorithm: String,
}

/// `v1alpha1.KubePrism`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubePrism")]
pub struct KubePrism {
    /// Turns KubePrism on.
    #[talos(key = "enabled", omitempty, go_name = "ServerEnabled")]
    pub enabled: Option<bool>,
    /// The local port KubePrism listens on.
    #[talos(key = "port", omitempty, go_name = "ServerPort")]
    pub port: i64,
}

/// `v1alpha1.ImageCacheConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ImageCacheConfig")]
pub struct ImageCacheConfig {
    /// Serves images from the local image cache volume.
    #[talos(key = "localEnabled", omitempty, go_name = "CacheLocalEnabled")]
    pub local_enabled: Option<bool>,
}

/// `v1alpha1.KubernetesTalosAPIAccessConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KubernetesTalosAPIAccessConfig")]
pub struct KubernetesTalosAPIAccessConfig {
    /// Turns the Talos API access from Kubernetes on.
    #[talos(key = "enabled", omitempty, go_name = "AccessEnabled")]
    pub enabled: Option<bool>,
    /// Talos roles that workloads may be granted (`os:reader`, ...).
    #[talos(key = "allowedRoles", omitempty, go_name = "AccessAllowedRoles")]
    pub allowed_roles: Vec<String>,
    /// Namespaces whose workloads may request Talos API access.
    #[talos(key = "allowedKubernetesNamespaces", omitempty, go_name = "AccessAllowedKubernetesNamespaces")]
    pub allowed_kubernetes_namespaces: Vec<String>,
}

/// `v1alpha1.HostDNSConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.HostDNSConfig")]
pub struct HostDNSConfig {
    /// Turns the host DNS resolver on.
    #[talos(key = "enabled", omitempty, go_name = "HostDNSEnabled")]
    pub enabled: Option<bool>,
    /// Makes CoreDNS forward to the host resolver (required in container mode).
    #[talos(key = "forwardKubeDNSToHost", omitempty, go_name = "HostDNSForwardKubeDNSToHost")]
    pub forward_kube_dns_to_host: Option<bool>,
    /// Lets the host resolver answer the cluster members' names.
    #[talos(key = "resolveMemberNames", omitempty, go_name = "HostDNSResolveMemberNames")]
    pub resolve_member_names: Option<bool>,
}

/// `v1alpha1.UdevConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.UdevConfig")]
pub struct UdevConfig {
    /// Udev rules, one rule per entry.
    #[talos(key = "rules", omitempty, go_name = "UdevRules")]
    pub rules: Vec<String>,
}

/// `v1alpha1.LoggingConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.LoggingConfig")]
pub struct LoggingConfig {
    /// Where service logs are sent.
    #[talos(key = "destinations", go_name = "LoggingDestinations")]
    pub destinations: Vec<LoggingDestination>,
}

/// `v1alpha1.LoggingDestination`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.LoggingDestination")]
pub struct LoggingDestination {
    /// The receiver's URL (`tcp://` or `udp://` host and port).
    #[talos(key = "endpoint", go_name = "LoggingEndpoint")]
    pub endpoint: Option<Endpoint>,
    /// The wire format of each log line (`json_lines`).
    #[talos(key = "format", go_name = "LoggingFormat")]
    pub format: String,
    /// Fields added to every log message sent there.
    #[talos(key = "extraTags", omitempty, go_name = "LoggingExtraTags")]
    pub extra_tags: BTreeMap<String, String>,
}

/// `v1alpha1.KernelConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KernelConfig")]
pub struct KernelConfig {
    /// Kernel modules to load.
    #[talos(key = "modules", omitempty, go_name = "KernelModules")]
    pub modules: Vec<Option<KernelModuleConfig>>,
}

/// `v1alpha1.KernelModuleConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.KernelModuleConfig")]
pub struct KernelModuleConfig {
    /// The module's name.
    #[talos(key = "name", go_name = "ModuleName")]
    pub name: String,
    /// Module parameters (`name=value`).
    #[talos(key = "parameters", omitempty, go_name = "ModuleParameters")]
    pub parameters: Vec<String>,
}
