//! v1.14's checks over the whole config (upstream `container.validateContainer`): settings that
//! one document may hold and another may need, read through the views Talos's container gives
//! (a dedicated document first, the v1alpha1 document as the fallback). Its errors are items of
//! the top-level list, after every document's own and the v1alpha1 conflicts.

use super::v1alpha1::MachineType;
use super::{Context, Issue};
use crate::model::network::{KubeSpanConfig, ResolverConfig};
use crate::model::v1alpha1::Config as Legacy;
use crate::value::url::GoUrl;

/// The kinds only control plane machines may carry (`ControlplaneOnlyDocument`), sorted.
const CONTROL_PLANE_ONLY: &[&str] = &[
    "KubeAPIServerConfig",
    "KubeAdmissionControlConfig",
    "KubeAggregatorCAConfig",
    "KubeAuditPolicyConfig",
    "KubeAuthenticationConfig",
    "KubeAuthorizerConfig",
    "KubeControllerManagerConfig",
    "KubeCoreDNSConfig",
    "KubeEtcdEncryptionConfig",
    "KubeFlannelCNIConfig",
    "KubeProxyConfig",
    "KubeSchedulerConfig",
    "KubeServiceAccountConfig",
    "KubeTalosAPIAccessConfig",
];

/// Where the default discovery service is when `.cluster.discovery` names none.
const DEFAULT_DISCOVERY_ENDPOINT: &str = "https://discovery.talos.dev/";

/// The checks in upstream's order; empty before v1.14.
pub(crate) fn container_issues(cx: &Context<'_>) -> Vec<Issue> {
    if !cx.release.rules().container_validation {
        return Vec::new();
    }
    let mut out = Vec::new();
    if cx.mode.in_container() {
        host_dns_in_container(cx, &mut out);
    }
    if uses_encrypted_dns(cx) && !host_dns(cx).is_some_and(|h| h.enabled) {
        out.push(Issue::new("hostDNS must be enabled when using non-default DNS protocols", None));
    }
    if discovery_enabled(cx) {
        discovery_identity(cx, &mut out);
    }
    out.extend(container_dependencies(cx));
    if kubespan_enabled(cx) && !discovery_enabled(cx) {
        out.push(Issue::new("KubeSpan requires cluster discovery to be enabled", None));
    }
    let machine_type = machine_type(cx);
    if machine_type.is_control_plane() && has_api_server_ca(cx) && !has_etcd_encryption(cx) {
        out.push(Issue::new(
            "etcd encryption config is required for control plane machines running kube-apiserver",
            None,
        ));
    }
    let kinds = control_plane_only_kinds(cx);
    if !kinds.is_empty() && !machine_type.is_control_plane() {
        out.push(Issue::new(
            format!("the following document kinds are only allowed on control plane machines: [{}]", kinds.join(" ")),
            None,
        ));
    }
    out
}

/// Host DNS as the container reads it (`NetworkHostDNSConfig`).
#[derive(Clone, Copy, Debug)]
struct HostDns {
    enabled: bool,
    forward_kube_dns_to_host: bool,
}

/// A ResolverConfig's `hostDNS` when it is enabled, else `.machine.features.hostDNS` when present.
fn host_dns(cx: &Context<'_>) -> Option<HostDns> {
    if let Some(doc) = cx.get::<ResolverConfig>().and_then(resolver_host_dns)
        && doc.enabled
    {
        return Some(doc);
    }
    let legacy = legacy(cx)?.machine.as_ref()?.features.as_ref()?.host_dns.as_ref()?;
    Some(HostDns {
        enabled: legacy.enabled.unwrap_or(false),
        forward_kube_dns_to_host: legacy.forward_kube_dns_to_host.unwrap_or(false),
    })
}

fn host_dns_in_container(cx: &Context<'_>, out: &mut Vec<Issue>) {
    let Some(dns) = host_dns(cx) else {
        out.push(Issue::new("hostDNS config is required in container mode", None));
        return;
    };
    if !dns.enabled {
        out.push(Issue::new("hostDNS must be enabled in container mode", None));
    }
    if !dns.forward_kube_dns_to_host {
        out.push(Issue::new("forwardKubeDNSToHost must be enabled in container mode", None));
    }
}

/// Whether `.cluster.discovery` yields the `legacy` discovery service, or else any
/// DiscoveryServiceConfig document exists (`DiscoveryServiceConfigs` is not empty).
fn discovery_enabled(cx: &Context<'_>) -> bool {
    legacy_discovery_service(cx) || has_kind(cx, "DiscoveryServiceConfig")
}

