//! The cluster rules over the nodes' digests: which nodes a finding names, and the counts it
//! quotes ([`Spec`]); `render` words them with the lines of the nodes read again.

use std::collections::HashMap;

use super::digest::{Digest, NETWORK, Slot, key};
use super::facts::{Identity, Role};

/// Every identity field, in report order.
pub(super) const IDENTITIES: [Identity; 11] = [
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

/// A finding before it is worded: the nodes it names (by index) and what it quotes.
#[derive(Clone, Debug)]
pub(super) enum Spec {
    /// `node` holds another value of `slot` than `count` of `total` nodes, `reference` first.
    Outlier { rule: &'static str, slot: Slot, node: usize, value: u64, reference: usize, count: usize, total: usize },
    /// `node` holds a hostname or address `first` holds too.
    Duplicate { slot: Slot, node: usize, value: u64, first: usize },
    /// An even number of etcd members; the finding is at the first control plane.
    Quorum { members: usize, anchor: usize },
    /// `cp`'s API server certificate does not name `node`'s endpoint host.
    Endpoint { node: usize, cp: usize },
    /// `node`'s kubelet is outside the version skew policy of `cp`'s API server.
    Skew { node: usize, cp: usize, newer: bool },
    /// A worker holding a control plane's secret.
    WorkerSecret { node: usize, value: u64 },
}

impl Spec {
    /// The nodes the finding needs read again.
    pub(super) fn nodes(&self) -> Vec<usize> {
        match *self {
            Spec::Outlier { node, reference, .. } => vec![node, reference],
            Spec::Duplicate { node, first, .. } => vec![node, first],
            Spec::Quorum { anchor, .. } => vec![anchor],
            Spec::Endpoint { node, cp } | Spec::Skew { node, cp, .. } => vec![node, cp],
            Spec::WorkerSecret { node, .. } => vec![node],
        }
    }
}

/// The nodes holding `slot` that differ from the most common value (the first holder's value
/// wins a tie).
fn outliers(rule: &'static str, slot: Slot, holders: &[(usize, u64)], out: &mut Vec<Spec>) {
    let mut counts: HashMap<u64, (usize, usize)> = HashMap::new();
    for &(i, value) in holders {
        counts.entry(value).or_insert((0, i)).0 += 1;
    }
    let Some((&common, &(count, reference))) =
        counts.iter().max_by_key(|(_, (n, first))| (*n, std::cmp::Reverse(*first)))
    else {
        return;
    };
    for &(node, value) in holders.iter().filter(|(_, v)| *v != common) {
        out.push(Spec::Outlier { rule, slot, node, value, reference, count, total: holders.len() });
    }
}

fn holders(nodes: &[Digest], slot: Slot, only: Option<Role>) -> Vec<(usize, u64)> {
    let nodes = nodes.iter().enumerate().filter(|(_, n)| only.is_none_or(|r| n.role == r));
    nodes.filter_map(|(i, n)| n.value(slot).map(|v| (i, v))).collect()
}

/// Every finding, in report order.
pub(super) fn run(nodes: &[Digest]) -> Vec<Spec> {
    let mut out = Vec::new();
    for id in IDENTITIES {
        let only = id.control_plane_only().then_some(Role::ControlPlane);
        outliers(super::IDENTITY_RULE, Slot::Identity(id), &holders(nodes, Slot::Identity(id), only), &mut out);
    }
    unique(nodes, &mut out);
    let planes: Vec<usize> = (0..nodes.len()).filter(|&i| nodes[i].role == Role::ControlPlane).collect();
    if !planes.is_empty() && planes.len().is_multiple_of(2) {
        out.push(Spec::Quorum { members: planes.len(), anchor: planes[0] });
    }
    outliers(super::ETCD_RULE, Slot::Etcd, &holders(nodes, Slot::Etcd, Some(Role::ControlPlane)), &mut out);
    endpoint(nodes, &planes, &mut out);
    outliers(super::VERSIONS_RULE, Slot::Installer, &holders(nodes, Slot::Installer, None), &mut out);
    skew(nodes, &planes, &mut out);
    for i in 0..NETWORK.len() {
        let slot = Slot::Network(i as u8);
        outliers(super::NETWORK_RULE, slot, &holders(nodes, slot, None), &mut out);
    }
    for (node, digest) in nodes.iter().enumerate().filter(|(_, n)| n.role == Role::Worker) {
        out.extend(digest.values(Slot::WorkerSecret).map(|value| Spec::WorkerSecret { node, value }));
    }
    out
}

/// Hostnames and addresses held by two nodes.
fn unique(nodes: &[Digest], out: &mut Vec<Spec>) {
    let mut seen: HashMap<(Slot, u64), usize> = HashMap::new();
    for (node, digest) in nodes.iter().enumerate() {
        let values = digest.values(Slot::Hostname).map(|v| (Slot::Hostname, v));
        for (slot, value) in values.chain(digest.values(Slot::Address).map(|v| (Slot::Address, v))) {
            match seen.get(&(slot, value)) {
                Some(&first) if first != node => out.push(Spec::Duplicate { slot, node, value, first }),
                Some(_) => {}
                None => {
                    seen.insert((slot, value), node);
                }
            }
        }
    }
}

/// Endpoint hosts a control plane's certificate does not name.
fn endpoint(nodes: &[Digest], planes: &[usize], out: &mut Vec<Spec>) {
    let always: Vec<u64> = ["localhost", "127.0.0.1", "kubernetes", "kubernetes.default", "kubernetes.default.svc"]
        .iter()
        .map(|n| key(n))
        .collect();
    for (node, digest) in nodes.iter().enumerate() {
        let Some(host) = digest.value(Slot::Endpoint) else { continue };
        for &cp in planes {
            if !always.contains(&host) && !nodes[cp].values(Slot::CertName).any(|n| n == host) {
                out.push(Spec::Endpoint { node, cp });
            }
        }
    }
}

/// Kubelets newer than an API server, or more than three minor versions older.
fn skew(nodes: &[Digest], planes: &[usize], out: &mut Vec<Spec>) {
    let split = |v: u64| (v >> 32, v & 0xffff_ffff);
    for (node, digest) in nodes.iter().enumerate() {
        let Some(kubelet) = digest.value(Slot::Kubelet).map(split) else { continue };
        for &cp in planes {
            let Some(server) = nodes[cp].value(Slot::ApiServer).map(split) else { continue };
            if kubelet > server {
                out.push(Spec::Skew { node, cp, newer: true });
            } else if server.0 == kubelet.0 && server.1 > kubelet.1 + 3 {
                out.push(Spec::Skew { node, cp, newer: false });
            }
        }
    }
}
