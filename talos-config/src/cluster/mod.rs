//! A cluster, not a file: the checks across every node config of one cluster (one identity,
//! unique names and addresses, etcd's quorum, the endpoint in every API server certificate,
//! one release and a supported kubelet skew, one network, no control plane secrets on workers).
//!
//! The caller hands over each node's inputs through a loader, so that a cluster of any size is
//! checked in the memory of one node's config plus a few facts per node (fingerprints of its
//! secrets, never the secrets); nodes are read on every core.
//!
//! ```
//! use talos_config::cluster::{ClusterOptions, NodeInput, check_nodes};
//! use talos_config::PatchSource;
//!
//! let node = |file: &str, hostname: &str| NodeInput::new(PatchSource::new(file, format!(
//!     "version: v1alpha1\nmachine:\n  type: worker\n  token: abc\n  network:\n    hostname: {hostname}\n"
//! )));
//! let report = check_nodes(&[node("w1.yaml", "node-1"), node("w2.yaml", "node-1")], &ClusterOptions::default());
//! assert_eq!(report.summary().workers, 2);
//! assert_eq!(
//!     report.diagnostics()[0].to_string(),
//!     "w2.yaml:6:5: error[cluster-unique]: hostname node-1 is also w1.yaml's: two nodes with one name are one Node to Kubernetes, and replace each other"
//! );
//! ```

mod digest;
mod facts;
mod read;
mod render;
mod rules;
mod summary;

use crate::lint::Rule;
use crate::{Diagnostic, PatchSource, Release, Severity};

/// The rule of a file that is not checked with the cluster.
pub const INPUT_RULE: &str = "cluster-input";
/// The rule of a node that holds another cluster identity.
pub const IDENTITY_RULE: &str = "cluster-identity";
/// The rule of two nodes with one hostname or address.
pub const UNIQUE_RULE: &str = "cluster-unique";
/// The rule of etcd's quorum and settings.
pub const ETCD_RULE: &str = "cluster-etcd";
/// The rule of an endpoint a control plane's certificate does not name.
pub const ENDPOINT_RULE: &str = "cluster-endpoint";
/// The rule of release and Kubernetes version skew.
pub const VERSIONS_RULE: &str = "cluster-versions";
/// The rule of a node on another network.
pub const NETWORK_RULE: &str = "cluster-network";
/// The rule of a control plane's secret on a worker.
pub const SECRETS_RULE: &str = "cluster-worker-secrets";

/// One node's inputs: its config (the base) and the patches applied to it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeInput {
    /// What findings call the node (default: the base's name, its file).
    pub name: Option<String>,
    /// The node's config, named by its file.
    pub base: PatchSource,
    /// Patches applied to it, in order.
    pub patches: Vec<PatchSource>,
}

impl NodeInput {
    /// A node given as one merged config.
    pub fn new(base: PatchSource) -> NodeInput {
        NodeInput { name: None, base, patches: Vec::new() }
    }
}

/// What [`check`] is told beyond the nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClusterOptions {
    /// The release the nodes run (default: the default release).
    pub release: Release,
}

impl ClusterOptions {
    /// The options for nodes running `release`.
    pub fn new(release: Release) -> ClusterOptions {
        ClusterOptions { release }
    }
}

impl Default for ClusterOptions {
    fn default() -> ClusterOptions {
        ClusterOptions::new(Release::DEFAULT)
    }
}

/// The cluster as its configs describe it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Control planes checked (`controlplane` and `init` machines).
    pub control_planes: usize,
    /// Workers checked.
    pub workers: usize,
    /// Inputs that were not checked (see the `cluster-input` findings).
    pub skipped: usize,
    /// The cluster name most nodes hold.
    pub cluster_name: Option<String>,
    /// The control plane endpoint most nodes hold.
    pub endpoint: Option<String>,
    /// The Talos releases of the nodes' installer images, sorted.
    pub releases: Vec<String>,
}

/// What [`check`] found.
#[derive(Clone, Debug)]
pub struct ClusterReport {
    diagnostics: Vec<Diagnostic>,
    summary: Summary,
}

impl ClusterReport {
    /// Every finding: inputs that were not checked, then rule by rule in [`rules`] order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The cluster's shape.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity() == Severity::Error)
    }
}

/// An input the caller could not hand over (a file that cannot be read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The input's name (its path).
    pub file: String,
    /// Why, in the words of the operating system.
    pub reason: String,
}

