//! `cluster:` of the legacy document.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::value::{
    DecodeCx, DeletePath, Duration, MergeFlags, NilableVec, Replaced, Unstructured, Value, decode_seq, is_null,
    seq_unknown_keys,
};
use crate::yaml::Node;

use super::lists::keyed_list;
use super::types::{Args, Endpoint, Env, PEMEncodedCertificate, PEMEncodedCertificateAndKey, PEMEncodedKey};

/// `v1alpha1.ClusterConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterConfig")]
pub struct ClusterConfig {
    /// The cluster's unique ID, used by member discovery.
    #[talos(key = "id", omitempty, go_name = "ClusterID")]
    pub id: String,
    /// The shared secret that encrypts discovery data; a secret.
    #[talos(key = "secret", omitempty, go_name = "ClusterSecret")]
    pub secret: String,
    /// Where the Kubernetes API is reached, and the local API server port.
    #[talos(key = "controlPlane", go_name = "ControlPlane", omitempty_since = V1_14_0_RC1)]
    pub control_plane: Option<ControlPlaneConfig>,
    /// The cluster's name, as kubeconfigs and certificates show it.
    #[talos(key = "clusterName", omitempty, go_name = "ClusterName")]
    pub cluster_name: String,
    /// Cluster networking: CNI, DNS domain, pod and service subnets.
    #[talos(key = "network", omitempty, go_name = "ClusterNetwork")]
    pub network: Option<ClusterNetworkConfig>,
    /// The bootstrap token kubelets use to join the cluster; a secret.
    #[talos(key = "token", omitempty, go_name = "BootstrapToken")]
    pub token: String,
    /// Key the API server encrypts Secrets at rest with (AES-CBC); a secret.
    #[talos(key = "aescbcEncryptionSecret", omitempty, go_name = "ClusterAESCBCEncryptionSecret")]
    pub aescbc_encryption_secret: String,
    /// Key the API server encrypts Secrets at rest with (secretbox, preferred); a secret.
    #[talos(key = "secretboxEncryptionSecret", omitempty, go_name = "ClusterSecretboxEncryptionSecret")]
    pub secretbox_encryption_secret: String,
    /// The Kubernetes root certificate authority (key on control plane nodes only); the key is a secret.
    #[talos(key = "ca", omitempty, go_name = "ClusterCA")]
    pub ca: Option<PEMEncodedCertificateAndKey>,
    /// Further certificate authorities the Kubernetes API also trusts.
    #[talos(key = "acceptedCAs", omitempty, go_name = "ClusterAcceptedCAs")]
    pub accepted_cas: Vec<Option<PEMEncodedCertificate>>,
    /// The certificate authority of the API aggregation layer; the key is a secret.
    #[talos(key = "aggregatorCA", omitempty, go_name = "ClusterAggregatorCA")]
    pub aggregator_ca: Option<PEMEncodedCertificateAndKey>,
    /// The key service account tokens are signed with; a secret.
    #[talos(key = "serviceAccount", omitempty, go_name = "ClusterServiceAccount")]
    pub service_account: Option<PEMEncodedKey>,
    /// How kube-apiserver runs: image, flags, volumes, admission, audit, resources.
    #[talos(key = "apiServer", omitempty, go_name = "APIServerConfig")]
    pub api_server: Option<APIServerConfig>,
    /// How kube-controller-manager runs.
    #[talos(key = "controllerManager", omitempty, go_name = "ControllerManagerConfig")]
    pub controller_manager: Option<ControllerManagerConfig>,
    /// How kube-proxy runs, or that it does not.
    #[talos(key = "proxy", omitempty, go_name = "ProxyConfig")]
    pub proxy: Option<ProxyConfig>,
    /// How kube-scheduler runs.
    #[talos(key = "scheduler", omitempty, go_name = "SchedulerConfig")]
    pub scheduler: Option<SchedulerConfig>,
    /// How cluster members find each other.
    #[talos(key = "discovery", omitempty, go_name = "ClusterDiscoveryConfig")]
    pub discovery: Option<ClusterDiscoveryConfig>,
    /// How etcd runs on control plane nodes.
    #[talos(key = "etcd", omitempty, go_name = "EtcdConfig")]
    pub etcd: Option<EtcdConfig>,
    /// Whether and with which image CoreDNS is deployed.
    #[talos(key = "coreDNS", omitempty, go_name = "CoreDNSConfig")]
    pub core_dns: Option<CoreDNS>,
    /// An external cloud controller manager and its manifests.
    #[talos(key = "externalCloudProvider", omitempty, go_name = "ExternalCloudProviderConfig")]
    pub external_cloud_provider: Option<ExternalCloudProviderConfig>,
    /// URLs of further manifests applied to the cluster at bootstrap.
    #[talos(key = "extraManifests", omitempty, go_name = "ExtraManifests")]
    pub extra_manifests: Vec<String>,
    /// HTTP headers sent when fetching `extraManifests`.
    #[talos(key = "extraManifestHeaders", omitempty, go_name = "ExtraManifestHeaders")]
    pub extra_manifest_headers: BTreeMap<String, String>,
    /// Manifests given inline, applied to the cluster at bootstrap.
    #[talos(key = "inlineManifests", omitempty, go_name = "ClusterInlineManifests")]
    pub inline_manifests: ClusterInlineManifests,
    /// How the admin kubeconfig Talos hands out is made.
    #[talos(key = "adminKubeconfig", omitempty, go_name = "AdminKubeconfigConfig")]
    pub admin_kubeconfig: Option<AdminKubeconfigConfig>,
    /// Old name of `allowSchedulingOnControlPlanes` (deprecated).
    #[talos(key = "allowSchedulingOnMasters", omitempty, go_name = "AllowSchedulingOnMasters")]
    pub allow_scheduling_on_masters: Option<bool>,
    /// Lets ordinary workloads run on control plane nodes.
    #[talos(key = "allowSchedulingOnControlPlanes", omitempty, go_name = "AllowSchedulingOnControlPlanes")]
    pub allow_scheduling_on_control_planes: Option<bool>,
}

