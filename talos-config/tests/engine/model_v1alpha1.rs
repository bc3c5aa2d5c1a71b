//! The legacy `v1alpha1` document: byte-for-byte round trips of the upstream stability testdata
//! and the lab fixtures, and merge rules of its custom types.

use std::path::{Path, PathBuf};

use talos_config::model::v1alpha1::{
    ArgValue, Args, Config, Endpoint, InstallDiskSizeMatcher, NetworkDeviceList, PEMEncodedCertificateAndKey,
};
use talos_config::testing::Hooks;
use talos_config::testing::lookup;
use talos_config::testing::roundtrip;
use talos_config::testing::{DecodeCx, Value, merge_values};
use talos_config::{PatchSource, apply_patches, load_patches};
use talos_yaml::emit_v4::emit_v4;
use talos_yaml::parse::parse_documents;

/// Missing external data: a loud message locally, a failure in CI.
fn missing(what: &str) {
    let msg = format!("!!!!! SKIPPED: {what} !!!!!");
    eprintln!("{msg}");
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{msg} (required when CI=true)");
    }
}

use crate::common;

fn peer_dir() -> Option<PathBuf> {
    common::peer_dir()
}

/// The lab fixtures: `fixtures/` of the repository once copied there, else `TALOS_FIXTURES_DIR`.
fn fixtures_dir() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    if repo.join("controlplane.yaml").is_file() {
        return Some(repo);
    }
    std::env::var_os("TALOS_FIXTURES_DIR").map(PathBuf::from)
}

/// Round-trips `text`; documents of kinds not registered yet are skipped (said on stderr) and
/// the comparison is then limited to the registered documents.
fn check_roundtrip(name: &str, text: &str) {
    let docs = split_documents(text);
    let unregistered: Vec<String> = docs.iter().filter_map(|d| doc_kind(d)).filter(|k| lookup(k).is_none()).collect();
    if unregistered.is_empty() {
        let out = roundtrip(text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(out, text, "{name}: round trip differs");
        return;
    }
    eprintln!("{name}: NOTE: skipping documents of unregistered kinds {unregistered:?}");
    for doc in docs {
        if doc_kind(&doc).is_some_and(|k| lookup(&k).is_none()) {
            continue;
        }
        let out = roundtrip(doc.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(out, doc, "{name}: round trip differs");
    }
}

/// Splits a stream at `---` lines (the test files have no other document markers).
fn split_documents(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line == "---\n" {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            last.push_str(line);
        }
    }
    out
}

fn doc_kind(doc: &str) -> Option<String> {
    doc.lines().find_map(|l| l.strip_prefix("kind: ").map(|k| k.trim().to_string()))
}

#[test]
fn stability_testdata_roundtrips() {
    let Some(dir) = peer_dir() else {
        missing("TALOS_PEER_DIR is not set; the upstream stability testdata was not checked");
        return;
    };
    let base = dir.join("types/v1alpha1/testdata/stability");
    let mut files = Vec::new();
    for version in std::fs::read_dir(&base).unwrap_or_else(|e| panic!("{}: {e}", base.display())) {
        let version = version.expect("dir entry").path();
        let is_version = version.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("v1."));
        if !version.is_dir() || !is_version {
            continue;
        }
        for f in std::fs::read_dir(&version).expect("read version dir") {
            let f = f.expect("dir entry").path();
            if f.extension().is_some_and(|e| e == "yaml") {
                files.push(f);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 44, "expected the stability files, found {}", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        check_roundtrip(&f.display().to_string(), &text);
    }
    eprintln!("checked {} stability files", files.len());
}

#[test]
fn lab_fixtures_roundtrip() {
    let Some(dir) = fixtures_dir() else {
        missing("fixtures/ is empty and TALOS_FIXTURES_DIR is not set; the lab fixtures were not checked");
        return;
    };
    for name in ["controlplane.yaml", "worker.yaml"] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check_roundtrip(name, &text);
    }
}

// ---------------------------------------------------------------------------------------------
// Decode / encode / merge helpers

fn decode_config(text: &str) -> Result<Config, String> {
    let roots = parse_documents(text.as_bytes()).map_err(|e| e.to_string())?;
    let root = roots.first().ok_or("no document")?;
    let mut cx = DecodeCx::new();
    let cfg = Config::decode(root, &mut cx);
    match cx.into_error() {
        Some(e) => Err(e),
        None => Ok(cfg),
    }
}

fn encode(cfg: &Config) -> String {
    emit_v4(&Hooks::encode(cfg))
}

/// `merge.Merge(left, right)` of two legacy documents.
fn merge(left: &str, right: &str) -> Result<String, String> {
    let mut l = decode_config(left)?;
    let r = decode_config(right)?;
    l.merge_from(&r)?;
    Ok(encode(&l))
}

/// The whole strategic pipeline (`talosctl machineconfig patch` output bytes).
fn patch(base: &str, p: &str) -> String {
    let patches = load_patches([PatchSource::new("p.yaml", p)]).expect("load patch");
    let out = apply_patches(base.as_bytes(), &patches).expect("apply patch");
    String::from_utf8(out).expect("utf-8")
}

const W1_BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n";

#[test]
fn w1_minimal_document_prints_non_omitempty_fields() {
    let cfg = decode_config(W1_BASE).expect("decode");
    assert_eq!(
        encode(&cfg),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster: null\n"
    );
}

#[test]
fn w4_false_through_pointer_overwrites() {
    let out = patch(W1_BASE, "machine: {features: {rbac: false}}");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    features:\n        rbac: false\ncluster: null\n"
    );
    let out = merge(
        "version: v1alpha1\nmachine:\n  type: worker\n  features: {rbac: true, kubePrism: {enabled: true, port: 7445}}\n",
        "machine: {features: {rbac: false, kubePrism: {enabled: false, port: 0}}}\n",
    )
    .expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    features:\n        rbac: false\n        kubePrism:\n            enabled: false\n            port: 7445\ncluster: null\n"
    );
}

