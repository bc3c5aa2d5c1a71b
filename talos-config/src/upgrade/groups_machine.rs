//! The rewrite of the machine's Kubernetes settings (`machine.*` of the v1alpha1 document):
//! the kubelet, the node's labels, annotations and taints, KubePrism, Talos API access.

use super::plan::{Cx, Plan, image, keys, value};
use crate::yaml_tree::{self as tree, get, is_set, is_true, mapping, plain, string, text};

/// The kubelet's settings: KubeletConfig and KubeCredentialProviderConfig.
pub(super) const KUBELET: &[(&str, &str, &str)] = &[
    ("machine.kubelet.image", "KubeletConfig", "image"),
    ("machine.kubelet.clusterDNS", "KubeletConfig", "clusterDNS"),
    ("machine.kubelet.extraArgs", "KubeletConfig", "extraArgs"),
    ("machine.kubelet.extraConfig", "KubeletConfig", "config"),
    ("machine.kubelet.defaultRuntimeSeccompProfileEnabled", "KubeletConfig", "defaultRuntimeSeccompProfileEnabled"),
    ("machine.kubelet.disableManifestsDirectory", "KubeletConfig", "(it always disables the manifests directory)"),
    ("machine.kubelet.extraMounts", "KubeletConfig", "(kubelet mounts)"),
    ("machine.kubelet.credentialProviderConfig", "KubeCredentialProviderConfig", "configuration"),
];

/// The node's settings: KubeNodeConfig.
pub(super) const NODE: &[(&str, &str, &str)] = &[
    ("machine.nodeLabels", "KubeNodeConfig", "labels"),
    ("machine.nodeAnnotations", "KubeNodeConfig", "annotations"),
    ("machine.nodeTaints", "KubeNodeConfig", "taints"),
    ("machine.kubelet.skipNodeRegistration", "KubeNodeConfig", "skipNodeRegistration"),
    ("machine.kubelet.registerWithFQDN", "KubeNodeConfig", "registerWithFQDN"),
    ("machine.kubelet.nodeIP", "KubeNodeConfig", "nodeIP"),
    ("cluster.allowSchedulingOnControlPlanes", "KubeNodeConfig", "taints"),
    ("cluster.allowSchedulingOnMasters", "KubeNodeConfig", "taints"),
];

pub(super) fn kubelet(cx: &Cx) -> Plan {
    if is_set(cx.legacy, &keys("machine.kubelet.extraMounts")) {
        return Plan::Keep("machine.kubelet.extraMounts has no place in a KubeletConfig document".into());
    }
    if !is_true(cx.legacy, &keys("machine.kubelet.disableManifestsDirectory")) {
        return Plan::Keep("a KubeletConfig document always disables the kubelet's manifests directory, which this config keeps (machine.kubelet.disableManifestsDirectory is not true)".into());
    }
    let mut fields = vec![("image", image(cx, "machine.kubelet.image", "ghcr.io/siderolabs/kubelet"))];
    for (from, to) in [("clusterDNS", "clusterDNS"), ("extraArgs", "extraArgs"), ("extraConfig", "config")] {
        if let Some(v) = value(cx, &format!("machine.kubelet.{from}")) {
            fields.push((to, v));
        }
    }
    if let Some(v) = value(cx, "machine.kubelet.defaultRuntimeSeccompProfileEnabled") {
        fields.push(("defaultRuntimeSeccompProfileEnabled", v));
    }
    let mut documents = vec![tree::document("KubeletConfig", fields)];
    if let Some(v) = value(cx, "machine.kubelet.credentialProviderConfig")
        .filter(|_| is_set(cx.legacy, &keys("machine.kubelet.credentialProviderConfig")))
    {
        documents.push(tree::document("KubeCredentialProviderConfig", vec![("configuration", v)]));
    }
    Plan::Move { documents, removals: vec!["machine.kubelet"] }
}

pub(super) fn node(cx: &Cx) -> Plan {
    let mut labels = value(cx, "machine.nodeLabels").unwrap_or_else(|| mapping(Vec::new()));
    let mut taints = value(cx, "machine.nodeTaints").unwrap_or_else(|| mapping(Vec::new()));
    if cx.control_plane {
        tree::set(&mut labels, "node-role.kubernetes.io/control-plane", string(""));
        let allowed = match get(cx.legacy, &keys("cluster.allowSchedulingOnControlPlanes")) {
            Some(_) => is_true(cx.legacy, &keys("cluster.allowSchedulingOnControlPlanes")),
            None => is_true(cx.legacy, &keys("cluster.allowSchedulingOnMasters")),
        };
        if !allowed {
            tree::set(&mut taints, "node-role.kubernetes.io/control-plane", string("NoSchedule"));
        }
    }
    let mut fields = Vec::new();
    for (from, to) in [
        ("skipNodeRegistration", "skipNodeRegistration"),
        ("registerWithFQDN", "registerWithFQDN"),
        ("nodeIP", "nodeIP"),
    ] {
        if let Some(v) = value(cx, &format!("machine.kubelet.{from}")) {
            fields.push((to, v));
        }
    }
    for (name, map) in [
        ("labels", labels),
        ("annotations", value(cx, "machine.nodeAnnotations").unwrap_or_else(|| mapping(Vec::new()))),
        ("taints", taints),
    ] {
        if map.as_mapping().is_some_and(|m| !m.is_empty()) {
            fields.push((name, map));
        }
    }
    let removals = NODE.iter().map(|(path, ..)| *path).collect();
    Plan::Move { documents: vec![tree::document("KubeNodeConfig", fields)], removals }
}

pub(super) fn kube_prism(cx: &Cx) -> Plan {
    let mut documents = Vec::new();
    if is_true(cx.legacy, &keys("machine.features.kubePrism.enabled")) {
        let port = text(cx.legacy, &keys("machine.features.kubePrism.port")).filter(|p| !matches!(*p, "" | "0"));
        documents.push(tree::document("KubePrismConfig", vec![("port", plain(port.unwrap_or("7445")))]));
    }
    Plan::Move { documents, removals: vec!["machine.features.kubePrism"] }
}

pub(super) fn talos_api_access(cx: &Cx) -> Plan {
    let mut documents = Vec::new();
    if is_true(cx.legacy, &keys("machine.features.kubernetesTalosAPIAccess.enabled")) {
        let mut fields = Vec::new();
        for field in ["allowedRoles", "allowedKubernetesNamespaces"] {
            if let Some(v) = value(cx, &format!("machine.features.kubernetesTalosAPIAccess.{field}")) {
                fields.push((field, v));
            }
        }
        documents.push(tree::document("KubeTalosAPIAccessConfig", fields));
    }
    Plan::Move { documents, removals: vec!["machine.features.kubernetesTalosAPIAccess"] }
}
