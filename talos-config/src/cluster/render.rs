//! The findings in words: each [`Spec`] with the values and input lines of the nodes it names,
//! read again.

use std::collections::HashMap;

use super::digest::{NETWORK, Slot, key};
use super::facts::{Fact, NodeFacts};
use super::rules::Spec;
use crate::{Diagnostic, Severity, Site};

/// The fact of `slot` a node holds (the one with `value` for a slot with several).
fn fact(node: &NodeFacts, slot: Slot, value: u64) -> Option<&Fact> {
    let matching = |f: &&Fact| key(&f.value) == value;
    match slot {
        Slot::Identity(id) => node.identity.iter().find(|(i, _)| *i == id).map(|(_, f)| f),
        Slot::Hostname => node.hostname.as_ref(),
        Slot::Address => node.addresses.iter().find(matching),
        Slot::Endpoint => node.endpoint_host.as_ref(),
        Slot::Network(i) => node.network.iter().find(|(n, _)| *n == NETWORK[usize::from(i)]).map(|(_, f)| f),
        Slot::Etcd => node.etcd.as_ref(),
        Slot::Installer => node.installer.as_ref(),
        Slot::Kubelet => node.kubelet.as_ref(),
        Slot::ApiServer => node.api_server.as_ref(),
        Slot::WorkerSecret => node.worker_secrets.iter().find(matching),
        Slot::CertName => None,
    }
}

fn finding(rule: &str, severity: Severity, message: String, fact: &Fact, fix: String) -> Diagnostic {
    Diagnostic::new(rule, severity, message)
        .at(fact.document.clone(), Some(fact.field.clone()))
        .with_site(fact.site.clone())
        .with_fix(fix)
}

/// The finding of `spec`; `None` when a node read again no longer holds what it held.
pub(super) fn render(spec: &Spec, nodes: &HashMap<usize, NodeFacts>) -> Option<Diagnostic> {
    match *spec {
        Spec::Outlier { rule, slot, node, value, reference, count, total } => {
            let (n, r) = (nodes.get(&node)?, nodes.get(&reference)?);
            outlier(rule, slot, n, fact(n, slot, value)?, r, fact(r, slot, 0)?, count, total)
        }
        Spec::Duplicate { slot, node, value, first } => {
            let (n, f) = (nodes.get(&node)?, nodes.get(&first)?);
            let held = fact(n, slot, value)?;
            let (what, why) = match slot {
                Slot::Hostname => {
                    ("hostname", "two nodes with one name are one Node to Kubernetes, and replace each other")
                }
                _ => ("address", "two nodes answering one address break etcd, the kubelet and talosctl for both"),
            };
            let message = format!("{what} {} is also {}'s: {why}", held.value, f.file);
            Some(finding(super::UNIQUE_RULE, Severity::Error, message, held, format!("give {} its own {what}", n.file)))
        }
        Spec::Quorum { members, anchor } => Some(quorum(members, nodes.get(&anchor)?)),
        Spec::Endpoint { node, cp } => {
            let (n, c) = (nodes.get(&node)?, nodes.get(&cp)?);
            let host = n.endpoint_host.as_ref()?;
            let message = format!(
                "{} (the control plane endpoint {} uses) is not a name {}'s API server certificate carries: unless it is an address {} gets at run time, TLS to it fails",
                host.value, n.file, c.file, c.file
            );
            let fix = format!(
                "add {} to {}'s `cluster.apiServer.certSANs`, or use the endpoint the control planes use",
                host.value, c.file
            );
            Some(finding(super::ENDPOINT_RULE, Severity::Warning, message, host, fix))
        }
        Spec::Skew { node, cp, newer } => {
            let (n, c) = (nodes.get(&node)?, nodes.get(&cp)?);
            let (kubelet, server) = (n.kubelet.as_ref()?, c.api_server.as_ref()?);
            let problem = if newer { "newer than" } else { "more than three minor versions older than" };
            let message = format!(
                "{}'s kubelet {} is {problem} {}'s API server {}: Kubernetes' version skew policy does not support it",
                n.file, kubelet.value, c.file, server.value
            );
            let fix = "upgrade the API servers first, then the kubelets, one minor version at a time".to_string();
            Some(finding(super::VERSIONS_RULE, Severity::Error, message, kubelet, fix))
        }
        Spec::WorkerSecret { node, value } => {
            let n = nodes.get(&node)?;
            let held = fact(n, Slot::WorkerSecret, value)?;
            let place = match held.document.is_legacy() {
                true => held.field.to_string(),
                false => format!("{} {}", held.document.kind(), held.field),
            };
            let message = format!(
                "the worker {} holds {place}, a control plane's secret: anyone who can read the worker's config (or the node) can sign for the cluster",
                n.file
            );
            let fix = "remove it: `talosctl gen config` leaves it out of worker.yaml".to_string();
            Some(finding(super::SECRETS_RULE, Severity::Error, message, held, fix))
        }
    }
}

/// A node holding another value than most nodes.
#[allow(clippy::too_many_arguments)]
fn outlier(
    rule: &'static str,
    slot: Slot,
    node: &NodeFacts,
    held: &Fact,
    reference: &NodeFacts,
    common: &Fact,
    count: usize,
    total: usize,
) -> Option<Diagnostic> {
    let (file, ref_file) = (&node.file, &reference.file);
    let (message, fix, severity) = match slot {
        Slot::Identity(id) => {
            let shown = |f: &Fact| if id.is_secret() { String::new() } else { format!(" {}", f.value) };
            let message = format!(
                "{file} holds another {}{} than {count} of {total} nodes ({ref_file}{}): {}",
                id.label(),
                shown(held),
                shown(common),
                id.consequence()
            );
            (
                message,
                format!("make {file} from the cluster's secrets bundle (`talosctl gen config --with-secrets`)"),
                Severity::Error,
            )
        }
        Slot::Etcd => (
            format!("{file}'s etcd settings differ from those of {count} of {total} control planes ({ref_file})"),
            "give every control plane the same `cluster.etcd` (its CA aside)".to_string(),
            Severity::Warning,
        ),
        Slot::Installer => (
            format!(
                "{file} installs Talos {} where {count} of {total} nodes install {} ({ref_file}): a cluster runs one release, apart from during an upgrade",
                held.value, common.value
            ),
            "give every node the same installer image".to_string(),
            Severity::Warning,
        ),
        Slot::Network(i) => {
            let name = NETWORK[usize::from(i)];
            let message = format!(
                "{file}'s {name} {} differ from those of {count} of {total} nodes ({ref_file}: {}): pods and services are reached through the cluster's one network",
                held.value, common.value
            );
            (message, format!("give {file} the cluster's {name}"), Severity::Error)
        }
        _ => return None,
    };
    Some(finding(rule, severity, message, held, fix))
}

/// An even number of etcd members.
fn quorum(n: usize, anchor: &NodeFacts) -> Diagnostic {
    let quorum = n / 2 + 1;
    let plural = |k: usize, word: &str| format!("{k} {word}{}", if k == 1 { "" } else { "s" });
    let message = format!(
        "{n} control planes run etcd: its quorum is {quorum}, so it survives {}, no more than {} would",
        plural(n - quorum, "failure"),
        plural(n - 1, "member")
    );
    let site = Site { input: anchor.file.clone(), line: 1, column: 1 };
    Diagnostic::new(super::ETCD_RULE, Severity::Warning, message).with_site(Some(site)).with_fix(format!(
        "run {} or {} control planes",
        n - 1,
        n + 1
    ))
}
