//! A node as the rules first see it: each fact reduced to a number (a hash of its value, or a
//! Kubernetes version), a few dozen bytes per node, so that a cluster of any size is compared
//! without holding its configs. The nodes a finding names are read again for their lines.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use super::facts::{Identity, NodeFacts, Role};

/// What a digest entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Slot {
    Identity(Identity),
    Hostname,
    Address,
    /// The control plane endpoint's host.
    Endpoint,
    /// A name a control plane's API server certificate carries.
    CertName,
    /// Pod subnets, service subnets, DNS domain, CNI (by position in `NETWORK`).
    Network(u8),
    Etcd,
    Installer,
    /// `major << 32 | minor` of the kubelet's and the API server's images.
    Kubelet,
    ApiServer,
    WorkerSecret,
}

/// The network settings every node must agree on, in report order.
pub(super) const NETWORK: [&str; 4] = ["pod subnets", "service subnets", "DNS domain", "CNI"];

/// One node, compact.
#[derive(Clone, Debug)]
pub(super) struct Digest {
    pub role: Role,
    pub entries: Box<[(Slot, u64)]>,
}

impl Digest {
    /// The values of `slot`.
    pub(super) fn values(&self, slot: Slot) -> impl Iterator<Item = u64> + '_ {
        self.entries.iter().filter(move |(s, _)| *s == slot).map(|(_, v)| *v)
    }

    /// The value of a single-valued `slot`.
    pub(super) fn value(&self, slot: Slot) -> Option<u64> {
        self.values(slot).next()
    }

    pub(super) fn of(node: &NodeFacts) -> Digest {
        let mut entries = Vec::new();
        let mut put = |slot: Slot, value: &str| entries.push((slot, key(value)));
        for (id, fact) in &node.identity {
            put(Slot::Identity(*id), &fact.value);
        }
        node.hostname.iter().for_each(|f| put(Slot::Hostname, &f.value));
        node.addresses.iter().for_each(|f| put(Slot::Address, &f.value));
        node.endpoint_host.iter().for_each(|f| put(Slot::Endpoint, &f.value));
        if node.role == Role::ControlPlane {
            let names =
                node.endpoint_host.iter().chain(&node.hostname).chain(&node.addresses).map(|f| f.value.as_str());
            names.chain(node.cert_sans.iter().map(String::as_str)).for_each(|n| put(Slot::CertName, n));
        }
        for (name, fact) in &node.network {
            let i = NETWORK.iter().position(|n| n == name).unwrap_or_default();
            put(Slot::Network(i as u8), &fact.value);
        }
        node.etcd.iter().for_each(|f| put(Slot::Etcd, &f.value));
        node.installer.iter().for_each(|f| put(Slot::Installer, &f.value));
        node.worker_secrets.iter().for_each(|f| put(Slot::WorkerSecret, &f.value));
        for (slot, fact) in [(Slot::Kubelet, &node.kubelet), (Slot::ApiServer, &node.api_server)] {
            if let Some(version) = fact.as_ref().and_then(|f| minor(&f.value)) {
                entries.push((slot, u64::from(version.0) << 32 | u64::from(version.1)));
            }
        }
        Digest { role: node.role, entries: entries.into_boxed_slice() }
    }
}

/// A value's key: equal values, equal keys.
pub(super) fn key(value: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// `(1, 36)` of `v1.36.3`.
pub(super) fn minor(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.trim_start_matches('v').split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}