#[test]
fn w4_replace_field_cleared_by_empty_list() {
    let out = patch(
        "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  network:\n    podSubnets: [10.244.0.0/16]\n",
        "cluster: {network: {podSubnets: []}}",
    );
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster:\n    controlPlane: null\n    network:\n        dnsDomain: \"\"\n        podSubnets: []\n        serviceSubnets: []\n"
    );
}

#[test]
fn w5_lists_append() {
    let out = patch("version: v1alpha1\nmachine:\n  type: worker\n  certSANs: [a]\n", "machine: {certSANs: [b, a]}");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs:\n        - a\n        - b\n        - a\ncluster: null\n"
    );
}

#[test]
fn w6_extra_args_per_key_replace() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  kubelet: {extraArgs: {a: \"1\", b: x}}\n";
    let want = "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraArgs:\n            a: \"1\"\n            b:\n                - y\n                - z\ncluster: null\n";
    assert_eq!(patch(base, "machine: {kubelet: {extraArgs: {b: [y, z]}}}"), want);
    assert_eq!(merge(base, "machine: {kubelet: {extraArgs: {b: [y, z]}}}\n").expect("merge"), want);
}

#[test]
fn extra_args_list_replaced_not_appended_and_empty_patch_is_noop() {
    let mut left = Args::default();
    left.0.insert("a".into(), ArgValue::list(["1", "2"]));
    left.0.insert("b".into(), ArgValue::string("x"));
    let mut right = Args::default();
    right.0.insert("a".into(), ArgValue::list(["3"]));
    merge_values(&mut left, &right).expect("merge");
    assert_eq!(left.0["a"], ArgValue::list(["3"]));
    assert_eq!(left.0["b"], ArgValue::string("x"));
    let before = left.clone();
    merge_values(&mut left, &Args::default()).expect("merge");
    assert_eq!(left, before);
    let mut right = Args::default();
    right.0.insert("b".into(), ArgValue::list(["p", "q"]));
    merge_values(&mut left, &right).expect("merge");
    assert_eq!(left.to_map()["b"], vec!["p".to_string(), "q".to_string()]);
}

#[test]
fn arg_values_print_like_upstream() {
    let text = "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs:\n      empty: \"\"\n      list: [\"\", \"on\", \"1\"]\n      none: []\n      word: on\n      num: \"10\"\n";
    let cfg = decode_config(text).expect("decode");
    assert_eq!(
        encode(&cfg),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraArgs:\n            empty: null\n            list:\n                - \"\"\n                - on\n                - \"1\"\n            none: []\n            num: \"10\"\n            word: on\ncluster: null\n"
    );
}

#[test]
fn arg_value_errors_are_construct_errors() {
    let err = decode_config(
        "version: v1alpha1\nmachine:\n  kubelet:\n    extraArgs:\n      a:\n        b: c\n      d: [[x]]\n",
    )
    .expect_err("must fail");
    assert_eq!(
        err,
        "yaml: construct errors:\n  line 6: arg value must be a string or list of strings\n  line 7: arg value must be a string or list of strings"
    );
}

#[test]
fn endpoint_merges_component_by_component() {
    let base = "version: v1alpha1\ncluster:\n  controlPlane:\n    endpoint: https://127.0.0.1:6643/\n";
    let out = merge(base, "cluster:\n  controlPlane:\n    endpoint: https://10.0.0.1\n").expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine: null\ncluster:\n    controlPlane:\n        endpoint: https://10.0.0.1/\n"
    );
    let base = "version: v1alpha1\ncluster:\n  controlPlane:\n    endpoint: https://10.0.0.2:6443\n";
    let out = merge(base, "cluster:\n  controlPlane:\n    endpoint: https://10.0.0.3\n").expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine: null\ncluster:\n    controlPlane:\n        endpoint: https://10.0.0.3\n"
    );

    let mut l = "https://alice@h:1/".parse::<Endpoint>().expect("parse");
    let r = "https://bob@h:2/".parse::<Endpoint>().expect("parse");
    assert_eq!(
        merge_values(&mut l, &r).expect_err("userinfo on both sides"),
        "merge field v1alpha1.Endpoint.URL: merge field url.URL.User: merge field url.Userinfo.username: merge not possible, left alice is not settable"
    );
}

