//! Config generation as Talos v1.12.11 makes it (`GenOptions::for_release(Release::V1_12_11)`):
//! every case in `data/gen-v1.12` rebuilds what talosctl v1.12.11's own `gen config
//! --with-secrets` wrote (the command in each case's `.args`, read here flag by flag), byte for
//! byte, for both machine types: every version contract from v1.0 to v1.14 (v1.12.11 takes the
//! ones above v1.12 as its current one), `--persist=false`, `--with-kubespan`, mirrors, options.

use std::path::{Path, PathBuf};

use talos_config::Release;
use talos_config::generate::{GenOptions, Input, MachineType, SecretsBundle};

use crate::common::first_diff;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/gen-v1.12")
}

/// The bundle and options a case's `talosctl gen config ...` line chose.
fn options_of(args: &str) -> (String, GenOptions) {
    let words: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(&words[..5], ["talosctl", "gen", "config", "demo", "https://10.5.0.2:6443"], "{args}");
    let mut options = GenOptions::for_release(Release::V1_12_11);
    let mut secrets = String::new();
    let mut rest = words[5..].iter().copied();
    while let Some(word) = rest.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value)),
            None => (word, None),
        };
        let mut value = || inline.map(str::to_string).or_else(|| rest.next().map(str::to_string)).unwrap();
        match flag {
            "--with-docs" | "--with-examples" => assert_eq!(inline, Some("false")),
            "-t" => assert_eq!(value(), "controlplane,worker"),
            "--with-secrets" => secrets = value(),
            "--talos-version" => options.contract = value().parse().unwrap(),
            "--persist" | "-p" => options.persist = inline.is_none_or(|v| v == "true"),
            "--with-kubespan" => options.kubespan = Some(true),
            "--with-cluster-discovery" => options.cluster_discovery = inline.is_none_or(|v| v == "true"),
            "--registry-mirror" => {
                for spec in value().split(',') {
                    let (host, url) = spec.split_once('=').unwrap();
                    options.registry_mirrors.entry(host.into()).or_default().push(url.into());
                }
            }
            "--additional-sans" => options.additional_sans.extend(value().split(',').map(String::from)),
            "--dns-domain" => options.dns_domain = value(),
            "--install-disk" => options.install_disk = value(),
            "--install-image" => options.install_image = value(),
            "--kubernetes-version" => options.kubernetes_version = value().trim_start_matches('v').to_string(),
            other => panic!("{args}: flag {other} not read here"),
        }
    }
    (secrets, options)
}

fn case_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().to_string_lossy().strip_suffix(".args").map(String::from))
        .collect();
    names.sort();
    names
}

#[test]
fn generated_configs_are_talosctl_v1_12s_byte_for_byte() {
    let names = case_names();
    // Every contract v1.12.11 takes, and the options its flags reach.
    for want in ["current", "persist-false", "persist-false-v1.2", "kubespan", "kubespan-v1.11", "kubespan-v1.13"] {
        assert!(names.iter().any(|n| n == want), "{want}");
    }
    for minor in 0..=14 {
        assert!(names.contains(&format!("v1.{minor}")), "v1.{minor}");
    }
    let mut failures = Vec::new();
    for name in &names {
        let (secrets, options) = options_of(&std::fs::read_to_string(dir().join(format!("{name}.args"))).unwrap());
        let bundle = SecretsBundle::from_yaml(&std::fs::read(dir().join(secrets)).unwrap()).unwrap();
        let input = Input::new("demo", "https://10.5.0.2:6443", bundle, options);
        for (machine_type, file) in [(MachineType::ControlPlane, "controlplane"), (MachineType::Worker, "worker")] {
            let want = std::fs::read(dir().join(format!("{name}.{file}.yaml"))).unwrap();
            let config = input.config(machine_type).unwrap();
            assert_eq!(config.release(), Release::V1_12_11);
            let got = config.encode();
            if got.as_bytes() != want {
                failures.push(format!("{name}.{file}: {}", first_diff(&want, got.as_bytes())));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The defaults differ between the releases; `persist` is v1.12.11's only.
#[test]
fn each_release_has_its_own_defaults() {
    let old = GenOptions::for_release(Release::V1_12_11);
    assert_eq!(
        (old.kubernetes_version.as_str(), old.install_image.as_str()),
        ("1.35.4", "ghcr.io/siderolabs/installer:v1.12.11")
    );
    let new = GenOptions::default();
    assert_eq!(new.release, Release::V1_13_9);
    assert_eq!(
        (new.kubernetes_version.as_str(), new.install_image.as_str()),
        ("1.36.3", "ghcr.io/siderolabs/installer:v1.13.9")
    );
    let bundle = SecretsBundle::from_yaml(&std::fs::read(dir().join("secrets.yaml")).unwrap()).unwrap();
    for (release, want) in [(Release::V1_12_11, "persist: false\n"), (Release::V1_13_9, "persist: true\n")] {
        let mut options = GenOptions::for_release(release);
        options.persist = false;
        let config = Input::new("demo", "https://10.5.0.2:6443", bundle.clone(), options).config(MachineType::Worker);
        assert!(config.unwrap().encode().contains(want), "{release}");
    }
}

/// talosctl no longer writes the `init` type; Talos v1.12.11's `init.go` gives it the same
/// `machine.network` (`{}`, or KubeSpan) as the other types.
#[test]
fn the_init_type_gets_machine_network_too() {
    let bundle = SecretsBundle::from_yaml(&std::fs::read(dir().join("secrets.yaml")).unwrap()).unwrap();
    let mut options = GenOptions::for_release(Release::V1_12_11);
    let init = Input::new("demo", "https://10.5.0.2:6443", bundle.clone(), options.clone());
    let text = init.config(MachineType::Init).unwrap().encode();
    assert!(text.contains("    type: init\n") && text.contains("\n    network: {}\n"), "{text}");
    options.kubespan = Some(true);
    let init = Input::new("demo", "https://10.5.0.2:6443", bundle, options);
    let text = init.config(MachineType::Init).unwrap().encode();
    assert!(text.contains("\n    network:\n        kubespan:\n            enabled: true\n"), "{text}");
}
