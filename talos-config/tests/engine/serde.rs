//! The `serde` feature: the JSON form of a model value is its Talos encoding (key names,
//! `omitempty`, Go's texts), and JSON read back decodes as Talos decodes YAML, so that
//! YAML -> model -> JSON -> model -> YAML gives Talos's bytes.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use talos_config::model::v1alpha1::Config as V1Alpha1;
use talos_config::model::{block, cri, hardware, network, runtime, security, siderolink};
use talos_config::{Config, Document, Kind};

use crate::common;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn load(text: &str) -> Config {
    Config::from_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn worker() -> Config {
    Config::from_bytes(&read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/worker.yaml"))))
        .unwrap_or_else(|e| panic!("fixtures/worker.yaml: {e}"))
}

#[test]
fn worker_v1alpha1_json_has_talos_key_names() {
    let config = worker();
    let doc = config.get::<V1Alpha1>().expect("a v1alpha1 document");
    let json = serde_json::to_value(doc).unwrap();
    assert_eq!(json.pointer("/version"), Some(&json!("v1alpha1")));
    assert_eq!(json.pointer("/debug"), Some(&json!(false)));
    assert_eq!(json.pointer("/persist"), Some(&json!(true)));
    assert_eq!(json.pointer("/machine/type"), Some(&json!("worker")));
    assert_eq!(
        json.pointer("/machine/kubelet"),
        Some(&json!({
            "image": "ghcr.io/siderolabs/kubelet:v1.36.3",
            "defaultRuntimeSeccompProfileEnabled": true,
            "disableManifestsDirectory": true,
        }))
    );
    assert_eq!(json.pointer("/machine/certSANs"), Some(&json!(["127.0.0.1"])));
    assert_eq!(json.pointer("/machine/features/kubePrism"), Some(&json!({"enabled": true, "port": 7445})));
    assert_eq!(json.pointer("/machine/ca/key"), Some(&json!("")));
    assert_eq!(json.pointer("/cluster/controlPlane/endpoint"), Some(&json!("https://10.5.0.2:6443")));
    assert_eq!(json.pointer("/cluster/discovery/registries/service"), Some(&json!({})));
    // Omitted as Talos omits them (`omitempty`), never written as `null` or in snake case.
    assert_eq!(json.pointer("/machine/nodeLabels"), None);
    assert_eq!(json.pointer("/machine/node_labels"), None);
    // The text form keeps Talos's field order.
    insta::assert_snapshot!(serde_json::to_string_pretty(doc).unwrap());
}

#[test]
fn worker_config_json_is_its_documents() {
    let config = worker();
    let json = serde_json::to_value(&config).unwrap();
    let docs = json.as_array().expect("a config is a sequence of documents");
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0], serde_json::to_value(config.get::<V1Alpha1>().unwrap()).unwrap());
    assert_eq!(docs[1], json!({"apiVersion": "v1alpha1", "kind": "HostnameConfig", "auto": "stable"}));
    let back: Config = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.encode(), config.encode());
    assert_eq!(
        back.encode().as_bytes(),
        read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/worker.yaml")))
    );
    // One document alone is a config too.
    let one: Config = serde_json::from_value(docs[1].clone()).unwrap();
    assert_eq!(one.encode(), "apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n");
}

/// What a round trip of one document through its own type found wrong, if anything (`None`:
/// `doc` is not a `T`).
fn typed_round_trip<T>(doc: &dyn Document) -> Option<Result<(), String>>
where
    T: Kind + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let typed = doc.as_any().downcast_ref::<T>()?;
    Some((|| {
        let want = doc.to_yaml();
        let value = serde_json::to_value(typed).map_err(|e| format!("to_value: {e}"))?;
        let from_value: T = serde_json::from_value(value).map_err(|e| format!("from_value: {e}"))?;
        let text = serde_json::to_string(typed).map_err(|e| format!("to_string: {e}"))?;
        let from_str: T = serde_json::from_str(&text).map_err(|e| format!("from_str: {e}"))?;
        // Nothing is lost on the way, not even what encodes alike.
        if from_value != *typed || from_str != *typed {
            return Err(format!("the typed value differs:\n{from_value:?}\n{typed:?}"));
        }
        for (how, back) in [("from_value", &from_value), ("from_str", &from_str)] {
            let got = Document::to_yaml(back);
            if got != want {
                return Err(format!(
                    "{how} re-encodes differently:\n{}",
                    crate::common::first_diff(want.as_bytes(), got.as_bytes())
                ));
            }
        }
        Ok(())
    })())
}