#[test]
fn endpoint_parse_error_is_a_construct_error() {
    let err = decode_config("version: v1alpha1\ncluster:\n  controlPlane:\n    endpoint: https://h:x\n")
        .expect_err("bad port");
    assert_eq!(err, "yaml: construct errors:\n  line 4: parse \"https://h:x\": invalid port \":x\" after host");
}

#[test]
fn network_devices_keyed_merge() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n        addresses: [10.0.0.1/24]\n        vlans:\n          - vlanId: 100\n            addresses: [10.3.4.5]\n      - deviceSelector: {driver: virtio}\n        mtu: 1500\n      - deviceSelector: {driver: e1000, physical: true}\n        mtu: 9000\n";
    let p = "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        addresses: [10.0.0.2/24]\n        dhcp: false\n        vlans:\n          - vlanId: 100\n            addresses: [10.3.4.6]\n          - vlanId: 101\n      - deviceSelector: {driver: virtio}\n        mtu: 1400\n      - deviceSelector: {driver: e1000, physical: true}\n        mtu: 1280\n      - interface: eth1\n";
    let out = merge(base, p).expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    network:\n        interfaces:\n            - interface: eth0\n              addresses:\n                - 10.0.0.1/24\n                - 10.0.0.2/24\n              vlans:\n                - addresses:\n                    - 10.3.4.5\n                    - 10.3.4.6\n                  routes: []\n                  vlanId: 100\n                - routes: []\n                  vlanId: 101\n              dhcp: false\n            - deviceSelector:\n                driver: virtio\n              mtu: 1400\n            - deviceSelector:\n                driver: e1000\n                physical: true\n              mtu: 9000\n            - deviceSelector:\n                driver: e1000\n                physical: true\n              mtu: 1280\n            - interface: eth1\ncluster: null\n"
    );
}

#[test]
fn network_device_list_type_error_names_the_list_type() {
    let err = decode_config("version: v1alpha1\nmachine:\n  network:\n    interfaces:\n      $patch: replace\n")
        .expect_err("map");
    assert_eq!(err, "yaml: construct errors:\n  line 5: cannot construct !!map into v1alpha1.NetworkDeviceList");
    assert_eq!(NetworkDeviceList::go_type(), "v1alpha1.NetworkDeviceList");
}

