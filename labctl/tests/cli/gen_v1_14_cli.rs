//! `labctl gen --talos-release v1.14.0-rc.1` against talosctl v1.14.0-rc.1's own `gen config` /
//! `gen secrets`, recorded case by case in `data/gen-v1.14/cases` (the layout of `data/gen`, see
//! its README): cases 001-125 are `data/gen`'s, recorded again with v1.14.0-rc.1; 126-153 are
//! v1.14's: the v1.14 contract's documents with docs on and off, `--skip-k8s-etcd`, the
//! Kubernetes version required, contracts v0.0 and v1.15, KubeSpan and discovery, patches with
//! the new kinds (a custom CNI, the kubelet, node and KubePrism, the resolver, trim, the
//! unattended install), bundles checked against the contract, `--from-controlplane-config` on a
//! v1.14 control plane. The differences on purpose are `gen_cli.rs`'s (0600 files, nothing
//! written when a file exists, no documentation comments, labctl naming itself, our usage block
//! and help, fresh talosconfig keys), and two where talosctl v1.14 crashes
//! (a nil dereference): `--skip-k8s-etcd` with a bundle without `secrets` (labctl writes the
//! configs, with no bootstrap token) and `--from-controlplane-config` on a worker (labctl says
//! what is missing). The release is named in each of its forms (`--talos-release v1.14.0-rc.1`,
//! `--talos-release=v1.14` after the subcommand, `--talos-release 1.14.0-rc.1` at the end).

use talos_config::Release;

use crate::gen_cases::{Different, Run, Suite, labctl_gen as labctl, words};

/// Where talosctl v1.14 crashes (above), what labctl does instead: (case, exit, stderr).
const DIFFERENT: &[Different] = &[
    (
        "147-config-secrets-no-k8s-skip-k8s-etcd",
        0,
        "generating PKI and tokens\nCreated out/controlplane.yaml\nCreated out/worker.yaml\n",
    ),
    (
        "149-err-secrets-from-worker-v1.14",
        1,
        "labctl gen secrets: w.yaml has no Kubernetes aggregator CA (neither a KubeAggregatorCAConfig document \
         nor .cluster.aggregatorCA): it is not a control-plane config\ngive the controlplane.yaml that gen config \
         wrote\n",
    ),
];

const SUITE: Suite = Suite {
    data: "gen-v1.14",
    release: Release::V1_14_0_RC1,
    forms: Some(["v1.14.0-rc.1", "v1.14", "1.14.0-rc.1"]),
    also_different: DIFFERENT,
};

/// Where talosctl crashes on a bundle without `secrets`, the configs have no bootstrap token.
fn no_bootstrap_token(name: &str, run: &Run) -> Vec<String> {
    if !name.starts_with("147") {
        return Vec::new();
    }
    let config = run.files.get("out/worker.yaml").and_then(|f| f.1.clone()).unwrap_or_default();
    let text = String::from_utf8_lossy(&config);
    let cluster = text.lines().find(|l| l.starts_with("cluster:")).unwrap_or_default();
    if cluster == "cluster: {}" { Vec::new() } else { vec![format!("{name}: worker: {cluster}")] }
}

#[test]
fn labctl_gen_matches_talosctl_v1_14_case_by_case() {
    SUITE.check_all(153, no_bootstrap_token);
}

/// `TAG` picks the tag of v1.14's default installer, the Image Factory's metal installer.
#[test]
fn the_tag_variable_and_the_v1_14_default_installer_image() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(SUITE.data_dir().join("secrets.yaml"), dir.path().join("s.yaml")).unwrap();
    let args =
        words(&["config", "--talos-release", "v1.14", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-"]);
    let args = [args, words(&["--with-secrets", "s.yaml"])].concat();
    let factory = "factory.talos.dev/metal-installer/376567988ad370138ad8b2698212367b8edcb69b5fd68c80be1f2ec7d603b4ba";
    for (tag, want) in [(Some("v9.9.9"), format!("{factory}:v9.9.9")), (None, format!("{factory}:v1.14.0-rc.1"))] {
        let stdout = String::from_utf8(labctl(&args, dir.path(), tag).stdout).unwrap();
        let line = stdout.lines().find(|l| l.contains("metal-installer")).unwrap_or_default();
        assert_eq!(line, format!("    image: {want}"), "TAG={tag:?}");
    }
}

/// `--skip-k8s-etcd` is v1.14's (hidden, as in talosctl); v1.13.9 does not know it. The help
/// gives v1.14's defaults.
#[test]
fn skip_k8s_etcd_is_v1_14s_and_the_help_has_its_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let base = words(&["config", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-", "--skip-k8s-etcd"]);
    let out = labctl(&base, dir.path(), None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.split("\n\nUsage:").next(), Some("unknown flag: --skip-k8s-etcd"));
    let out = labctl(&words(&["config", "--talos-release", "v1.14", "--help"]), dir.path(), None);
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("(default \"1.37.0-rc.0\")") && !help.contains("skip-k8s-etcd"), "{help}");
    assert!(help.contains("factory.talos.dev/metal-installer/"), "{help}");
}