/// v1alpha1's discovery service: discovery and its service registry enabled, and an endpoint Go's
/// `url.Parse` accepts.
fn legacy_discovery_service(cx: &Context<'_>) -> bool {
    let Some(discovery) = legacy(cx).and_then(|c| c.cluster.as_ref()).and_then(|c| c.discovery.as_ref()) else {
        return false;
    };
    let service = &discovery.registries.service;
    if discovery.enabled != Some(true) || service.disabled == Some(true) {
        return false;
    }
    let endpoint = if service.endpoint.is_empty() { DEFAULT_DISCOVERY_ENDPOINT } else { service.endpoint.as_str() };
    GoUrl::parse(endpoint).is_ok()
}

fn discovery_identity(cx: &Context<'_>, out: &mut Vec<Issue>) {
    let (id, secret) = identity(cx).unwrap_or_default();
    if id.is_empty() {
        out.push(Issue::new(
            "cluster ID (.cluster.id or DiscoveryIdentityConfig) should be set when cluster discovery (DiscoveryServiceConfig) is enabled",
            None,
        ));
    }
    if secret.is_empty() {
        out.push(Issue::new(
            "cluster secret (.cluster.secret or DiscoveryIdentityConfig) should be set when cluster discovery (DiscoveryServiceConfig) is enabled",
            None,
        ));
    }
}

/// The cluster's identity (`DiscoveryIdentityConfig`): `.cluster.id`/`.cluster.secret` when
/// either is set, else the DiscoveryIdentityConfig document.
fn identity<'a>(cx: &Context<'a>) -> Option<(&'a str, &'a str)> {
    if let Some(cluster) = legacy(cx).and_then(|c| c.cluster.as_ref())
        && (!cluster.id.is_empty() || !cluster.secret.is_empty())
    {
        return Some((&cluster.id, &cluster.secret));
    }
    identity_document(cx)
}

/// A KubeSpanConfig document's `enabled`, else `.machine.network.kubespan.enabled`.
fn kubespan_enabled(cx: &Context<'_>) -> bool {
    if let Some(doc) = cx.get::<KubeSpanConfig>() {
        return doc.enabled == Some(true);
    }
    legacy(cx)
        .and_then(|c| c.machine.as_ref())
        .and_then(|m| m.network.as_ref())
        .and_then(|n| n.kubespan.as_ref())
        .is_some_and(|k| k.enabled == Some(true))
}

/// The machine type of the v1alpha1 document (unknown without one).
fn machine_type(cx: &Context<'_>) -> MachineType {
    legacy(cx).and_then(|c| c.machine.as_ref()).map_or(MachineType::Unknown, |m| MachineType::parse(&m.r#type))
}

/// Whether the container has an API server CA (`K8sAPIServerCAConfig`): the document, or
/// `.cluster.ca`/`.cluster.acceptedCAs`.
fn has_api_server_ca(cx: &Context<'_>) -> bool {
    has_kind(cx, "KubeAPIServerCAConfig")
        || legacy(cx).and_then(|c| c.cluster.as_ref()).is_some_and(|c| c.ca.is_some() || !c.accepted_cas.is_empty())
}

/// The legacy encryption secrets, or a KubeEtcdEncryptionConfig document.
fn has_etcd_encryption(cx: &Context<'_>) -> bool {
    has_kind(cx, "KubeEtcdEncryptionConfig")
        || legacy(cx)
            .and_then(|c| c.cluster.as_ref())
            .is_some_and(|c| !c.secretbox_encryption_secret.is_empty() || !c.aescbc_encryption_secret.is_empty())
}

/// The control-plane-only kinds present, sorted and without repeats.
fn control_plane_only_kinds(cx: &Context<'_>) -> Vec<&'static str> {
    CONTROL_PLANE_ONLY.iter().copied().filter(|kind| has_kind(cx, kind)).collect()
}

fn has_kind(cx: &Context<'_>, kind: &str) -> bool {
    cx.docs.iter().any(|d| d.kind() == kind)
}

fn legacy<'a>(cx: &Context<'a>) -> Option<&'a Legacy> {
    cx.get::<Legacy>()
}

// The documents below arrive with v1.14's new kinds (issue 37); until they are registered these
// views find nothing, as Talos's container finds nothing without such documents.

/// The ResolverConfig document's `hostDNS`.
fn resolver_host_dns(_doc: &ResolverConfig) -> Option<HostDns> {
    None
}

/// Whether the ResolverConfig document names a nameserver with a protocol other than Do53.
fn uses_encrypted_dns(_cx: &Context<'_>) -> bool {
    false
}

/// The DiscoveryIdentityConfig document's cluster id and secret.
fn identity_document<'a>(_cx: &Context<'a>) -> Option<(&'a str, &'a str)> {
    None
}

/// ContainerConfig dependencies across documents: unknown containers and cycles.
fn container_dependencies(_cx: &Context<'_>) -> Vec<Issue> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_plane_only_kinds_are_sorted_as_go_sorts_them() {
        let mut sorted = super::CONTROL_PLANE_ONLY.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, super::CONTROL_PLANE_ONLY);
    }
}
