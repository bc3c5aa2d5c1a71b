//! `V1Alpha1ConflictValidate` of the `types/k8s` kinds: the v1alpha1 field that already
//! configures what the document would. Each rule reports its first hit only.

use super::err;
use crate::model::v1alpha1::{ClusterConfig, Config, MachineConfig};
use crate::validate::{Context, Issue};

/// The rule's first hit, if any, as the document's conflicts.
fn first(hits: impl IntoIterator<Item = (bool, &'static str, &'static str)>) -> Vec<Issue> {
    hits.into_iter().find(|(hit, _, _)| *hit).map(|(_, text, path)| err(text, path)).into_iter().collect()
}

fn legacy<'a>(cx: &Context<'a>) -> Option<&'a Config> {
    crate::validate::legacy(cx)
}

fn cluster<'a>(cx: &Context<'a>) -> Option<&'a ClusterConfig> {
    legacy(cx).and_then(|c| c.cluster.as_ref())
}

fn machine<'a>(cx: &Context<'a>) -> Option<&'a MachineConfig> {
    legacy(cx).and_then(|c| c.machine.as_ref())
}

pub(super) fn api_server(cx: &Context<'_>) -> Vec<Issue> {
    let c = cluster(cx);
    first([
        (
            c.is_some_and(|c| c.api_server.is_some()),
            "kube-apiserver config is already set in v1alpha1 config (.cluster.apiServer)",
            "cluster.apiServer",
        ),
        (
            c.and_then(|c| c.control_plane.as_ref()).is_some_and(|cp| cp.local_api_server_port != 0),
            "kube-apiserver API port is already set in v1alpha1 config (.cluster.controlPlane.localAPIServerPort)",
            "cluster.controlPlane.localAPIServerPort",
        ),
    ])
}

pub(super) fn aggregator_ca(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.aggregator_ca.is_some()),
        "kube-apiserver aggregator CA is already set in v1alpha1 config (.cluster.aggregatorCA), please remove it and use the new KubeAggregatorCAConfig document instead",
        "cluster.aggregatorCA",
    )])
}

pub(super) fn api_server_ca(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.ca.is_some()),
        "kube-apiserver CA is already set in v1alpha1 config (.cluster.ca)",
        "cluster.ca",
    )])
}

pub(super) fn service_account(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.service_account.is_some()),
        "service account is already set in v1alpha1 config (.cluster.serviceAccount)",
        "cluster.serviceAccount",
    )])
}

pub(super) fn etcd_encryption(cx: &Context<'_>) -> Vec<Issue> {
    let c = cluster(cx);
    first([(
        c.is_some_and(|c| !c.secretbox_encryption_secret.is_empty() || !c.aescbc_encryption_secret.is_empty()),
        "etcd encryption config is already set in v1alpha1 config",
        "cluster",
    )])
}

/// Also the authorizer's rule: upstream's `KubeAuthorizerConfig` tests the admission plugins.
pub(super) fn admission_control(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).and_then(|c| c.api_server.as_ref()).is_some_and(|a| !a.admission_control.0.is_empty()),
        "admission control plugin config is already set in v1alpha1 config",
        "cluster.apiServer.admissionControl",
    )])
}

pub(super) fn audit_policy(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx)
            .and_then(|c| c.api_server.as_ref())
            .is_some_and(|a| a.audit_policy.get().object.is_some_and(|o| !o.is_empty())),
        "audit policy config is already set in v1alpha1 config",
        "cluster.apiServer.auditPolicy",
    )])
}

pub(super) fn kube_cluster(cx: &Context<'_>) -> Vec<Issue> {
    let c = cluster(cx);
    first([
        (
            c.is_some_and(|c| !c.cluster_name.is_empty()),
            "cluster name is already set in the v1alpha1 config (.cluster.clusterName). Please remove it and use only the new KubeClusterConfig document to avoid conflicts",
            "cluster.clusterName",
        ),
        (
            c.and_then(|c| c.control_plane.as_ref()).is_some_and(|cp| cp.endpoint.is_some()),
            "cluster endpoint is already set in the v1alpha1 config (.cluster.controlPlane.endpoint). Please remove it and use only the new KubeClusterConfig document to avoid conflicts",
            "cluster.controlPlane.endpoint",
        ),
    ])
}

pub(super) fn controller_manager(cx: &Context<'_>) -> Vec<Issue> {
    first([
        (
            cluster(cx).is_some_and(|c| c.controller_manager.is_some()),
            "kube-controller-manager config is already set in v1alpha1 config (.cluster.controllerManager)",
            "cluster.controllerManager",
        ),
        (
            machine(cx).and_then(|m| m.control_plane.as_ref()).is_some_and(|cp| cp.controller_manager.is_some()),
            "kube-controller-manager config is already set in v1alpha1 config (.machine.controlplane.controllerManager)",
            "machine.controlplane.controllerManager",
        ),
    ])
}