/// `v1alpha1.ControlPlaneConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ControlPlaneConfig")]
pub struct ControlPlaneConfig {
    /// The URL of the Kubernetes API (a load balancer or VIP), `https://host:port`.
    #[talos(key = "endpoint", go_name = "Endpoint")]
    pub endpoint: Option<Endpoint>,
    /// The port kube-apiserver listens on locally (default 6443).
    #[talos(key = "localAPIServerPort", omitempty, go_name = "LocalAPIServerPort")]
    pub local_api_server_port: i64,
}

/// `v1alpha1.ClusterNetworkConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterNetworkConfig")]
pub struct ClusterNetworkConfig {
    /// Which CNI is deployed (`flannel`, `custom` with URLs, or `none`).
    #[talos(key = "cni", omitempty, go_name = "CNI")]
    pub cni: Option<CNIConfig>,
    /// The cluster's DNS domain (default `cluster.local`).
    #[talos(key = "dnsDomain", go_name = "DNSDomain")]
    pub dns_domain: String,
    /// The pod networks in CIDR notation (a patch replaces the whole list).
    #[talos(key = "podSubnets", go_name = "PodSubnet")]
    pub pod_subnets: Replaced<Vec<String>>,
    /// The service networks in CIDR notation (a patch replaces the whole list).
    #[talos(key = "serviceSubnets", go_name = "ServiceSubnet")]
    pub service_subnets: Replaced<Vec<String>>,
}

/// `v1alpha1.CNIConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.CNIConfig")]
pub struct CNIConfig {
    /// The CNI: `flannel`, `custom` or `none`.
    #[talos(key = "name", omitempty, go_name = "CNIName")]
    pub name: String,
    /// Manifest URLs of a `custom` CNI.
    #[talos(key = "urls", omitempty, go_name = "CNIUrls")]
    pub urls: Vec<String>,
    /// Settings of the built-in Flannel.
    #[talos(key = "flannel", omitempty, go_name = "CNIFlannel")]
    pub flannel: Option<FlannelCNIConfig>,
}