/// Every kind Talos v1.13.9 registers, with its Rust type.
macro_rules! kinds {
    ($($ty:ty),* $(,)?) => {
        /// The round trip of `doc` through its own type (`None`: a kind missing here).
        fn typed_check(doc: &dyn Document) -> Option<Result<(), String>> {
            None $(.or_else(|| typed_round_trip::<$ty>(doc)))*
        }

        /// The `kind:` of every type listed.
        const KINDS: &[&str] = &[$(<$ty as Kind>::KIND),*];
    };
}

kinds!(
    V1Alpha1,
    network::BlackholeRouteConfig,
    network::BondConfig,
    network::BridgeConfig,
    network::Dhcpv4Config,
    network::Dhcpv6Config,
    network::DummyLinkConfig,
    network::EthernetConfig,
    network::HcloudVipConfig,
    network::Layer2VipConfig,
    network::LinkAliasConfig,
    network::LinkConfig,
    network::NetworkRuleConfig,
    network::NetworkDefaultActionConfig,
    network::RoutingRuleConfig,
    network::StaticHostConfig,
    network::TcpProbeConfig,
    network::VlanConfig,
    network::VrfConfig,
    network::WireguardConfig,
    network::HostnameConfig,
    network::KubeSpanConfig,
    network::KubeSpanEndpointsConfig,
    network::ResolverConfig,
    network::TimeSyncConfig,
    block::VolumeConfig,
    block::UserVolumeConfig,
    block::RawVolumeConfig,
    block::SwapVolumeConfig,
    block::ExistingVolumeConfig,
    block::ExternalVolumeConfig,
    block::ZswapConfig,
    runtime::EnvironmentConfig,
    runtime::EventSinkConfig,
    runtime::KmsgLogConfig,
    runtime::OomConfig,
    runtime::WatchdogTimerConfig,
    runtime::ExtensionServiceConfig,
    security::ImageVerificationConfig,
    security::TrustedRootsConfig,
    cri::RegistryAuthConfig,
    cri::RegistryMirrorConfig,
    cri::RegistryTlsConfig,
    siderolink::SideroLinkConfig,
    hardware::PciDriverRebindConfig,
);

#[test]
fn every_registered_kind_is_listed() {
    assert_eq!(KINDS.len(), 45);
    for kind in KINDS {
        assert!(talos_config::testing::lookup(kind).is_some(), "{kind} is not registered");
    }
}

/// Peer files upstream uses as decoder input only: not canonical encoder output, so Talos's
/// bytes for them are their re-encoding (as in `conformance.rs`).
const DECODE_ONLY: &[&str] = &[
    "volumeconfig_tpm_encryption_no_options.yaml",
    "volumeconfig_tpm_encryption_with_pcr_settings.yaml",
    "volumeconfig_tpm_encryption_with_pcrs_disabled.yaml",
];

