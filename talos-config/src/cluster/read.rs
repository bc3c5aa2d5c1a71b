//! One node's facts: its inputs merged as its release merges them, checked to be a machine
//! config, and the values the cluster rules compare taken out of it.

use talos_yaml::Node;

use super::facts::{Fact, Identity, NodeFacts, Reader, Role, fingerprint, strings};
use super::{INPUT_RULE, NodeInput};
use crate::{Config, Diagnostic, FieldPath, Release, Severity, Site};

/// Where each identity field is: the v1alpha1 path, then the v1.14 document and path.
const IDENTITY: &[(Identity, &str, &str, &str)] = &[
    (Identity::ClusterId, "cluster.id", "DiscoveryIdentityConfig", "clusterID"),
    (Identity::ClusterSecret, "cluster.secret", "DiscoveryIdentityConfig", "clusterSecret"),
    (Identity::TalosCa, "machine.ca.crt", "", ""),
    (Identity::KubernetesCa, "cluster.ca.crt", "KubeAPIServerCAConfig", "issuingCA.cert"),
    (Identity::AggregatorCa, "cluster.aggregatorCA.crt", "KubeAggregatorCAConfig", "issuingCA.cert"),
    (Identity::ServiceAccountKey, "cluster.serviceAccount.key", "KubeServiceAccountConfig", "issuer.privateKey"),
    (Identity::EtcdCa, "cluster.etcd.ca.crt", "", ""),
    (Identity::BootstrapToken, "cluster.token", "", ""),
    (Identity::MachineToken, "machine.token", "", ""),
    (Identity::Endpoint, "cluster.controlPlane.endpoint", "KubeClusterConfig", "endpoint"),
    (Identity::ClusterName, "cluster.clusterName", "KubeClusterConfig", "clusterName"),
];

/// The node's facts, or the finding that says why it is not checked (the input does not merge,
/// is not a machine config, or does not load).
pub(super) fn read(input: &NodeInput, release: Release) -> Result<NodeFacts, Box<Diagnostic>> {
    let file = input.name.clone().unwrap_or_else(|| input.base.name.clone());
    let merged = match input.patches.is_empty() {
        true => input.base.bytes.clone(),
        false => crate::merge_sources_for(&input.base, &input.patches, release)
            .map_err(|e| skipped(&file, Severity::Error, &format!("its patches do not apply: {e}")))?,
    };
    let roots = talos_yaml::parse::parse_documents(&merged)
        .map_err(|e| skipped(&file, Severity::Error, &format!("it is not YAML Talos reads: {e}")))?;
    if !roots.iter().any(|r| crate::provenance::document_id(r).is_legacy() && r.get("version").is_some()) {
        return Err(not_a_config(&file, &roots));
    }
    if let Err(e) = Config::from_bytes_for(&merged, release) {
        return Err(skipped(&file, Severity::Error, &format!("Talos {release} does not load it: {e}")));
    }
    let reader = Reader::new(&roots, &input.base, &input.patches);
    Ok(facts(&reader, file.as_str().into()))
}

/// A file of the folder that is no machine config: a secrets bundle or a talosconfig is
/// expected beside the configs (skipped, an info); anything else is a warning.
fn not_a_config(file: &str, roots: &[Node]) -> Box<Diagnostic> {
    let root = roots.first();
    let has = |key: &str| root.is_some_and(|r| r.get(key).is_some());
    if has("certs") && has("secrets") {
        skipped(file, Severity::Info, "it is a secrets bundle (`talosctl gen secrets`), not a node's config")
    } else if has("contexts") || has("context") {
        skipped(file, Severity::Info, "it is a talosconfig, not a node's config")
    } else {
        skipped(
            file,
            Severity::Warning,
            "it is not a Talos machine config (it has no `version: v1alpha1` document); a patch goes with its node's config in a manifest (`labctl cluster check --manifest`)",
        )
    }
}