/// `v1alpha1.FlannelCNIConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.FlannelCNIConfig")]
pub struct FlannelCNIConfig {
    /// Extra command-line flags for flanneld.
    #[talos(key = "extraArgs", omitempty, go_name = "FlanneldExtraArgs")]
    pub extra_args: Vec<String>,
    /// Deploys kube-network-policies next to Flannel to enforce NetworkPolicies.
    #[talos(key = "kubeNetworkPoliciesEnabled", omitempty, go_name = "FlannelKubeNetworkPoliciesEnabled", since = V1_13_9)]
    pub kube_network_policies_enabled: Option<bool>,
}

/// `v1alpha1.APIServerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.APIServerConfig")]
pub struct APIServerConfig {
    /// The kube-apiserver image.
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    /// Extra kube-apiserver flags (`name: value`).
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
    /// Extra host paths mounted into kube-apiserver.
    #[talos(key = "extraVolumes", omitempty, go_name = "ExtraVolumesConfig")]
    pub extra_volumes: Vec<VolumeMountConfig>,
    /// Environment variables of kube-apiserver.
    #[talos(key = "env", omitempty, go_name = "EnvConfig")]
    pub env: Env,
    /// Extra names and addresses in the API server certificate.
    #[talos(key = "certSANs", omitempty, go_name = "CertSANs")]
    pub cert_sans: Vec<String>,
    /// Turns the PodSecurityPolicy admission plugin off (for old Kubernetes).
    #[talos(key = "disablePodSecurityPolicy", omitempty, go_name = "DisablePodSecurityPolicyConfig")]
    pub disable_pod_security_policy: Option<bool>,
    /// Admission plugins and their configuration (merged by plugin name).
    #[talos(key = "admissionControl", omitempty, go_name = "AdmissionControlConfig")]
    pub admission_control: AdmissionPluginConfigList,
    /// The audit policy (a patch replaces it whole).
    #[talos(key = "auditPolicy", omitempty, go_name = "AuditPolicyConfig")]
    pub audit_policy: Replaced<Unstructured>,
    /// CPU and memory requests and limits of kube-apiserver.
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ResourcesConfig>,
    /// The API server's authorizers, in order (`Node`, `RBAC`, webhooks).
    #[talos(key = "authorizationConfig", omitempty, go_name = "AuthorizationConfigConfig")]
    pub authorization_config: AuthorizationConfigAuthorizerConfigList,
}

/// `v1alpha1.AdmissionPluginConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.AdmissionPluginConfig")]
pub struct AdmissionPluginConfig {
    /// The admission plugin's name.
    #[talos(key = "name", go_name = "PluginName")]
    pub name: String,
    /// The plugin's configuration object.
    #[talos(key = "configuration", go_name = "PluginConfiguration")]
    pub configuration: Unstructured,
}

/// `v1alpha1.AuthorizationConfigAuthorizerConfigList`: a named slice whose nil and empty states
/// differ (validation tests `!= nil`); otherwise a plain slice (merged by appending).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AuthorizationConfigAuthorizerConfigList(pub NilableVec<Option<AuthorizationConfigAuthorizerConfig>>);

impl std::ops::Deref for AuthorizationConfigAuthorizerConfigList {
    type Target = NilableVec<Option<AuthorizationConfigAuthorizerConfig>>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Value for AuthorizationConfigAuthorizerConfigList {
    fn go_type() -> String {
        "v1alpha1.AuthorizationConfigAuthorizerConfigList".into()
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Self::default();
        }
        Self(NilableVec(Some(decode_seq(node, cx, &Self::go_type()))))
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        seq_unknown_keys::<Option<AuthorizationConfigAuthorizerConfig>>(node, &Self::go_type(), release)
    }

    fn schema_paths(prefix: &str, out: &mut Vec<String>) {
        NilableVec::<Option<AuthorizationConfigAuthorizerConfig>>::schema_paths(prefix, out);
    }

