//! The cluster rules: what must agree, or differ, between the nodes of one cluster.

use std::collections::HashMap;

use super::facts::{Fact, NodeFacts, Role};
use crate::{Diagnostic, Severity, Site};

/// A field of the cluster's identity that every node must hold alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Identity {
    ClusterId,
    ClusterSecret,
    TalosCa,
    KubernetesCa,
    AggregatorCa,
    ServiceAccountKey,
    EtcdCa,
    BootstrapToken,
    MachineToken,
    Endpoint,
    ClusterName,
}

impl Identity {
    /// How the field is named in findings.
    fn label(self) -> &'static str {
        match self {
            Identity::ClusterId => "cluster id",
            Identity::ClusterSecret => "cluster secret",
            Identity::TalosCa => "Talos API CA",
            Identity::KubernetesCa => "Kubernetes CA",
            Identity::AggregatorCa => "aggregator CA",
            Identity::ServiceAccountKey => "service-account key",
            Identity::EtcdCa => "etcd CA",
            Identity::BootstrapToken => "bootstrap token",
            Identity::MachineToken => "machine token",
            Identity::Endpoint => "control plane endpoint",
            Identity::ClusterName => "cluster name",
        }
    }

    /// Whether only the values' fingerprints may be shown.
    pub(super) fn is_secret(self) -> bool {
        !matches!(self, Identity::Endpoint | Identity::ClusterName)
    }

    /// Whether only control planes hold it.
    fn control_plane_only(self) -> bool {
        matches!(self, Identity::AggregatorCa | Identity::ServiceAccountKey | Identity::EtcdCa)
    }

    /// What goes wrong when one node holds another value.
    fn consequence(self) -> &'static str {
        match self {
            Identity::ClusterId | Identity::ClusterSecret => {
                "discovery keeps it out of the cluster's members (KubeSpan, `talosctl get members`)"
            }
            Identity::TalosCa | Identity::MachineToken => {
                "trustd refuses it a certificate, so it never joins (and talosctl cannot reach it with the cluster's talosconfig)"
            }
            Identity::KubernetesCa | Identity::BootstrapToken => "its kubelet cannot join Kubernetes",
            Identity::AggregatorCa | Identity::ServiceAccountKey => {
                "its API server signs and checks with other keys: tokens and aggregated APIs fail depending on which control plane answers"
            }
            Identity::EtcdCa => "its etcd member cannot join the others",
            Identity::Endpoint => "it talks to another control plane than the other nodes",
            Identity::ClusterName => "it belongs to another cluster in Kubernetes and discovery",
        }
    }
}

/// The most common value of each group of facts (the first node's value wins a tie), and the
/// facts that differ from it, with the reference.
fn outliers<'a>(facts: &[(&'a NodeFacts, &'a Fact)]) -> Vec<(&'a NodeFacts, &'a Fact, &'a NodeFacts, &'a Fact, usize)> {
    let mut counts: HashMap<&str, (usize, usize)> = HashMap::new();
    for (i, (_, fact)) in facts.iter().enumerate() {
        counts.entry(fact.value.as_str()).or_insert((0, i)).0 += 1;
    }
    let Some((common, &(count, first))) = counts.iter().max_by_key(|(_, (n, first))| (*n, std::cmp::Reverse(*first)))
    else {
        return Vec::new();
    };
    let (ref_node, ref_fact) = facts[first];
    facts
        .iter()
        .filter(|(_, f)| f.value != *common)
        .map(|&(node, fact)| (node, fact, ref_node, ref_fact, count))
        .collect()
}

fn finding(rule: &str, severity: Severity, message: String, fact: &Fact) -> Diagnostic {
    Diagnostic::new(rule, severity, message)
        .at(fact.document.clone(), Some(fact.field.clone()))
        .with_site(fact.site.clone())
}