/// The finding for a node that is not checked.
pub(super) fn skipped(file: &str, severity: Severity, why: &str) -> Box<Diagnostic> {
    let site = Site { input: file.into(), line: 1, column: 1 };
    let finding = Diagnostic::new(INPUT_RULE, severity, format!("{file} is not checked with the cluster: {why}"))
        .with_site(Some(site))
        .with_fix("fix the file, or move it out of the cluster's folder; the other nodes were checked");
    Box::new(finding)
}

fn facts(r: &Reader, file: std::sync::Arc<str>) -> NodeFacts {
    let machine_type = r.scalar("v1alpha1", "machine.type").map(|f| f.value);
    let role = match machine_type.as_deref() {
        Some("controlplane" | "init") => Role::ControlPlane,
        _ => Role::Worker,
    };
    let identity = IDENTITY
        .iter()
        .filter_map(|&(id, legacy, kind, path)| {
            let read = |k: &str, p: &str| if id.is_secret() { r.secret(k, p) } else { r.scalar(k, p) };
            let found = read("v1alpha1", legacy).or_else(|| (!kind.is_empty()).then(|| read(kind, path)).flatten());
            let found = found.or_else(|| (id == Identity::KubernetesCa).then(|| accepted_ca(r)).flatten());
            found.map(|f| (id, f))
        })
        .collect();
    NodeFacts {
        file,
        role,
        identity,
        hostname: r.scalar("v1alpha1", "machine.network.hostname").or_else(|| r.scalar("HostnameConfig", "hostname")),
        addresses: addresses(r),
        endpoint_host: endpoint_host(r),
        cert_sans: cert_sans(r),
        network: network(r),
        etcd: etcd(r, role),
        installer: installer(r),
        kubelet: image_version(r, "machine.kubelet.image", "KubeletConfig"),
        api_server: (role == Role::ControlPlane)
            .then(|| image_version(r, "cluster.apiServer.image", "KubeAPIServerConfig"))
            .flatten(),
        worker_secrets: if role == Role::Worker { worker_secrets(r) } else { Vec::new() },
    }
}

/// A worker's Kubernetes CA in a v1.14 document: the first accepted CA.
fn accepted_ca(r: &Reader) -> Option<Fact> {
    let doc = r.document("KubeAPIServerCAConfig")?;
    let first = doc.get("acceptedCAs")?.as_sequence()?.first()?.as_scalar()?;
    Some(r.fact_in(doc, FieldPath::parse("acceptedCAs[0]"), fingerprint(first.text.trim())))
}

/// The node's static addresses (v1alpha1 interfaces, and the `addresses` of network documents),
/// without their prefix length.
fn addresses(r: &Reader) -> Vec<Fact> {
    let mut out = Vec::new();
    if let Some(interfaces) = r.node("v1alpha1", "machine.network.interfaces").and_then(Node::as_sequence) {
        for (i, interface) in interfaces.iter().enumerate() {
            for (j, address) in strings(interface.get("addresses")).into_iter().enumerate() {
                let path = format!("machine.network.interfaces[{i}].addresses[{j}]");
                out.push(r.fact("v1alpha1", &path, strip_prefix(&address)));
            }
        }
    }
    for kind in ["LinkConfig", "BondConfig", "BridgeConfig", "VLANConfig", "DummyLinkConfig"] {
        for doc in r.documents(kind) {
            let items = doc.get("addresses").and_then(Node::as_sequence).unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if let Some(address) = item.get("address").and_then(Node::as_scalar) {
                    let path = FieldPath::parse(&format!("addresses[{i}].address"));
                    out.push(r.fact_in(doc, path, strip_prefix(&address.text)));
                }
            }
        }
    }
    out
}

fn strip_prefix(address: &str) -> String {
    address.split('/').next().unwrap_or(address).to_string()
}

/// The control plane endpoint's host (`https://[::1]:6443` gives `::1`).
fn endpoint_host(r: &Reader) -> Option<Fact> {
    let found =
        r.scalar("v1alpha1", "cluster.controlPlane.endpoint").or_else(|| r.scalar("KubeClusterConfig", "endpoint"))?;
    let rest = found.value.split_once("://").map_or(found.value.as_str(), |(_, rest)| rest);
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6).to_string(),
        None => authority.rsplit_once(':').map_or(authority, |(host, _)| host).to_string(),
    };
    Some(Fact { value: host, ..found })
}