#[test]
fn admission_plugins_keyed_deep_merge() {
    let base = "version: v1alpha1\ncluster:\n  apiServer:\n    admissionControl:\n      - name: PodSecurity\n        configuration:\n          defaults: {enforce: baseline, audit: restricted}\n          exemptions: {namespaces: [kube-system]}\n";
    let p = "cluster:\n  apiServer:\n    admissionControl:\n      - name: PodSecurity\n        configuration:\n          defaults: {enforce: privileged}\n          exemptions: {namespaces: [rook-system]}\n      - name: Other\n";
    let out = merge(base, p).expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine: null\ncluster:\n    controlPlane: null\n    apiServer:\n        admissionControl:\n            - name: PodSecurity\n              configuration:\n                defaults:\n                    audit: restricted\n                    enforce: privileged\n                exemptions:\n                    namespaces:\n                        - kube-system\n                        - rook-system\n            - name: Other\n              configuration: {}\n"
    );
}

#[test]
fn pem_types_print_both_fields_and_replace_bytes() {
    let out = merge(
        "version: v1alpha1\nmachine:\n  type: worker\n  ca: {crt: YQ==, key: Yg==}\n",
        "machine:\n  ca: {crt: Yw==}\n",
    )
    .expect("merge");
    // The patch's absent `key` decodes to empty (non-nil) bytes, which replace the base key.
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    ca:\n        crt: Yw==\n        key: \"\"\n    certSANs: []\ncluster: null\n"
    );
    let cfg = decode_config("version: v1alpha1\nmachine:\n  ca: {}\n").expect("decode");
    assert_eq!(
        encode(&cfg),
        "version: v1alpha1\nmachine:\n    type: \"\"\n    token: \"\"\n    ca:\n        crt: \"\"\n        key: \"\"\n    certSANs: []\ncluster: null\n"
    );
    let err = decode_config("version: v1alpha1\nmachine:\n  ca:\n    crt: abc\n").expect_err("bad base64");
    assert_eq!(err, "yaml: construct errors:\n  line 4: illegal base64 data at input byte 0");
    assert_eq!(PEMEncodedCertificateAndKey::go_type(), "x509.PEMEncodedCertificateAndKey");
}

#[test]
fn install_disk_size_matcher_merge_fails_like_upstream() {
    let base = "version: v1alpha1\nmachine:\n  install:\n    diskSelector:\n      size: '>= 1TB'\n";
    let out = merge(base, "machine:\n  install:\n    diskSelector:\n      size: '<= 2TB'\n").expect_err("not settable");
    assert_eq!(
        out,
        "merge field v1alpha1.Config.MachineConfig: merge field v1alpha1.MachineConfig.MachineInstall: merge field v1alpha1.InstallConfig.InstallDiskSelector: merge field v1alpha1.InstallDiskSelector.Size: merge field v1alpha1.InstallDiskSizeMatcher.condition: merge not possible, left >= 1TB is not settable"
    );
    let out = merge(base, "machine:\n  install:\n    diskSelector:\n      model: WDC*\n").expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: \"\"\n    token: \"\"\n    certSANs: []\n    install:\n        diskSelector:\n            size: '>= 1TB'\n            model: WDC*\n        wipe: null\ncluster: null\n"
    );
    assert_eq!("4GB".parse::<InstallDiskSizeMatcher>().expect("parse").size, 4_000_000_000);
}

#[test]
fn inline_manifest_contents_lose_leading_whitespace_controls() {
    let cfg = decode_config(
        "version: v1alpha1\ncluster:\n  inlineManifests:\n    - name: m\n      contents: \"\\n\\t\\r kind: A\\n\"\n",
    )
    .expect("decode");
    let contents = cfg.cluster.as_ref().map(|c| c.inline_manifests.0[0].contents.clone());
    assert_eq!(contents.as_deref(), Some(" kind: A\n"));
}

#[test]
fn discovery_registries_print_empty_structs() {
    let cfg = decode_config("version: v1alpha1\ncluster:\n  discovery:\n    enabled: true\n").expect("decode");
    assert_eq!(
        encode(&cfg),
        "version: v1alpha1\nmachine: null\ncluster:\n    controlPlane: null\n    discovery:\n        enabled: true\n        registries:\n            kubernetes: {}\n            service: {}\n"
    );
}