pub(super) fn scheduler(cx: &Context<'_>) -> Vec<Issue> {
    first([
        (
            cluster(cx).is_some_and(|c| c.scheduler.is_some()),
            "kube-scheduler config is already set in v1alpha1 config (.cluster.scheduler)",
            "cluster.scheduler",
        ),
        (
            machine(cx).and_then(|m| m.control_plane.as_ref()).is_some_and(|cp| cp.scheduler.is_some()),
            "kube-scheduler config is already set in v1alpha1 config (.machine.controlplane.scheduler)",
            "machine.controlplane.scheduler",
        ),
    ])
}

pub(super) fn core_dns(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.core_dns.is_some()),
        "CoreDNS config is already set in v1alpha1 config (.cluster.coreDNS)",
        "cluster.coreDNS",
    )])
}

pub(super) fn proxy(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.proxy.is_some()),
        "cluster proxy config in v1alpha1 config (.machine.cluster.proxy) can't be used with KubeProxyConfig document, please remove it to avoid conflicts",
        "cluster.proxy",
    )])
}

pub(super) fn flannel(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.network.is_some()),
        "cluster network config in v1alpha1 config (.machine.cluster.network) can't be used with KubeFlannelCNIConfig document, please remove it to avoid conflicts",
        "cluster.network",
    )])
}

pub(super) fn network(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        cluster(cx).is_some_and(|c| c.network.is_some()),
        "cluster network config is already set in the v1alpha1 config (.machine.cluster.network). Please remove it and use only the new KubeNetworkConfig document to avoid conflicts",
        "cluster.network",
    )])
}

pub(super) fn kubelet(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        machine(cx).is_some_and(|m| m.kubelet.is_some()),
        "kubelet config is already set in v1alpha1 config (.machine.kubelet)",
        "machine.kubelet",
    )])
}

pub(super) fn credential_provider(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        machine(cx).is_some_and(|m| m.kubelet.is_some()),
        "cannot use KubeCredentialProviderConfig with legacy kubelet configuration (.machine.kubelet)",
        "machine.kubelet",
    )])
}

pub(super) fn kube_prism(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        machine(cx).and_then(|m| m.features.as_ref()).is_some_and(|f| f.kube_prism.is_some()),
        "KubePrism config in v1alpha1 config (.machine.features.kubePrism) can't be used with KubePrismConfig document, please remove it to avoid conflicts",
        "machine.features.kubePrism",
    )])
}

pub(super) fn talos_api_access(cx: &Context<'_>) -> Vec<Issue> {
    first([(
        machine(cx).and_then(|m| m.features.as_ref()).is_some_and(|f| f.kubernetes_talos_api_access.is_some()),
        ".machine.features.kubernetesTalosAPIAccess is already set in v1alpha1 config",
        "machine.features.kubernetesTalosAPIAccess",
    )])
}

/// Node labels, annotations and taints are tested for presence; a map given empty counts as
/// absent here (Go tells an empty map from a nil one).
pub(super) fn node(cx: &Context<'_>) -> Vec<Issue> {
    let c = cluster(cx);
    let m = machine(cx);
    let kubelet = m.and_then(|m| m.kubelet.as_ref());
    first([
        (
            c.is_some_and(|c| c.allow_scheduling_on_control_planes.is_some()),
            ".cluster.allowSchedulingOnControlPlanes is already set in v1alpha1 config",
            "cluster.allowSchedulingOnControlPlanes",
        ),
        (
            c.is_some_and(|c| c.allow_scheduling_on_masters.is_some()),
            ".cluster.allowSchedulingOnMasters is already set in v1alpha1 config",
            "cluster.allowSchedulingOnMasters",
        ),
        (
            kubelet.is_some_and(|k| k.skip_node_registration.is_some()),
            ".machine.kubelet.skipNodeRegistration is already set in v1alpha1 config",
            "machine.kubelet.skipNodeRegistration",
        ),
        (
            kubelet.is_some_and(|k| k.register_with_fqdn.is_some()),
            ".machine.kubelet.registerWithFQDN is already set in v1alpha1 config",
            "machine.kubelet.registerWithFQDN",
        ),
        (
            kubelet.is_some_and(|k| k.node_ip.is_some()),
            ".machine.kubelet.nodeIP is already set in v1alpha1 config",
            "machine.kubelet.nodeIP",
        ),
        (
            m.is_some_and(|m| !m.node_labels.is_empty()),
            ".machine.nodeLabels is already set in v1alpha1 config",
            "machine.nodeLabels",
        ),
        (
            m.is_some_and(|m| !m.node_annotations.is_empty()),
            ".machine.nodeAnnotations is already set in v1alpha1 config",
            "machine.nodeAnnotations",
        ),
        (
            m.is_some_and(|m| !m.node_taints.is_empty()),
            ".machine.nodeTaints is already set in v1alpha1 config",
            "machine.nodeTaints",
        ),
    ])
}