/// Checks the nodes `load` gives (`load(i)` for `i` in `0..count`, from several threads; an
/// `Err` becomes a `cluster-input` finding). Each node is read once for its digest (a few dozen
/// bytes are kept) and once more only when a finding names it.
pub fn check<F>(count: usize, load: F, options: &ClusterOptions) -> ClusterReport
where
    F: Fn(usize) -> Result<NodeInput, Unreadable> + Sync,
{
    let read = |i: usize| {
        load(i)
            .map_err(|e| read::skipped(&e.file, Severity::Error, &format!("it cannot be read: {}", e.reason)))
            .and_then(|input| read::read(&input, options.release))
    };
    let all: Vec<usize> = (0..count).collect();
    let mut diagnostics = Vec::new();
    let mut digests = Vec::new();
    let mut texts = summary::Texts::default();
    for (i, result) in
        in_parallel(&all, |i| read(i).map(|facts| (digest::Digest::of(&facts), summary::Texts::of(&facts))))
    {
        match result {
            Ok((digest, node_texts)) => {
                digests.push((i, digest));
                texts.extend(node_texts);
            }
            Err(finding) => diagnostics.push(*finding),
        }
    }
    let skipped = diagnostics.len();
    let (originals, only): (Vec<usize>, Vec<digest::Digest>) = digests.into_iter().unzip();
    let specs = rules::run(&only);
    let mut wanted: Vec<usize> = specs.iter().flat_map(rules::Spec::nodes).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let inputs: Vec<usize> = wanted.iter().map(|&k| originals[k]).collect();
    let again: std::collections::HashMap<usize, facts::NodeFacts> = in_parallel(&inputs, |i| read(i).ok())
        .into_iter()
        .zip(&wanted)
        .filter_map(|((_, facts), &k)| Some((k, facts?)))
        .collect();
    diagnostics.extend(specs.iter().filter_map(|spec| render::render(spec, &again)));
    ClusterReport { diagnostics, summary: summary::of(&only, &texts, skipped) }
}

/// `f` of every index, on every core, in index order.
fn in_parallel<T: Send>(indices: &[usize], f: impl Fn(usize) -> T + Sync) -> Vec<(usize, T)> {
    let threads =
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get).clamp(1, indices.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&i) = indices.get(k) else { break mine };
                        mine.push((i, f(i)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out
}

/// [`check`] over nodes already in memory.
pub fn check_nodes(nodes: &[NodeInput], options: &ClusterOptions) -> ClusterReport {
    check(nodes.len(), |i| Ok(nodes[i].clone()), options)
}

/// Every rule a cluster finding can carry, documented, in report order.
pub fn rules() -> &'static [Rule] {
    RULES
}

const RULES: &[Rule] = &[
    Rule {
        id: INPUT_RULE,
        severity: Severity::Error,
        summary: "A file that is not checked with the cluster: it cannot be read, its patches do not apply, it does not load, or it is no node config (a secrets bundle or a talosconfig is an info).",
        why: "One bad file must not hide the rest of the cluster: the other nodes are still checked.",
        example: "secrets.yaml in the configs' folder",
        fix: "Fix the file, or move it out of the folder.",
    },
    Rule {
        id: IDENTITY_RULE,
        severity: Severity::Error,
        summary: "A node holding another cluster identity: cluster id or secret, a CA, the service-account key, a token, the endpoint or the cluster name.",
        why: "A node made from another secrets bundle never joins: trustd, the kubelet and etcd refuse it, or discovery keeps it apart.",
        example: "a worker generated with `talosctl gen config` without --with-secrets",
        fix: "Make every node's config from the cluster's one secrets bundle.",
    },
    Rule {
        id: UNIQUE_RULE,
        severity: Severity::Error,
        summary: "Two nodes with one hostname or one static address.",
        why: "Kubernetes knows a node by its name, the network by its address: two nodes replace each other or collide.",
        example: "machine.network.hostname: node-1 in two files",
        fix: "Give each node its own hostname and addresses.",
    },
    Rule {
        id: ETCD_RULE,
        severity: Severity::Warning,
        summary: "An even number of control planes, or control planes whose etcd settings differ.",
        why: "etcd's quorum is a majority: an even member adds a machine and no tolerance; differing settings make members behave differently.",
        example: "four control planes",
        fix: "Run an odd number of control planes with the same `cluster.etcd`.",
    },
    Rule {
        id: ENDPOINT_RULE,
        severity: Severity::Warning,
        summary: "A node's control plane endpoint that a control plane's API server certificate does not name.",
        why: "Talos puts in the certificate its own endpoint's host, its cert SANs, its hostname and addresses; a node that reaches it by another name fails TLS.",
        example: "workers with https://lb.example.com:6443 and control planes with https://10.5.0.2:6443",
        fix: "Use one endpoint, or add the name to `cluster.apiServer.certSANs`.",
    },
    Rule {
        id: VERSIONS_RULE,
        severity: Severity::Error,
        summary: "Nodes installing different Talos releases (a warning), or a kubelet outside Kubernetes' version skew policy of an API server.",
        why: "A kubelet may not be newer than the API server, nor more than three minor versions older.",
        example: "kubelet v1.36.3 with API server v1.35.4",
        fix: "One release; upgrade the API servers before the kubelets.",
    },
    Rule {
        id: NETWORK_RULE,
        severity: Severity::Error,
        summary: "A node whose pod or service subnets, DNS domain or CNI differ from the cluster's.",
        why: "Pods and services are reached through one network; a node with another one routes its pods nowhere.",
        example: "podSubnets: [10.245.0.0/16] on one node",
        fix: "Give every node the cluster's network settings.",
    },
    Rule {
        id: SECRETS_RULE,
        severity: Severity::Error,
        summary: "A worker holding a CA key or the service-account key.",
        why: "A worker never needs them; whoever reads its config (or the node) can sign for the cluster.",
        example: "cluster.ca.key in worker.yaml",
        fix: "Remove it: `talosctl gen config` leaves it out of worker.yaml.",
    },
];
