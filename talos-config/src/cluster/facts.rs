//! What the cluster rules read of one node: a few small facts taken from its merged config
//! (fingerprints of secrets, not the secrets), each with the input line that wrote it, so that
//! the node's config can be dropped before the next one is read.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use talos_yaml::{Node, NodeValue};

use crate::provenance::Provenance;
use crate::yaml_tree::{get, pem, text};
use crate::{DocumentId, FieldPath, PatchSource, Site};

/// The value Talos's redaction writes: compared as unknown, never as equal.
const REDACTED: &str = "******";

/// A value read from a node: where it is and what it is.
#[derive(Clone, Debug)]
pub(super) struct Fact {
    /// The document and field.
    pub document: DocumentId,
    pub field: FieldPath,
    /// The input line that wrote it.
    pub site: Option<Site>,
    /// The value as text (a fingerprint for a secret).
    pub value: String,
}

/// A node's machine type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    ControlPlane,
    Worker,
}

/// Everything the rules read of one node.
#[derive(Clone, Debug)]
pub(super) struct NodeFacts {
    /// The node's file (its base config).
    pub file: Arc<str>,
    pub role: Role,
    /// The cluster's identity as this node holds it, by identity field.
    pub identity: Vec<(Identity, Fact)>,
    pub hostname: Option<Fact>,
    /// Static addresses (without prefix length).
    pub addresses: Vec<Fact>,
    /// The control plane endpoint's host.
    pub endpoint_host: Option<Fact>,
    /// A control plane's API server certificate names it sets itself (cert SANs).
    pub cert_sans: Vec<String>,
    /// Pod and service subnets, DNS domain, CNI: the network every node must agree on.
    pub network: Vec<(&'static str, Fact)>,
    /// A control plane's etcd settings but its CA, fingerprinted.
    pub etcd: Option<Fact>,
    /// The Talos release of the installer image (`v1.13.9`).
    pub installer: Option<Fact>,
    /// The kubelet's and (control planes) the API server's Kubernetes versions.
    pub kubelet: Option<Fact>,
    pub api_server: Option<Fact>,
    /// Keys a worker must not hold.
    pub worker_secrets: Vec<Fact>,
}

/// Reads one node's facts from its inputs and merged bytes.
pub(super) struct Reader<'a> {
    roots: &'a [Node],
    trace: Provenance,
}

impl<'a> Reader<'a> {
    pub(super) fn new(roots: &'a [Node], base: &PatchSource, patches: &[PatchSource]) -> Reader<'a> {
        Reader { roots, trace: Provenance::trace(base, patches) }
    }

    /// The document of `kind` (`v1alpha1` for the legacy one).
    pub(super) fn document(&self, kind: &str) -> Option<&'a Node> {
        self.roots.iter().find(|root| crate::provenance::document_id(root).kind() == kind)
    }

    /// The scalar at `path` of the first document of `kind` that has it, as a fact.
    pub(super) fn scalar(&self, kind: &str, path: &str) -> Option<Fact> {
        let keys: Vec<&str> = path.split('.').collect();
        let value = text(self.document(kind)?, &keys)?.to_string();
        (!value.is_empty() && value != REDACTED).then(|| self.fact(kind, path, value))
    }

    /// The secret at `path` (a v1alpha1 base64 PEM, or a document's PEM text) as a fingerprint.
    pub(super) fn secret(&self, kind: &str, path: &str) -> Option<Fact> {
        let keys: Vec<&str> = path.split('.').collect();
        let doc = self.document(kind)?;
        let raw = text(doc, &keys)?;
        if raw.is_empty() || raw == REDACTED {
            return None;
        }
        let pem_text =
            if kind == "v1alpha1" { pem(doc, &keys).unwrap_or_else(|| raw.to_string()) } else { raw.to_string() };
        Some(self.fact(kind, path, fingerprint(pem_text.trim())))
    }

    /// The node at `path` of the document of `kind`.
    pub(super) fn node(&self, kind: &str, path: &str) -> Option<&'a Node> {
        let keys: Vec<&str> = path.split('.').collect();
        get(self.document(kind)?, &keys)
    }

    /// A fact at `path` of `kind` with `value`.
    pub(super) fn fact(&self, kind: &str, path: &str, value: String) -> Fact {
        let document = self.document_id(kind);
        let field = FieldPath::parse(path);
        let site = self.trace.locate(&document, &field).map(|l| l.site);
        Fact { document, field, site, value }
    }

    fn document_id(&self, kind: &str) -> DocumentId {
        self.document(kind).map_or_else(|| DocumentId::new(kind, None), crate::provenance::document_id)
    }

    /// Every document of `kind`.
    pub(super) fn documents(&self, kind: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.roots.iter().filter(move |root| crate::provenance::document_id(root).kind() == kind)
    }

    /// The fact for a value found at `path` of a given document root.
    pub(super) fn fact_in(&self, root: &Node, path: FieldPath, value: String) -> Fact {
        let document = crate::provenance::document_id(root);
        let site = self.trace.locate(&document, &path).map(|l| l.site);
        Fact { document, field: path, site, value }
    }
}

/// A secret's fingerprint: enough to tell two values apart, nothing to recover one from.
pub(super) fn fingerprint(value: &str) -> String {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The items of a sequence node as text (scalars only).
pub(super) fn strings(node: Option<&Node>) -> Vec<String> {
    match node.map(|n| &n.value) {
        Some(NodeValue::Sequence(items, _)) => {
            items.iter().filter_map(|i| i.as_scalar()).map(|s| s.text.clone()).collect()
        }
        _ => Vec::new(),
    }
}

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
    pub(super) fn label(self) -> &'static str {
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
    pub(super) fn control_plane_only(self) -> bool {
        matches!(self, Identity::AggregatorCa | Identity::ServiceAccountKey | Identity::EtcdCa)
    }

    /// What goes wrong when one node holds another value.
    pub(super) fn consequence(self) -> &'static str {
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