#[test]
fn audit_policy_is_replaced_and_empty_patch_is_noop() {
    let base = "version: v1alpha1\ncluster:\n  apiServer:\n    auditPolicy:\n      kind: Policy\n      rules: [{level: Metadata}]\n";
    let out = merge(base, "cluster:\n  apiServer:\n    auditPolicy: {rules: [{level: None}]}\n").expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine: null\ncluster:\n    controlPlane: null\n    apiServer:\n        auditPolicy:\n            rules:\n                - level: None\n"
    );
    let out = merge(base, "cluster:\n  apiServer:\n    auditPolicy: {}\n").expect("merge");
    assert_eq!(
        out,
        "version: v1alpha1\nmachine: null\ncluster:\n    controlPlane: null\n    apiServer:\n        auditPolicy:\n            kind: Policy\n            rules:\n                - level: Metadata\n"
    );
}

#[test]
fn unknown_keys_are_reported() {
    let text = "version: v1alpha1\nmachine:\n  foo: bar\n  ca: {crt: '', extra: 1}\n";
    let root = parse_documents(text.as_bytes()).expect("parse").remove(0);
    let entry = lookup("v1alpha1").expect("registered");
    let unknown = (entry.unknown_keys)(&root).expect("check").expect("some unknown keys");
    assert_eq!(emit_v4(&unknown), "machine:\n    ca:\n        extra: 1\n    foo: bar\n");
}

#[test]
fn deletes_reach_args_keys_and_keyed_list_elements() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs: {a: \"1\", b: x}\n  network:\n    interfaces:\n      - interface: eth0\n        dhcp: true\n      - interface: eth1\n        dhcp: true\n";
    let out = patch(
        base,
        "machine:\n  kubelet:\n    extraArgs:\n      a:\n        $patch: delete\n  network:\n    interfaces:\n      - interface: eth0\n        $patch: delete\n",
    );
    assert_eq!(
        out,
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraArgs:\n            b: x\n    network:\n        interfaces:\n            - interface: eth1\n              dhcp: true\ncluster: null\n"
    );
    let patches = load_patches([PatchSource::new(
        "p.yaml",
        "machine:\n  network:\n    interfaces:\n      - interface: eth9\n        $patch: delete\n",
    )])
    .expect("load");
    let err = apply_patches(base.as_bytes(), &patches).expect_err("missing element");
    assert_eq!(
        err.to_string(),
        "patch delete: path 'machine.network.interfaces.[0]' in document '/v1alpha1': failed to delete path 'machine.network.interfaces.[0]': lookup failed"
    );
}

#[test]
fn custom_scalars_round_trip() {
    let text = "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    disks:\n        - device: /dev/sdb\n          partitions:\n            - size: 100 MB\n              mountpoint: /var/mnt/a\n            - size: 1073741824\n    files:\n        - content: x\n          permissions: 0o644\n          path: /var/f\n          op: create\n        - content: \"\"\n          permissions: 0o0\n          path: \"\"\n          op: \"\"\n    registries:\n        config:\n            r.local:\n                tls:\n                    ca: aGVsbG8=\n                    insecureSkipVerify: false\n    logging:\n        destinations:\n            - endpoint: udp://127.0.0.1:12345\n              format: json_lines\n            - endpoint: null\n              format: \"\"\ncluster: null\n";
    assert_eq!(roundtrip(text.as_bytes()).expect("roundtrip"), text);
    let cfg = decode_config("version: v1alpha1\nmachine:\n  disks: [{partitions: [{size: 4GiB}]}]\n").expect("decode");
    // 4GiB is not a whole `humanize.Bytes` text (4.3 GB): the integer is printed.
    assert_eq!(
        encode(&cfg),
        "version: v1alpha1\nmachine:\n    type: \"\"\n    token: \"\"\n    certSANs: []\n    disks:\n        - partitions:\n            \
         - size: 4294967296\ncluster: null\n"
    );
    let err =
        decode_config("version: v1alpha1\nmachine:\n  disks: [{partitions: [{size: 4 zz}]}]\n").expect_err("bad size");
    assert_eq!(err, "yaml: construct errors:\n  line 3: unhandled size name: zz");
}