/// YAML -> `Config` -> JSON -> `Config` -> YAML gives the bytes of `Config::from_bytes(..)
/// .encode()` (and, for canonical files, the file itself); each document also round-trips
/// through its own type.
fn json_round_trip(path: &Path, canonical: bool, failures: &mut Vec<String>, kinds_seen: &mut Vec<&'static str>) {
    let bytes = read(path);
    let config = match Config::from_bytes(&bytes) {
        Ok(c) => c,
        Err(e) => return failures.push(format!("{}: loading: {e}", path.display())),
    };
    let want = config.encode();
    if canonical && want.as_bytes() != bytes.as_slice() {
        failures.push(format!(
            "{}: not canonical: {}",
            path.display(),
            crate::common::first_diff(&bytes, want.as_bytes())
        ));
    }
    let json = serde_json::to_string(&config).unwrap();
    match serde_json::from_str::<Config>(&json) {
        Ok(back) if back.encode() == want => {}
        Ok(back) => failures.push(format!(
            "{}: JSON round trip differs:\n{}",
            path.display(),
            crate::common::first_diff(want.as_bytes(), back.encode().as_bytes())
        )),
        Err(e) => failures.push(format!("{}: reading the JSON back: {e}\n{json}", path.display())),
    }
    for doc in config.docs() {
        match typed_check(doc) {
            Some(Ok(())) => kinds_seen.push(doc.kind()),
            Some(Err(e)) => failures.push(format!("{} ({}): {e}", path.display(), doc.kind())),
            None => failures.push(format!("{}: kind {} missing from the list", path.display(), doc.kind())),
        }
    }
}