/// The names a control plane puts in its API server certificate from its config.
fn cert_sans(r: &Reader) -> Vec<String> {
    let mut out = strings(r.node("v1alpha1", "cluster.apiServer.certSANs"));
    out.extend(strings(r.node("KubeAPIServerConfig", "certExtraSANs")));
    out
}

fn network(r: &Reader) -> Vec<(&'static str, Fact)> {
    let joined = |kind: &str, path: &str| {
        let items = strings(r.node(kind, path));
        (!items.is_empty()).then(|| r.fact(kind, path, items.join(",")))
    };
    let mut out = Vec::new();
    let pick = |legacy: Option<Fact>, new: Option<Fact>| legacy.or(new);
    let fields: [(&str, Option<Fact>); 4] = [
        (
            "pod subnets",
            pick(joined("v1alpha1", "cluster.network.podSubnets"), joined("KubeNetworkConfig", "podSubnets")),
        ),
        (
            "service subnets",
            pick(joined("v1alpha1", "cluster.network.serviceSubnets"), joined("KubeNetworkConfig", "serviceSubnets")),
        ),
        (
            "DNS domain",
            pick(r.scalar("v1alpha1", "cluster.network.dnsDomain"), r.scalar("KubeNetworkConfig", "dnsDomain")),
        ),
        ("CNI", r.scalar("v1alpha1", "cluster.network.cni.name")),
    ];
    for (name, fact) in fields {
        if let Some(fact) = fact {
            out.push((name, fact));
        }
    }
    out
}

/// A control plane's etcd settings but its CA (image, arguments, subnets), fingerprinted.
fn etcd(r: &Reader, role: Role) -> Option<Fact> {
    if role != Role::ControlPlane {
        return None;
    }
    let node = r.node("v1alpha1", "cluster.etcd")?;
    let mut settings = node.clone();
    if let talos_yaml::NodeValue::Mapping(entries, _) = &mut settings.value {
        entries.retain(|(k, _)| k.as_scalar().is_some_and(|s| s.text != "ca"));
    }
    let text = talos_yaml::emit_v4::emit_v4(&settings);
    Some(r.fact("v1alpha1", "cluster.etcd", fingerprint(&text)))
}

/// The Talos release of the installer image (its tag), from v1alpha1 or UnattendedInstallConfig.
fn installer(r: &Reader) -> Option<Fact> {
    let image = r
        .scalar("v1alpha1", "machine.install.image")
        .or_else(|| r.scalar("UnattendedInstallConfig", "installer.image"))?;
    let tag = image.value.rsplit_once(':').map(|(_, tag)| tag.to_string())?;
    tag.starts_with('v').then_some(Fact { value: tag, ..image })
}

/// The Kubernetes version of a component's image tag (`v1.36.3`).
fn image_version(r: &Reader, legacy: &str, kind: &str) -> Option<Fact> {
    let image = r.scalar("v1alpha1", legacy).or_else(|| r.scalar(kind, "image"))?;
    let tag = image.value.rsplit_once(':').map(|(_, tag)| tag.to_string())?;
    tag.starts_with('v').then_some(Fact { value: tag, ..image })
}

/// The CA and service-account keys a worker holds (it must hold none).
fn worker_secrets(r: &Reader) -> Vec<Fact> {
    let paths = [
        ("v1alpha1", "cluster.ca.key"),
        ("v1alpha1", "cluster.etcd.ca.key"),
        ("v1alpha1", "cluster.serviceAccount.key"),
        ("v1alpha1", "cluster.aggregatorCA.key"),
        ("KubeAPIServerCAConfig", "issuingCA.key"),
        ("KubeServiceAccountConfig", "issuer.privateKey"),
        ("KubeAggregatorCAConfig", "issuingCA.key"),
    ];
    paths.iter().filter_map(|(kind, path)| r.secret(kind, path)).collect()
}
