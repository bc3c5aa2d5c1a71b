//! `talos_config::cluster`: a consistent three-node cluster (one control plane, two workers,
//! made by `gen config` from one secrets bundle, each with its own hostname and address) is
//! clean; each rule fires on one change to it, with the node's file and line; inputs that are
//! not node configs are named and the rest still checked.

use std::fmt::Write as _;
use std::path::Path;

use talos_config::cluster::{ClusterOptions, ClusterReport, NodeInput, Unreadable, check, check_nodes};
use talos_config::{PatchSource, Release};

fn data(name: &str) -> PatchSource {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/cluster").join(name);
    PatchSource::new(name, std::fs::read(path).unwrap())
}

fn node(name: &str) -> NodeInput {
    NodeInput::new(data(name))
}

/// A node with one patch, named `patch.yaml` in findings.
fn patched(name: &str, patch: &str) -> NodeInput {
    NodeInput { name: None, base: data(name), patches: vec![PatchSource::new("patch.yaml", patch)] }
}

fn good() -> Vec<NodeInput> {
    vec![node("cp-1.yaml"), node("worker-1.yaml"), node("worker-2.yaml")]
}

/// Every finding with its field and fix.
fn listing(report: &ClusterReport) -> String {
    let mut out = String::new();
    for d in report.diagnostics() {
        writeln!(out, "{d}").unwrap();
        if let (Some(doc), Some(field)) = (d.document(), d.field()) {
            writeln!(out, "  field: {doc}: {field}").unwrap();
        }
        if let Some(fix) = d.fix() {
            writeln!(out, "  fix: {fix}").unwrap();
        }
    }
    out
}

fn run(nodes: &[NodeInput]) -> String {
    listing(&check_nodes(nodes, &ClusterOptions::default()))
}

#[test]
fn a_consistent_cluster_is_clean() {
    let report = check_nodes(&good(), &ClusterOptions::default());
    assert_eq!(listing(&report), "");
    let s = report.summary();
    assert_eq!((s.control_planes, s.workers, s.skipped), (1, 2, 0));
    assert_eq!((s.cluster_name.as_deref(), s.endpoint.as_deref()), (Some("demo"), Some("https://10.5.0.10:6443")));
    assert_eq!(s.releases, ["v1.13.9"]);
    assert!(!report.has_errors());
}

#[test]
fn a_worker_from_another_secrets_bundle() {
    let mut nodes = good();
    nodes.push(node("worker-other-bundle.yaml"));
    insta::assert_snapshot!(run(&nodes));
}

#[test]
fn two_nodes_with_one_hostname_or_address() {
    let mut nodes = good();
    nodes[2] = patched(
        "worker-2.yaml",
        "machine:\n  network:\n    hostname: worker-1\n    interfaces:\n      - interface: eth0\n        addresses:\n          - 10.5.0.21/24\n",
    );
    insta::assert_snapshot!(run(&nodes));
}

#[test]
fn etcd_quorum_and_settings() {
    assert_eq!(run(&[node("cp-1.yaml"), node("cp-2.yaml"), node("cp-3.yaml")]), "");
    insta::assert_snapshot!("etcd_two_members", run(&[node("cp-1.yaml"), node("cp-2.yaml")]));
    let etcd = "cluster:\n  etcd:\n    extraArgs:\n      election-timeout: \"5000\"\n";
    let nodes = [node("cp-1.yaml"), patched("cp-2.yaml", etcd), node("cp-3.yaml")];
    insta::assert_snapshot!("etcd_settings", run(&nodes));
}

#[test]
fn an_endpoint_the_control_plane_certificate_does_not_name() {
    let lb = "cluster:\n  controlPlane:\n    endpoint: https://lb.example.com:6443\n";
    let mut nodes = good();
    nodes[1] = patched("worker-1.yaml", lb);
    insta::assert_snapshot!(run(&nodes));
    // Every node on the load balancer's name: the control plane's certificate carries its own
    // endpoint's host.
    let all: Vec<NodeInput> = ["cp-1.yaml", "worker-1.yaml", "worker-2.yaml"].iter().map(|n| patched(n, lb)).collect();
    assert_eq!(run(&all), "");
}

#[test]
fn release_and_kubelet_skew() {
    let mut nodes = good();
    nodes[1] = patched("worker-1.yaml", "machine:\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.32.0\n");
    nodes[2] = patched(
        "worker-2.yaml",
        "machine:\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.37.0\n  install:\n    image: ghcr.io/siderolabs/installer:v1.12.11\n",
    );
    insta::assert_snapshot!(run(&nodes));
}

#[test]
fn a_node_on_another_network() {
    let mut nodes = good();
    nodes[2] = patched("worker-2.yaml", "cluster:\n  network:\n    podSubnets:\n      - 10.245.0.0/16\n");
    insta::assert_snapshot!(run(&nodes));
}

/// A worker with the Kubernetes CA's key; a redacted token is unknown, not different.
#[test]
fn control_plane_secrets_on_a_worker() {
    let key = "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUJhc2U2NC1vZi1hLXRocm93YXdheS1rZXkKLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo=";
    let mut nodes = good();
    nodes[1] = patched("worker-1.yaml", "machine:\n  token: '******'\n");
    nodes[2] = patched("worker-2.yaml", &format!("cluster:\n  ca:\n    key: {key}\n"));
    insta::assert_snapshot!(run(&nodes));
}

/// Inputs that are not checked: named, the rest checked.
#[test]
fn inputs_that_are_not_node_configs() {
    let inputs = [
        Err(Unreadable { file: "gone.yaml".into(), reason: "open gone.yaml: no such file or directory".into() }),
        Ok(node("secrets.yaml")),
        Ok(NodeInput::new(PatchSource::new("talosconfig.yaml", "context: demo\ncontexts:\n  demo: {}\n"))),
        Ok(NodeInput::new(PatchSource::new("patch.yaml", "machine:\n  nodeLabels:\n    a: b\n"))),
        Ok(NodeInput::new(PatchSource::new("typo.yaml", "version: v1alpha1\nmachine:\n  type: worker\n  tokn: x\n"))),
        Ok(patched("worker-1.yaml", "machine: [\n")),
        Ok(node("cp-1.yaml")),
        Ok(node("worker-2.yaml")),
    ];
    let report = check(inputs.len(), |i| inputs[i].clone(), &ClusterOptions::default());
    insta::assert_snapshot!(listing(&report));
    let s = report.summary();
    assert_eq!((s.control_planes, s.workers, s.skipped), (1, 1, 6));
}

/// A worker whose identity is in Talos v1.14's documents (made by `gen config` v1.14 from the
/// same bundle, for another cluster name and endpoint): its CAs and tokens are the cluster's.
#[test]
fn identity_read_from_v1_14_documents() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/upgrade/gen/contract-v1.14-worker.yaml");
    let v14 = NodeInput::new(PatchSource::new("v1.14-worker.yaml", std::fs::read(path).unwrap()));
    let mut nodes = good();
    nodes.push(v14);
    let report = check_nodes(&nodes, &ClusterOptions::new(Release::V1_14_0_RC1));
    insta::assert_snapshot!(listing(&report));
}
