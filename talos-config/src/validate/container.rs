//! v1.14's checks over the whole config (upstream `container.validateContainer`): settings that
//! one document may hold and another may need, read through the views Talos's container gives
//! (a dedicated document first, the v1alpha1 document as the fallback). Its errors are items of
//! the top-level list, after every document's own and the v1alpha1 conflicts.

use std::collections::{HashMap, HashSet};

use super::v1alpha1::MachineType;
use super::{Context, Issue};
use crate::gofmt::quote;
use crate::model::cluster::{DiscoveryIdentityConfig, DiscoveryServiceConfig};
use crate::model::container::ContainerConfig;
use crate::model::k8s::{KubeApiServerCaConfig, KubeEtcdEncryptionConfig};
use crate::model::network::{KubeSpanConfig, ResolverConfig};
use crate::model::v1alpha1::Config as Legacy;
use crate::value::url::GoUrl;

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
    legacy_discovery_service(cx) || cx.get::<DiscoveryServiceConfig>().is_some()
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
    cx.get::<KubeApiServerCaConfig>().is_some()
        || legacy(cx).and_then(|c| c.cluster.as_ref()).is_some_and(|c| c.ca.is_some() || !c.accepted_cas.is_empty())
}

/// The legacy encryption secrets, or a KubeEtcdEncryptionConfig document.
fn has_etcd_encryption(cx: &Context<'_>) -> bool {
    cx.get::<KubeEtcdEncryptionConfig>().is_some()
        || legacy(cx)
            .and_then(|c| c.cluster.as_ref())
            .is_some_and(|c| !c.secretbox_encryption_secret.is_empty() || !c.aescbc_encryption_secret.is_empty())
}

/// The control-plane-only kinds present, sorted (as Go sorts strings: by bytes) and without
/// repeats.
fn control_plane_only_kinds(cx: &Context<'_>) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = cx.docs.iter().filter(|d| d.control_plane_only()).map(|d| d.kind()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

fn legacy<'a>(cx: &Context<'a>) -> Option<&'a Legacy> {
    cx.get::<Legacy>()
}

/// The ResolverConfig document's `hostDNS`.
fn resolver_host_dns(doc: &ResolverConfig) -> Option<HostDns> {
    Some(HostDns {
        enabled: doc.host_dns.enabled.unwrap_or(false),
        forward_kube_dns_to_host: doc.host_dns.forward_kube_dns_to_host.unwrap_or(false),
    })
}

/// Whether the ResolverConfig document names a nameserver with a protocol other than Do53
/// (v1alpha1's nameservers are always plain).
fn uses_encrypted_dns(cx: &Context<'_>) -> bool {
    cx.get::<ResolverConfig>().is_some_and(|doc| doc.nameservers.iter().any(|ns| ns.protocol.0 != 0))
}

/// The DiscoveryIdentityConfig document's cluster id and secret.
fn identity_document<'a>(cx: &Context<'a>) -> Option<(&'a str, &'a str)> {
    cx.get::<DiscoveryIdentityConfig>().map(|doc| (doc.cluster_id.as_str(), doc.cluster_secret.as_str()))
}

/// ContainerConfig dependencies across documents (`validateContainerDependencies`): each one
/// naming no configured container, then every cycle, sorted and without repeats, in one item.
fn container_dependencies(cx: &Context<'_>) -> Vec<Issue> {
    let containers: Vec<&ContainerConfig> =
        cx.docs.iter().filter_map(|d| d.as_any().downcast_ref::<ContainerConfig>()).collect();
    let names: HashSet<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    let mut out = Vec::new();
    let mut edges: HashMap<&str, &[String]> = HashMap::new();
    for container in &containers {
        let deps = container.depends_on.as_ref().map_or(&[][..], |d| d.containers.as_slice());
        for dep in deps.iter().filter(|dep| !names.contains(dep.as_str())) {
            out.push(Issue::new(
                format!(
                    "container {} depends on container {}, which is not configured",
                    quote(&container.name),
                    quote(dep)
                ),
                None,
            ));
        }
        edges.insert(&container.name, deps);
    }
    let cycles = dependency_cycles(&names, &edges);
    if !cycles.is_empty() {
        out.push(Issue::new(format!("container dependsOn cycle detected: {}", cycles.join(", ")), None));
    }
    out
}

/// Every cycle of the dependency graph as `a -> b -> a`, found by a depth-first walk from each
/// name in sorted order (iterative: a long chain of containers must not exhaust the stack).
fn dependency_cycles(names: &HashSet<&str>, edges: &HashMap<&str, &[String]>) -> Vec<String> {
    let mut sorted: Vec<&str> = names.iter().copied().collect();
    sorted.sort_unstable();
    let mut done: HashSet<&str> = HashSet::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    let mut cycles = Vec::new();
    for root in sorted {
        if done.contains(root) {
            continue;
        }
        let mut path: Vec<(&str, usize)> = vec![(root, 0)];
        on_path.insert(root);
        while let Some((name, next)) = path.last_mut() {
            let name = *name;
            let deps = edges.get(name).copied().unwrap_or_default();
            let Some(dep) = deps.get(*next).map(String::as_str) else {
                path.pop();
                on_path.remove(name);
                done.insert(name);
                continue;
            };
            *next += 1;
            if !names.contains(dep) || done.contains(dep) {
                continue;
            }
            if on_path.contains(dep) {
                let from = path.iter().position(|(n, _)| *n == dep).unwrap_or(0);
                let mut chain: Vec<&str> = path[from..].iter().map(|(n, _)| *n).collect();
                chain.push(dep);
                cycles.push(chain.join(" -> "));
                continue;
            }
            on_path.insert(dep);
            path.push((dep, 0));
        }
    }
    cycles.sort_unstable();
    cycles.dedup();
    cycles
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    /// Upstream's walk: cycles from the sorted names, each starting where it closes.
    #[test]
    fn dependency_cycles_read_as_loops_sorted_and_once() {
        let deps = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (a, b, c, d) = (deps(&["b"]), deps(&["c", "a"]), deps(&["a"]), deps(&["d", "zz"]));
        let names: HashSet<&str> = ["a", "b", "c", "d"].into_iter().collect();
        let edges: HashMap<&str, &[String]> = [("a", &a[..]), ("b", &b[..]), ("c", &c[..]), ("d", &d[..])].into();
        assert_eq!(super::dependency_cycles(&names, &edges), ["a -> b -> a", "a -> b -> c -> a", "d -> d"]);
    }

    /// A chain of 200,000 containers is walked without exhausting the stack.
    #[test]
    fn a_long_chain_is_walked_iteratively() {
        let names: Vec<String> = (0..200_000).map(|i| format!("c{i:06}")).collect();
        let deps: Vec<Vec<String>> = (0..names.len()).map(|i| vec![names[(i + 1) % names.len()].clone()]).collect();
        let set: HashSet<&str> = names.iter().map(String::as_str).collect();
        let edges: HashMap<&str, &[String]> =
            names.iter().map(String::as_str).zip(deps.iter().map(Vec::as_slice)).collect();
        let want = format!("{} -> c000000", names.join(" -> "));
        assert_eq!(super::dependency_cycles(&set, &edges), [want]);
    }
}
