//! The cluster's [`Summary`]: its shape from the digests, its name, endpoint and releases from
//! the few distinct texts the nodes hold.

use std::collections::HashMap;

use super::Summary;
use super::digest::{Digest, Slot, key};
use super::facts::{Identity, NodeFacts, Role};

/// The texts of the cluster names, endpoints and installer releases seen, by key: as many as
/// there are distinct values, not nodes.
#[derive(Default)]
pub(super) struct Texts(HashMap<u64, String>);

impl Texts {
    /// A node's texts.
    pub(super) fn of(node: &NodeFacts) -> Texts {
        let named = node.identity.iter().filter(|(id, _)| matches!(id, Identity::ClusterName | Identity::Endpoint));
        let values = named.map(|(_, f)| f.value.clone()).chain(node.installer.iter().map(|f| f.value.clone()));
        Texts(values.map(|v| (key(&v), v)).collect())
    }

    pub(super) fn extend(&mut self, other: Texts) {
        self.0.extend(other.0);
    }
}

/// The summary of the nodes read.
pub(super) fn of(nodes: &[Digest], texts: &Texts, skipped: usize) -> Summary {
    let most = |slot: Slot| {
        let mut counts: HashMap<u64, (usize, usize)> = HashMap::new();
        for (i, value) in nodes.iter().enumerate().filter_map(|(i, n)| n.value(slot).map(|v| (i, v))) {
            counts.entry(value).or_insert((0, i)).0 += 1;
        }
        let common = counts.iter().max_by_key(|(_, (n, first))| (*n, std::cmp::Reverse(*first))).map(|(v, _)| *v);
        common.and_then(|v| texts.0.get(&v).cloned())
    };
    let mut releases: Vec<String> =
        nodes.iter().filter_map(|n| n.value(Slot::Installer)).filter_map(|v| texts.0.get(&v).cloned()).collect();
    releases.sort();
    releases.dedup();
    let planes = nodes.iter().filter(|n| n.role == Role::ControlPlane).count();
    Summary {
        control_planes: planes,
        workers: nodes.len() - planes,
        skipped,
        cluster_name: most(Slot::Identity(Identity::ClusterName)),
        endpoint: most(Slot::Identity(Identity::Endpoint)),
        releases,
    }
}