    fn encode(&self) -> Node {
        self.0.encode()
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        self.0.encode_for(release)
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn replace_keeps_left(&self) -> bool {
        self.0.replace_keeps_left()
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        self.0.merge(&right.0, flags)
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        self.0.delete(path)
    }
}

/// `v1alpha1.AuthorizationConfigAuthorizerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.AuthorizationConfigAuthorizerConfig")]
pub struct AuthorizationConfigAuthorizerConfig {
    /// The authorizer type (`Node`, `RBAC`, `Webhook`).
    #[talos(key = "type", go_name = "AuthorizerType")]
    pub r#type: String,
    /// The authorizer's name (for webhooks, a unique name).
    #[talos(key = "name", go_name = "AuthorizerName")]
    pub name: String,
    /// A webhook authorizer's configuration.
    #[talos(key = "webhook", omitempty, go_name = "AuthorizerWebhook")]
    pub webhook: Unstructured,
}

/// `v1alpha1.ControllerManagerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ControllerManagerConfig")]
pub struct ControllerManagerConfig {
    /// The kube-controller-manager image.
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    /// Extra kube-controller-manager flags.
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
    /// Extra host paths mounted into kube-controller-manager.
    #[talos(key = "extraVolumes", omitempty, go_name = "ExtraVolumesConfig")]
    pub extra_volumes: Vec<VolumeMountConfig>,
    /// Environment variables of kube-controller-manager.
    #[talos(key = "env", omitempty, go_name = "EnvConfig")]
    pub env: Env,
    /// CPU and memory requests and limits of kube-controller-manager.
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ResourcesConfig>,
}

/// `v1alpha1.ProxyConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ProxyConfig")]
pub struct ProxyConfig {
    /// Does not deploy kube-proxy (for CNIs that replace it).
    #[talos(key = "disabled", omitempty, go_name = "Disabled")]
    pub disabled: Option<bool>,
    /// The kube-proxy image.
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    /// The proxy mode (`iptables`, `ipvs`, `nftables`).
    #[talos(key = "mode", omitempty, go_name = "ModeConfig")]
    pub mode: String,
    /// Extra kube-proxy flags.
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
}

/// `v1alpha1.SchedulerConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.SchedulerConfig")]
pub struct SchedulerConfig {
    /// The kube-scheduler image.
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    /// Extra kube-scheduler flags.
    #[talos(key = "extraArgs", omitempty, go_name = "ExtraArgsConfig")]
    pub extra_args: Args,
    /// Extra host paths mounted into kube-scheduler.
    #[talos(key = "extraVolumes", omitempty, go_name = "ExtraVolumesConfig")]
    pub extra_volumes: Vec<VolumeMountConfig>,
    /// Environment variables of kube-scheduler.
    #[talos(key = "env", omitempty, go_name = "EnvConfig")]
    pub env: Env,
    /// CPU and memory requests and limits of kube-scheduler.
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ResourcesConfig>,
    /// A KubeSchedulerConfiguration merged into the generated one.
    #[talos(key = "config", omitempty, go_name = "SchedulerConfig")]
    pub config: Unstructured,
}

/// `v1alpha1.EtcdConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EtcdConfig")]
pub struct EtcdConfig {
    /// The etcd image.
    #[talos(key = "image", omitempty, go_name = "ContainerImage")]
    pub image: String,
    /// The etcd certificate authority; the key is a secret.
    #[talos(key = "ca", go_name = "RootCA")]
    pub ca: Option<PEMEncodedCertificateAndKey>,
    /// Extra etcd flags.
    #[talos(key = "extraArgs", omitempty, go_name = "EtcdExtraArgs")]
    pub extra_args: Args,
    /// Old name of `advertisedSubnets` (deprecated).
    #[talos(key = "subnet", omitempty, go_name = "EtcdSubnet")]
    pub subnet: String,
    /// Subnets from which etcd picks the address it advertises to peers.
    #[talos(key = "advertisedSubnets", omitempty, go_name = "EtcdAdvertisedSubnets")]
    pub advertised_subnets: Vec<String>,
    /// Subnets whose addresses etcd listens on for peers.
    #[talos(key = "listenSubnets", omitempty, go_name = "EtcdListenSubnets")]
    pub listen_subnets: Vec<String>,
}

/// `v1alpha1.CoreDNS`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.CoreDNS")]
pub struct CoreDNS {
    /// Does not deploy CoreDNS.
    #[talos(key = "disabled", omitempty, go_name = "CoreDNSDisabled")]
    pub disabled: Option<bool>,
    /// The CoreDNS image.
    #[talos(key = "image", omitempty, go_name = "CoreDNSImage")]
    pub image: String,
}

/// `v1alpha1.ExternalCloudProviderConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ExternalCloudProviderConfig")]
pub struct ExternalCloudProviderConfig {
    /// Runs the cluster with an external cloud provider.
    #[talos(key = "enabled", omitempty, go_name = "ExternalEnabled")]
    pub enabled: Option<bool>,
    /// URLs of the cloud provider's manifests.
    #[talos(key = "manifests", omitempty, go_name = "ExternalManifests")]
    pub manifests: Vec<String>,
}

/// `v1alpha1.AdminKubeconfigConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.AdminKubeconfigConfig")]
pub struct AdminKubeconfigConfig {
    /// How long the admin kubeconfig's client certificate is valid.
    #[talos(key = "certLifetime", omitempty, go_name = "AdminKubeconfigCertLifetime")]
    pub cert_lifetime: Duration,
}

/// `v1alpha1.ResourcesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ResourcesConfig")]
pub struct ResourcesConfig {
    /// Resource requests (`cpu`, `memory`).
    #[talos(key = "requests", omitempty, go_name = "Requests")]
    pub requests: Unstructured,
    /// Resource limits (`cpu`, `memory`).
    #[talos(key = "limits", omitempty, go_name = "Limits")]
    pub limits: Unstructured,
}

/// `v1alpha1.VolumeMountConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.VolumeMountConfig")]
pub struct VolumeMountConfig {
    /// The host path mounted.
    #[talos(key = "hostPath", go_name = "VolumeHostPath")]
    pub host_path: String,
    /// Where it appears in the container.
    #[talos(key = "mountPath", go_name = "VolumeMountPath")]
    pub mount_path: String,
    /// Mounts it read-only.
    #[talos(key = "readonly", omitempty, go_name = "VolumeReadOnly")]
    pub readonly: bool,
}

/// `v1alpha1.ClusterInlineManifest`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterInlineManifest")]
pub struct ClusterInlineManifest {
    /// The manifest's name (unique in the list).
    #[talos(key = "name", go_name = "InlineManifestName")]
    pub name: String,
    /// The manifest's YAML.
    #[talos(key = "contents", go_name = "InlineManifestContents")]
    pub contents: String,
}

/// `v1alpha1.ClusterDiscoveryConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.ClusterDiscoveryConfig")]
pub struct ClusterDiscoveryConfig {
    /// Turns member discovery on.
    #[talos(key = "enabled", omitempty, go_name = "DiscoveryEnabled")]
    pub enabled: Option<bool>,
    /// The discovery registries used.
    #[talos(key = "registries", go_name = "DiscoveryRegistries")]
    pub registries: DiscoveryRegistriesConfig,
}

/// `v1alpha1.DiscoveryRegistriesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DiscoveryRegistriesConfig")]
pub struct DiscoveryRegistriesConfig {
    /// Discovery through Kubernetes Node annotations.
    #[talos(key = "kubernetes", go_name = "RegistryKubernetes")]
    pub kubernetes: RegistryKubernetesConfig,
    /// Discovery through the Sidero discovery service.
    #[talos(key = "service", go_name = "RegistryService")]
    pub service: RegistryServiceConfig,
}

/// `v1alpha1.RegistryKubernetesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryKubernetesConfig")]
pub struct RegistryKubernetesConfig {
    /// Turns the Kubernetes registry off.
    #[talos(key = "disabled", omitempty, go_name = "RegistryDisabled")]
    pub disabled: Option<bool>,
}

/// `v1alpha1.RegistryServiceConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryServiceConfig")]
pub struct RegistryServiceConfig {
    /// Turns the discovery service registry off.
    #[talos(key = "disabled", omitempty, go_name = "RegistryDisabled")]
    pub disabled: Option<bool>,
    /// The discovery service's URL.
    #[talos(key = "endpoint", omitempty, go_name = "RegistryEndpoint")]
    pub endpoint: String,
}

/// `v1alpha1.PodCheckpointer` (unused by the document; kept for completeness).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.PodCheckpointer")]
pub struct PodCheckpointer {
    /// The pod checkpointer image (no longer used).
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
    merge = |l: &mut Vec<ClusterInlineManifest>, r: &[ClusterInlineManifest], _flags| {
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