/// `cluster-identity`: every node holds the cluster's identity alike.
pub(super) fn identity(nodes: &[NodeFacts], out: &mut Vec<Diagnostic>) {
    let ids = [
        Identity::ClusterId,
        Identity::ClusterSecret,
        Identity::TalosCa,
        Identity::KubernetesCa,
        Identity::AggregatorCa,
        Identity::ServiceAccountKey,
        Identity::EtcdCa,
        Identity::BootstrapToken,
        Identity::MachineToken,
        Identity::Endpoint,
        Identity::ClusterName,
    ];
    for id in ids {
        let holders: Vec<(&NodeFacts, &Fact)> = nodes
            .iter()
            .filter(|n| !id.control_plane_only() || n.role == Role::ControlPlane)
            .filter_map(|n| n.identity.iter().find(|(i, _)| *i == id).map(|(_, f)| (n, f)))
            .collect();
        for (node, fact, ref_node, ref_fact, count) in outliers(&holders) {
            let shown = |f: &Fact| if id.is_secret() { String::new() } else { format!(" {}", f.value) };
            let message = format!(
                "{} holds another {}{} than {} of {} nodes ({}{}): {}",
                node.file,
                id.label(),
                shown(fact),
                count,
                holders.len(),
                ref_node.file,
                shown(ref_fact),
                id.consequence()
            );
            out.push(finding(super::IDENTITY_RULE, Severity::Error, message, fact).with_fix(format!(
                "make {} from the cluster's secrets bundle (`talosctl gen config --with-secrets`)",
                node.file
            )));
        }
    }
}

/// `cluster-unique`: no two nodes with one hostname or one static address.
pub(super) fn unique(nodes: &[NodeFacts], out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<(&str, &str), &NodeFacts> = HashMap::new();
    for node in nodes {
        let hostname = node.hostname.iter().map(|f| ("hostname", f));
        for (what, fact) in hostname.chain(node.addresses.iter().map(|f| ("address", f))) {
            match seen.get(&(what, fact.value.as_str())) {
                Some(first) if !std::ptr::eq(*first, node) => {
                    let why = match what {
                        "hostname" => "two nodes with one name are one Node to Kubernetes, and replace each other",
                        _ => "two nodes answering one address break etcd, the kubelet and talosctl for both",
                    };
                    let message = format!("{} {} is also {}'s: {why}", what, fact.value, first.file);
                    out.push(
                        finding(super::UNIQUE_RULE, Severity::Error, message, fact)
                            .with_fix(format!("give {} its own {what}", node.file)),
                    );
                }
                Some(_) => {}
                None => {
                    seen.insert((what, fact.value.as_str()), node);
                }
            }
        }
    }
}

/// `cluster-etcd`: an odd number of control planes, with etcd settings that agree.
pub(super) fn etcd(nodes: &[NodeFacts], anchor: Option<Site>, out: &mut Vec<Diagnostic>) {
    let members: Vec<&NodeFacts> = nodes.iter().filter(|n| n.role == Role::ControlPlane).collect();
    let n = members.len();
    if n > 0 && n.is_multiple_of(2) {
        let quorum = n / 2 + 1;
        let plural = |k: usize, word: &str| format!("{k} {word}{}", if k == 1 { "" } else { "s" });
        let message = format!(
            "{n} control planes run etcd: its quorum is {quorum}, so it survives {}, no more than {} would",
            plural(n - quorum, "failure"),
            plural(n - 1, "member")
        );
        let fix = format!("run {} or {} control planes", n - 1, n + 1);
        out.push(Diagnostic::new(super::ETCD_RULE, Severity::Warning, message).with_site(anchor).with_fix(fix));
    }
    let settings: Vec<(&NodeFacts, &Fact)> = members.iter().filter_map(|n| n.etcd.as_ref().map(|f| (*n, f))).collect();
    for (node, fact, ref_node, _, count) in outliers(&settings) {
        let message = format!(
            "{}'s etcd settings differ from those of {} of {} control planes ({})",
            node.file,
            count,
            settings.len(),
            ref_node.file
        );
        out.push(
            finding(super::ETCD_RULE, Severity::Warning, message, fact)
                .with_fix("give every control plane the same `cluster.etcd` (its CA aside)"),
        );
    }
}

/// `cluster-endpoint`: every node's control plane endpoint is a name every control plane's API
/// server certificate carries (Talos puts in it its own endpoint's host, its cert SANs, its
/// hostname and addresses, `localhost` and the `kubernetes` service names).
pub(super) fn endpoint(nodes: &[NodeFacts], out: &mut Vec<Diagnostic>) {
    let planes: Vec<(&NodeFacts, Vec<&str>)> = nodes
        .iter()
        .filter(|n| n.role == Role::ControlPlane)
        .map(|cp| {
            let mut names: Vec<&str> =
                vec!["localhost", "127.0.0.1", "kubernetes", "kubernetes.default", "kubernetes.default.svc"];
            names.extend(cp.endpoint_host.iter().map(|f| f.value.as_str()));
            names.extend(cp.cert_sans.iter().map(String::as_str));
            names.extend(cp.hostname.iter().map(|f| f.value.as_str()));
            names.extend(cp.addresses.iter().map(|f| f.value.as_str()));
            (cp, names)
        })
        .collect();
    for node in nodes {
        let Some(host) = &node.endpoint_host else { continue };
        for (cp, names) in &planes {
            if !names.contains(&host.value.as_str()) {
                let message = format!(
                    "{} (the control plane endpoint {} uses) is not a name {}'s API server certificate carries: unless it is an address {} gets at run time, TLS to it fails",
                    host.value, node.file, cp.file, cp.file
                );
                let fix = format!(
                    "add {} to {}'s `cluster.apiServer.certSANs`, or use the endpoint the control planes use",
                    host.value, cp.file
                );
                out.push(finding(super::ENDPOINT_RULE, Severity::Warning, message, host).with_fix(fix));
            }
        }
    }
}