#[test]
fn per_kind_files_round_trip_through_json() {
    let Some(peer) = common::peer_dir() else { return };
    let mut failures = Vec::new();
    let mut kinds_seen = Vec::new();
    let mut checked = 0;
    for area in ["block", "cri", "hardware", "network", "runtime", "security", "siderolink"] {
        let dir = peer.join("types").join(area).join("testdata");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            json_round_trip(&path, !DECODE_ONLY.contains(&name), &mut failures, &mut kinds_seen);
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(checked, 56);
    kinds_seen.sort_unstable();
    kinds_seen.dedup();
    // Every kind but the legacy document and ExtensionServiceConfig has a per-kind file.
    let missing: Vec<&str> = KINDS.iter().copied().filter(|k| !kinds_seen.contains(k)).collect();
    assert_eq!(missing, ["v1alpha1", "ExtensionServiceConfig"]);
}

/// The loader's and the patcher's multi-document files (those that load), compared with their
/// re-encoding: ExtensionServiceConfig is only there.
#[test]
fn loader_and_patcher_files_round_trip_through_json() {
    let Some(peer) = common::peer_dir() else { return };
    let mut failures = Vec::new();
    let mut kinds_seen = Vec::new();
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(peer.join("configloader/testdata")).unwrap().flatten().map(|e| e.path()).collect();
    for case in std::fs::read_dir(peer.join("configpatcher/testdata")).unwrap().flatten().filter(|e| e.path().is_dir())
    {
        paths.extend(std::fs::read_dir(case.path()).unwrap().flatten().map(|e| e.path()));
    }
    paths.retain(|p| p.is_file() && Config::from_bytes(&read(p)).is_ok());
    paths.sort();
    for path in &paths {
        json_round_trip(path, false, &mut failures, &mut kinds_seen);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(paths.len() >= 20, "only {} files", paths.len());
    assert!(kinds_seen.contains(&"ExtensionServiceConfig"), "{kinds_seen:?}");
}

#[test]
fn stability_files_round_trip_through_json() {
    let Some(peer) = common::peer_dir() else { return };
    let dir = peer.join("types/v1alpha1/testdata/stability");
    let mut failures = Vec::new();
    let mut kinds_seen = Vec::new();
    let mut checked = 0;
    for minor in 3..=13 {
        for file in ["base-controlplane", "base-worker", "overrides-controlplane", "overrides-worker"] {
            json_round_trip(&dir.join(format!("v1.{minor}/{file}.yaml")), true, &mut failures, &mut kinds_seen);
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(checked, 44);
    assert!(kinds_seen.contains(&"v1alpha1"));
}

#[test]
fn wrong_type_is_talos_decode_error() {
    let json = json!({"version": "v1alpha1", "machine": {"type": "worker", "kubelet": {"registerWithFQDN": "maybe"}}});
    let err = serde_json::from_value::<V1Alpha1>(json.clone()).unwrap_err();
    assert_eq!(err.to_string(), "yaml: construct errors:\n  line 0: cannot construct !!str `maybe` into bool");
    // The document is decoded once serde_json has read it all: no JSON position is added.
    let err = serde_json::from_str::<V1Alpha1>(&json.to_string()).unwrap_err();
    assert_eq!(err.to_string(), "yaml: construct errors:\n  line 0: cannot construct !!str `maybe` into bool");
    // A number where Talos wants a string is fine (go-yaml takes any scalar into a string),
    // a string where it wants a number is not, even when the text is a number.
    let ok: V1Alpha1 = serde_json::from_value(json!({"machine": {"token": 1500}})).unwrap();
    assert_eq!(ok.machine.unwrap().token, "1500");
    let err = serde_json::from_value::<network::HostnameConfig>(
        json!({"apiVersion": "v1alpha1", "kind": "HostnameConfig", "auto": "stable", "hostname": ["a"]}),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "yaml: construct errors:\n  line 0: cannot construct !!seq into string");
    let err =
        serde_json::from_value::<V1Alpha1>(json!({"machine": {"kubelet": {"nodeIP": {"validSubnets": "10.0.0.0/8"}}}}))
            .unwrap_err();
    assert_eq!(err.to_string(), "yaml: construct errors:\n  line 0: cannot construct !!str `10.0.0.0/8` into []string");
}

#[test]
fn unknown_field_is_talos_unknown_keys_error() {
    let err = serde_json::from_value::<V1Alpha1>(json!({"machine": {"type": "worker", "nodeLabel": {"a": "b"}}}))
        .unwrap_err();
    // Talos prints the leftover nodes as they were written: JSON strings are quoted scalars.
    assert_eq!(
        err.to_string(),
        "unknown keys found during decoding:\nmachine:\n    nodeLabel:\n        \"a\": \"b\"\n"
    );
    // snake_case is not Talos's spelling.
    let err = serde_json::from_value::<V1Alpha1>(json!({"machine": {"node_labels": {"a": "b"}}})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown keys found during decoding:\nmachine:\n    node_labels:\n        \"a\": \"b\"\n"
    );
    // The container goes through the loader: its texts, its checks.
    let err = serde_json::from_value::<Config>(json!([{"version": "v1alpha1", "machine": {"typo": 1}}])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "error decoding document /v1alpha1/ (line 0): unknown keys found during decoding:\nmachine:\n    typo: 1\n"
    );
    let err = serde_json::from_value::<Config>(json!([{"apiVersion": "v1alpha1", "kind": "Nope"}])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "error decoding document v1alpha1/Nope/ (line 0): \"Nope\" \"v1alpha1\": not registered"
    );
    let host = json!({"apiVersion": "v1alpha1", "kind": "HostnameConfig", "auto": "stable"});
    let err = serde_json::from_value::<Config>(json!([host, host])).unwrap_err();
    assert_eq!(err.to_string(), "duplicate document v1alpha1/HostnameConfig/ is not allowed (line 0)");
    let err = serde_json::from_value::<Config>(json!([])).unwrap_err();
    assert_eq!(err.to_string(), "config not found");
}

/// Texts that a plain YAML scalar would read as something else.
#[rustfmt::skip]
const LOOKALIKES: &[&str] = &[
    "true", "false", "True", "yes", "no", "on", "off", "y", "1500", "-1", "0x1F", "0o644", "0644", "1_000", "1.5",
    "1e3", ".inf", "-.inf", ".nan", "null", "Null", "~", "", "2024-01-01", "2001-12-14t21:59:43.10-05:00", "<<", "1:20",
    "-0",
];

/// A config whose string fields (a label, the token, a kubelet `extraConfig` value, a
/// certSAN) all hold `text`.
fn config_with(text: &str) -> Config {
    let quoted = serde_json::to_string(text).unwrap();
    load(&format!(
        "version: v1alpha1\nmachine:\n  type: worker\n  token: {quoted}\n  certSANs: [{quoted}]\n  \
         nodeLabels:\n    a: {quoted}\n  kubelet:\n    extraConfig:\n      b: {quoted}\n"
    ))
}

fn strings_survive(text: &str) -> Result<(), TestCaseError> {
    let config = config_with(text);
    let doc = config.get::<V1Alpha1>().unwrap();
    let json = serde_json::to_value(doc).unwrap();
    let want = json!(text);
    prop_assert_eq!(json.pointer("/machine/token"), Some(&want));
    prop_assert_eq!(json.pointer("/machine/certSANs/0"), Some(&want));
    prop_assert_eq!(json.pointer("/machine/nodeLabels/a"), Some(&want));
    prop_assert_eq!(json.pointer("/machine/kubelet/extraConfig/b"), Some(&want));
    let back: V1Alpha1 = serde_json::from_value(json.clone()).unwrap();
    prop_assert_eq!(&back, doc);
    let back: Config = serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
    prop_assert_eq!(back.encode(), config.encode());
    Ok(())
}

#[test]
fn strings_that_look_like_other_types_stay_strings() {
    for text in LOOKALIKES {
        strings_survive(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    }
    // Read from JSON, they are strings too.
    let doc: V1Alpha1 = serde_json::from_value(
        json!({"machine": {"nodeLabels": {"a": "true", "b": "1500", "c": "null", "d": "0o644"}}}),
    )
    .unwrap();
    let labels = &doc.machine.as_ref().unwrap().node_labels;
    assert_eq!(labels.values().map(String::as_str).collect::<Vec<_>>(), ["true", "1500", "null", "0o644"]);
    assert_eq!(
        Document::to_yaml(&doc),
        "version: \"\"\nmachine:\n    type: \"\"\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        a: \"true\"\n        \
         b: \"1500\"\n        c: \"null\"\n        d: \"0o644\"\ncluster: null\n"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_string_survives_as_a_string(
        text in prop_oneof![
            prop::sample::select(LOOKALIKES).prop_map(str::to_string),
            "[ -~]{0,12}",
            "[0-9eE.+_xob:-]{1,8}",
            "\\PC{0,8}",
        ]
        // Line breaks YAML reads inside quotes but no JSON string holds unescaped: kept out
        // of the YAML source here, as the property tests do.
        .prop_map(|s: String| s.replace(['\u{85}', '\u{2028}', '\u{2029}'], ""))
    ) {
        strings_survive(&text)?;
    }
}

/// Numbers, booleans and nulls in free-form values keep their types both ways.
#[test]
fn free_form_values_keep_their_types() {
    let config = load(
        "machine:\n  kubelet:\n    extraConfig:\n      int: 10\n      big: 18446744073709551615\n      float: 1.5\n      \
         exp: 1e+06\n      flag: true\n      nil: null\n      list: [1, \"1\", 0x10]\n",
    );
    let doc = config.get::<V1Alpha1>().unwrap();
    let json = serde_json::to_value(doc).unwrap();
    assert_eq!(
        json.pointer("/machine/kubelet/extraConfig"),
        Some(&json!({
            "big": 18446744073709551615u64, "exp": 1e6, "flag": true, "float": 1.5, "int": 10,
            "list": [1, "1", 16], "nil": null,
        }))
    );
    let back: V1Alpha1 = serde_json::from_value(json).unwrap();
    assert_eq!(&back, doc);
    assert_eq!(
        Document::to_yaml(&back),
        "version: \"\"\nmachine:\n    type: \"\"\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraConfig:\n            \
         big: 18446744073709551615\n            exp: 1e+06\n            flag: true\n            float: 1.5\n            \
         int: 10\n            list:\n                - 1\n                - \"1\"\n                - 16\n            \
         nil: null\ncluster: null\n"
    );
}

/// What JSON cannot say, in free-form values: YAML timestamps, infinities and NaN are strings
/// in JSON and come back as strings (which Talos then quotes); a float with an integral value
/// is printed as an integer (by Talos too) and comes back as one.
#[test]
fn free_form_values_json_cannot_hold() {
    let config = load(
        "machine:\n  kubelet:\n    extraConfig:\n      inf: .inf\n      nan: .nan\n      when: 2024-01-01\n      whole: 2.0\n",
    );
    let doc = config.get::<V1Alpha1>().unwrap();
    let json = serde_json::to_value(doc).unwrap();
    assert_eq!(
        json.pointer("/machine/kubelet/extraConfig"),
        Some(&json!({"inf": ".inf", "nan": ".nan", "when": "2024-01-01T00:00:00Z", "whole": 2}))
    );
    let head = "version: \"\"\nmachine:\n    type: \"\"\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraConfig:\n";
    assert_eq!(
        Document::to_yaml(doc),
        format!(
            "{head}            inf: .inf\n            nan: .nan\n            when: 2024-01-01T00:00:00Z\n            \
             whole: 2\ncluster: null\n"
        )
    );
    let back: V1Alpha1 = serde_json::from_value(json).unwrap();
    assert_eq!(
        Document::to_yaml(&back),
        format!(
            "{head}            inf: \".inf\"\n            nan: \".nan\"\n            when: \"2024-01-01T00:00:00Z\"\n            \
             whole: 2\ncluster: null\n"
        )
    );
}

/// Types with Go text forms serialize as Talos prints them; read back, they follow go-yaml's
/// rules: a JSON string is a quoted scalar, which no integer type takes.
#[test]
fn go_text_forms() {
    use talos_config::model::{Duration, FileMode};
    let minute = Duration::from(std::time::Duration::from_secs(60));
    assert_eq!(serde_json::to_value(minute).unwrap(), json!("1m0s"));
    assert_eq!(serde_json::from_value::<Duration>(json!("1m0s")).unwrap(), minute);
    assert_eq!(serde_json::from_value::<Duration>(json!(0)).unwrap(), Duration::default());
    assert_eq!(
        serde_json::from_value::<Duration>(json!(60)).unwrap_err().to_string(),
        "yaml: construct errors:\n  line 0: cannot construct !!int `60` into time.Duration"
    );
    // Talos prints `0o644`, which go-yaml reads as the integer 420.
    assert_eq!(serde_json::to_value(FileMode(0o644)).unwrap(), json!(420));
    assert_eq!(serde_json::from_value::<FileMode>(json!(420)).unwrap(), FileMode(0o644));
    assert_eq!(
        serde_json::from_value::<FileMode>(json!("0o644")).unwrap_err().to_string(),
        "yaml: construct errors:\n  line 0: cannot construct !!str `0o644` into v1alpha1.FileMode"
    );
}

/// The deepest value Talos reads (go-yaml's 10,000 levels) serializes on a 256 KiB stack;
/// serde_json itself then reads back no more than 128 levels.
#[test]
fn deepest_value_serializes_on_a_small_stack() {
    let depth = 10_000 - 4;
    let yaml = format!(
        "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    auditPolicy:\n      x: {}1{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let config = load(&yaml);
    let json = std::thread::scope(|scope| {
        let run = || serde_json::to_string(&config).unwrap();
        std::thread::Builder::new().stack_size(256 * 1024).spawn_scoped(scope, run).unwrap().join().unwrap()
    });
    let prefix = r#"[{"version":"v1alpha1","machine":{"type":"worker","token":"","certSANs":[]},"cluster":{"controlPlane":null,"apiServer":{"auditPolicy":{"x":"#;
    assert_eq!(json, format!("{prefix}{}1{}}}}}}}}}]", "[".repeat(depth), "]".repeat(depth)));
    let err = serde_json::from_str::<Config>(&json).unwrap_err();
    assert_eq!(err.to_string(), "recursion limit exceeded at line 1 column 262");
}
