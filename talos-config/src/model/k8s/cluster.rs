//! Cluster-wide and node-level documents: the cluster's name and endpoint, its networks, the
//! node's registration, KubePrism and workloads' Talos API access.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::model::meta::Meta;
use crate::model::network::types::Prefix;
use crate::model::siderolink::MetaUrl;
use crate::value::Replaced;

/// `KubeClusterConfig` (unnamed): the cluster's name and control-plane endpoint.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeClusterConfigV1Alpha1")]
pub struct KubeClusterConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The cluster's name.
    #[talos(key = "clusterName", go_name = "ClusterNameConfig")]
    pub cluster_name: String,
    /// The control plane's endpoint URL.
    #[talos(key = "endpoint", go_name = "ClusterEndpointConfig")]
    pub endpoint: MetaUrl,
}

crate::document::unnamed_kind!(KubeClusterConfig => "KubeClusterConfig" since V1_14_0_RC1);

/// `KubeNetworkConfig` (unnamed): the cluster's DNS domain, pod and service subnets.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeNetworkConfigV1Alpha1")]
pub struct KubeNetworkConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The cluster's DNS domain (`cluster.local` when empty).
    #[talos(key = "dnsDomain", go_name = "NetworkDNSDomain")]
    pub dns_domain: String,
    /// The pod subnets (one per IP family); a patch replaces the list.
    #[talos(key = "podSubnets", go_name = "NetworkPodSubnets")]
    pub pod_subnets: Replaced<Vec<Prefix>>,
    /// The service subnets (one per IP family); a patch replaces the list.
    #[talos(key = "serviceSubnets", go_name = "NetworkServiceSubnets")]
    pub service_subnets: Replaced<Vec<Prefix>>,
    /// The per-node IPv4 pod CIDR size (24 when unset).
    #[talos(key = "nodeCIDRMaskSizeIPv4", omitempty, go_name = "NetworkNodeCIDRMaskSizeIPv4")]
    pub node_cidr_mask_size_ipv4: i64,
    /// The per-node IPv6 pod CIDR size (64 when unset).
    #[talos(key = "nodeCIDRMaskSizeIPv6", omitempty, go_name = "NetworkNodeCIDRMaskSizeIPv6")]
    pub node_cidr_mask_size_ipv6: i64,
}

crate::document::unnamed_kind!(KubeNetworkConfig => "KubeNetworkConfig" since V1_14_0_RC1);

/// `KubeNodeConfig` (unnamed): how the node registers with Kubernetes.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeNodeConfigV1Alpha1")]
pub struct KubeNodeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Does not register the node with the API server.
    #[talos(key = "skipNodeRegistration", omitempty, go_name = "SkipNodeRegistrationConfig")]
    pub skip_node_registration: Option<bool>,
    /// Registers the node under its FQDN.
    #[talos(key = "registerWithFQDN", omitempty, go_name = "RegisterWithFQDNConfig")]
    pub register_with_fqdn: Option<bool>,
    /// How the node's IP is chosen.
    #[talos(key = "nodeIP", go_name = "NodeIPConfig")]
    pub node_ip: NodeIpConfig,
    /// Labels of the Node object.
    #[talos(key = "labels", omitempty, go_name = "LabelsConfig")]
    pub labels: BTreeMap<String, String>,
    /// Annotations of the Node object.
    #[talos(key = "annotations", omitempty, go_name = "AnnotationsConfig")]
    pub annotations: BTreeMap<String, String>,
    /// Taints of the Node object (`key: value:Effect`).
    #[talos(key = "taints", omitempty, go_name = "TaintsConfig")]
    pub taints: BTreeMap<String, String>,
}

crate::document::unnamed_kind!(KubeNodeConfig => "KubeNodeConfig" since V1_14_0_RC1);

/// `k8s.NodeIPConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.NodeIPConfig")]
pub struct NodeIpConfig {
    /// Subnets (or addresses) the node IP is picked from; `!` excludes one.
    #[talos(key = "validSubnets", omitempty, go_name = "NodeIPValidSubnets")]
    pub valid_subnets: Vec<String>,
}

/// `KubePrismConfig` (unnamed): the node-local API server load balancer.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubePrismConfigV1Alpha1")]
pub struct KubePrismConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The local port.
    #[talos(key = "port", go_name = "PortConfig")]
    pub port: i64,
    /// The TLS server name KubePrism presents to the API server.
    #[talos(key = "tlsServerName", omitempty, go_name = "TLSServerNameConfig")]
    pub tls_server_name: String,
}

crate::document::unnamed_kind!(KubePrismConfig => "KubePrismConfig" since V1_14_0_RC1);

/// `KubeTalosAPIAccessConfig` (unnamed, control planes only): which pods may use the Talos API.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeTalosAPIAccessConfigV1Alpha1")]
pub struct KubeTalosApiAccessConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Talos roles pods may be granted (`os:reader`, ...).
    #[talos(key = "allowedRoles", omitempty, go_name = "AccessAllowedRoles")]
    pub allowed_roles: Vec<String>,
    /// Namespaces whose pods may be granted access.
    #[talos(key = "allowedKubernetesNamespaces", omitempty, go_name = "AccessAllowedKubernetesNamespaces")]
    pub allowed_kubernetes_namespaces: Vec<String>,
}

crate::document::unnamed_kind!(KubeTalosApiAccessConfig => "KubeTalosAPIAccessConfig" since V1_14_0_RC1 only control_planes);