/// `cluster-versions`: one Talos release across nodes, and kubelets within Kubernetes' version
/// skew policy of the API servers (not newer, at most three minor versions older).
pub(super) fn versions(nodes: &[NodeFacts], out: &mut Vec<Diagnostic>) {
    let installers: Vec<(&NodeFacts, &Fact)> =
        nodes.iter().filter_map(|n| n.installer.as_ref().map(|f| (n, f))).collect();
    for (node, fact, ref_node, ref_fact, count) in outliers(&installers) {
        let message = format!(
            "{} installs Talos {} where {} of {} nodes install {} ({}): a cluster runs one release, apart from during an upgrade",
            node.file,
            fact.value,
            count,
            installers.len(),
            ref_fact.value,
            ref_node.file
        );
        out.push(
            finding(super::VERSIONS_RULE, Severity::Warning, message, fact)
                .with_fix("give every node the same installer image"),
        );
    }
    let servers: Vec<(&NodeFacts, &Fact, (u32, u32))> =
        nodes.iter().filter_map(|n| n.api_server.as_ref().and_then(|f| minor(&f.value).map(|m| (n, f, m)))).collect();
    for node in nodes {
        let Some(kubelet) = &node.kubelet else { continue };
        let Some(k) = minor(&kubelet.value) else { continue };
        for (cp, server, s) in &servers {
            let problem = if k > *s {
                "newer than"
            } else if s.0 == k.0 && s.1 > k.1 + 3 {
                "more than three minor versions older than"
            } else {
                continue;
            };
            let message = format!(
                "{}'s kubelet {} is {problem} {}'s API server {}: Kubernetes' version skew policy does not support it",
                node.file, kubelet.value, cp.file, server.value
            );
            out.push(
                finding(super::VERSIONS_RULE, Severity::Error, message, kubelet)
                    .with_fix("upgrade the API servers first, then the kubelets, one minor version at a time"),
            );
        }
    }
}

/// `1.36` of `v1.36.3`.
fn minor(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.trim_start_matches('v').split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// `cluster-network`: pod and service subnets, DNS domain and CNI alike on every node.
pub(super) fn network(nodes: &[NodeFacts], out: &mut Vec<Diagnostic>) {
    for name in ["pod subnets", "service subnets", "DNS domain", "CNI"] {
        let holders: Vec<(&NodeFacts, &Fact)> =
            nodes.iter().filter_map(|n| n.network.iter().find(|(k, _)| *k == name).map(|(_, f)| (n, f))).collect();
        for (node, fact, ref_node, ref_fact, count) in outliers(&holders) {
            let message = format!(
                "{}'s {name} {} differ from those of {} of {} nodes ({}: {}): pods and services are reached through the cluster's one network",
                node.file,
                fact.value,
                count,
                holders.len(),
                ref_node.file,
                ref_fact.value
            );
            out.push(
                finding(super::NETWORK_RULE, Severity::Error, message, fact)
                    .with_fix(format!("give {} the cluster's {name}", node.file)),
            );
        }
    }
}

/// `cluster-worker-secrets`: no worker holds a CA key or the service-account key.
pub(super) fn worker_secrets(nodes: &[NodeFacts], out: &mut Vec<Diagnostic>) {
    for node in nodes.iter().filter(|n| n.role == Role::Worker) {
        for fact in &node.worker_secrets {
            let place = match fact.document.is_legacy() {
                true => fact.field.to_string(),
                false => format!("{} {}", fact.document.kind(), fact.field),
            };
            let message = format!(
                "the worker {} holds {place}, a control plane's secret: anyone who can read the worker's config (or the node) can sign for the cluster",
                node.file
            );
            out.push(
                finding(super::SECRETS_RULE, Severity::Error, message, fact)
                    .with_fix("remove it: `talosctl gen config` leaves it out of worker.yaml"),
            );
        }
    }
}
