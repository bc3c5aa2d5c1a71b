//! The v1alpha1 Kubernetes settings that have documents of their own from Talos v1.14, in
//! groups that move together (a document replaces everything its v1alpha1 section answered, so
//! a section moves whole or not at all), each with how to write it the v1.14 way so that Talos
//! reads the same values (`v1alpha1_k8s_bridge.go`: docs/upgrade.md lists the rules), or why it
//! stays in the v1alpha1 document, which v1.14 still reads.

use super::groups_cluster as cluster;
use super::groups_machine::{self as machine, KUBELET, NODE};
use super::plan::{Cx, Plan};

/// A group of settings that move together.
pub(super) struct Group {
    /// The v1alpha1 settings (dotted paths) with the document kind and field each belongs in.
    pub settings: &'static [(&'static str, &'static str, &'static str)],
    /// Whether only control planes may hold the group's documents.
    pub control_plane_only: bool,
    /// How the group is rewritten.
    pub plan: fn(&Cx) -> Plan,
}

/// Every group, in the order `talosctl gen config` v1.14 writes their documents.
pub(super) const GROUPS: &[Group] = &[
    Group {
        settings: &[
            ("cluster.clusterName", "KubeClusterConfig", "clusterName"),
            ("cluster.controlPlane.endpoint", "KubeClusterConfig", "endpoint"),
            ("cluster.controlPlane.localAPIServerPort", "KubeAPIServerConfig", "apiPort"),
            ("cluster.serviceAccount", "KubeServiceAccountConfig", "issuer.privateKey"),
        ],
        control_plane_only: false,
        plan: cluster::cluster,
    },
    Group { settings: NODE, control_plane_only: false, plan: machine::node },
    Group { settings: KUBELET, control_plane_only: false, plan: machine::kubelet },
    Group {
        settings: &[
            ("cluster.network.dnsDomain", "KubeNetworkConfig", "dnsDomain"),
            ("cluster.network.podSubnets", "KubeNetworkConfig", "podSubnets"),
            ("cluster.network.serviceSubnets", "KubeNetworkConfig", "serviceSubnets"),
            ("cluster.network.cni", "KubeFlannelCNIConfig", "backendType"),
        ],
        control_plane_only: false,
        plan: cluster::network,
    },
    Group {
        settings: &[
            ("cluster.ca", "KubeAPIServerCAConfig", "issuingCA, or acceptedCAs without its key"),
            ("cluster.acceptedCAs", "KubeAPIServerCAConfig", "acceptedCAs"),
        ],
        control_plane_only: false,
        plan: cluster::api_server_ca,
    },
    Group {
        settings: &[("machine.features.kubePrism", "KubePrismConfig", "port")],
        control_plane_only: false,
        plan: machine::kube_prism,
    },
    Group {
        settings: &[("cluster.aggregatorCA", "KubeAggregatorCAConfig", "issuingCA")],
        control_plane_only: true,
        plan: cluster::aggregator_ca,
    },
    Group {
        settings: &[
            ("cluster.apiServer.image", "KubeAPIServerConfig", "image"),
            ("cluster.apiServer.extraArgs", "KubeAPIServerConfig", "extraArgs"),
            ("cluster.apiServer.env", "KubeAPIServerConfig", "env"),
            ("cluster.apiServer.resources", "KubeAPIServerConfig", "resources"),
            ("cluster.apiServer.certSANs", "KubeAPIServerConfig", "certExtraSANs"),
            ("cluster.apiServer.extraVolumes", "KubeAPIServerConfig", "(extra volumes)"),
            ("cluster.apiServer.admissionControl", "KubeAdmissionControlConfig", "configuration"),
            ("cluster.apiServer.auditPolicy", "KubeAuditPolicyConfig", "configuration"),
            ("cluster.apiServer.authorizationConfig", "KubeAuthorizerConfig", "type"),
        ],
        control_plane_only: true,
        plan: |_| Plan::Keep(API_SERVER_KEPT.to_string()),
    },
    Group {
        settings: &[
            ("cluster.secretboxEncryptionSecret", "KubeEtcdEncryptionConfig", "config"),
            ("cluster.aescbcEncryptionSecret", "KubeEtcdEncryptionConfig", "config"),
        ],
        control_plane_only: true,
        plan: |_| {
            Plan::Keep("Talos v1.14 reads the encryption secrets from the v1alpha1 document as before; the rewrite leaves them".to_string())
        },
    },
    Group {
        settings: &[
            ("cluster.controllerManager", "KubeControllerManagerConfig", "image"),
            ("machine.controlPlane.controllerManager", "KubeControllerManagerConfig", "enabled"),
        ],
        control_plane_only: true,
        plan: cluster::controller_manager,
    },
    Group {
        settings: &[
            ("cluster.scheduler", "KubeSchedulerConfig", "image"),
            ("machine.controlPlane.scheduler", "KubeSchedulerConfig", "enabled"),
        ],
        control_plane_only: true,
        plan: cluster::scheduler,
    },
    Group {
        settings: &[("cluster.proxy", "KubeProxyConfig", "image")],
        control_plane_only: true,
        plan: |_| {
            Plan::Keep("a KubeProxyConfig document makes kube-proxy read a configuration file instead of its flags (Talos v1.14 cannot write the v1alpha1 behaviour as a document)".to_string())
        },
    },
    Group {
        settings: &[("cluster.coreDNS", "KubeCoreDNSConfig", "image")],
        control_plane_only: true,
        plan: cluster::core_dns,
    },
    Group {
        settings: &[("machine.features.kubernetesTalosAPIAccess", "KubeTalosAPIAccessConfig", "allowedRoles")],
        control_plane_only: true,
        plan: machine::talos_api_access,
    },
    Group {
        settings: &[
            ("cluster.extraManifests", "KubeExternalManifestConfig", "url"),
            ("cluster.extraManifestHeaders", "KubeExternalManifestConfig", "headers"),
        ],
        control_plane_only: false,
        plan: |_| {
            Plan::Keep("a KubeExternalManifestConfig document needs a name, where the v1alpha1 form names a manifest by its URL: the manifests' resource IDs and apply order would change".to_string())
        },
    },
    Group {
        settings: &[("cluster.inlineManifests", "KubeInlineManifestConfig", "manifest")],
        control_plane_only: false,
        plan: cluster::inline_manifests,
    },
    Group {
        settings: &[("machine.pods", "KubeStaticPodConfig", "pod")],
        control_plane_only: false,
        plan: cluster::static_pods,
    },
];

/// Why the API server stays in the v1alpha1 document.
const API_SERVER_KEPT: &str = "a KubeAPIServerConfig document switches the API server to an authentication configuration file (--authentication-config instead of --anonymous-auth=false) and drops its extra volumes: Talos v1.14 cannot write the v1alpha1 behaviour as documents";
