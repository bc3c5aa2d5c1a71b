//! Config generation (`talos_config::generate`, issue 27): every case rebuilds what
//! talosctl v1.13.9's `gen config --with-secrets` wrote (recorded in `data/gen`, the command in
//! each case's `.args`), byte for byte, for both machine types.

use std::path::Path;

use talos_config::generate::{GenOptions, Input, MachineType, SecretsBundle, VersionContract};

use crate::common::first_diff;

fn data(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data").join(path)).unwrap()
}

/// `secrets/NAME`: made by talosctl (`generated-*`) or by `labctl gen secrets` (`labctl-*`).
fn bundle(name: &str) -> SecretsBundle {
    SecretsBundle::from_yaml(&data(&format!("secrets/{name}"))).unwrap()
}

fn contract(text: &str) -> VersionContract {
    text.parse().unwrap()
}

/// The recorded cases: name, bundle, and the options its `.args` chose.
fn cases() -> Vec<(String, &'static str, GenOptions)> {
    let mut cases = vec![("current".to_string(), "generated-v1.13.yaml", GenOptions::default())];
    for v in ["1.0", "1.1", "1.2"] {
        let mut o = GenOptions::default();
        o.contract = contract(v);
        cases.push((format!("v{v}"), "generated-v1.2.yaml", o));
    }
    for v in ["1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12", "1.13", "1.14"] {
        let mut o = GenOptions::default();
        o.contract = contract(v);
        cases.push((format!("v{v}"), "generated-v1.13.yaml", o));
    }
    let with = |name: &str, bundle: &'static str, edit: &dyn Fn(&mut GenOptions)| {
        let mut o = GenOptions::default();
        edit(&mut o);
        (name.to_string(), bundle, o)
    };
    let mirrors = |o: &mut GenOptions| {
        o.registry_mirrors.insert("docker.io".into(), vec!["https://m1.example.com".into()]);
        o.registry_mirrors.insert("ghcr.io".into(), vec!["https://m2.example.com".into()]);
    };
    cases.extend([
        with("kubespan", "generated-v1.13.yaml", &|o| o.kubespan = Some(true)),
        with("kubespan-v1.12", "generated-v1.13.yaml", &|o| {
            o.kubespan = Some(true);
            o.contract = contract("v1.12");
        }),
        with("mirrors", "generated-v1.13.yaml", &|o| {
            mirrors(o);
            o.registry_mirrors.get_mut("docker.io").unwrap().push("https://m3.example.com".into());
        }),
        with("mirrors-v1.11", "generated-v1.13.yaml", &|o| {
            mirrors(o);
            o.contract = contract("v1.11");
        }),
        with("mirrors-v1.2", "generated-v1.2.yaml", &|o| {
            o.registry_mirrors.insert("docker.io".into(), vec!["https://m1.example.com".into()]);
            o.contract = contract("v1.2");
        }),
        with("options", "generated-v1.13.yaml", &|o| {
            o.cluster_discovery = false;
            o.additional_sans = vec!["a.example.com".into(), "10.0.0.1".into()];
            o.dns_domain = "example.local".into();
            o.install_disk = "/dev/nvme0n1".into();
            o.install_image = "ghcr.io/x/installer:v1".into();
            o.kubernetes_version = "1.30.0".into();
        }),
        with("options-v1.11", "generated-v1.13.yaml", &|o| {
            o.cluster_discovery = false;
            o.additional_sans = vec!["a.example.com".into()];
            o.contract = contract("v1.11");
        }),
        with("no-k8s-version", "generated-v1.13.yaml", &|o| o.kubernetes_version.clear()),
        // Bundles `labctl gen secrets` made, which talosctl's gen config accepted.
        with("labctl-bundle", "labctl-v1.13.yaml", &|_| {}),
        with("labctl-bundle-v1.2", "labctl-v1.2.yaml", &|o| o.contract = contract("v1.2")),
    ]);
    cases
}

#[test]
fn generated_configs_are_talosctls_byte_for_byte() {
    let cases = cases();
    assert_eq!(
        cases.len() * 3,
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/gen")).unwrap().count() - 1
    );
    let mut failures = Vec::new();
    for (name, secrets, options) in cases {
        let input = Input::new("demo", "https://10.5.0.2:6443", bundle(secrets), options);
        for (machine_type, file) in [(MachineType::ControlPlane, "controlplane"), (MachineType::Worker, "worker")] {
            let want = data(&format!("gen/{name}.{file}.yaml"));
            let got = input.config(machine_type).unwrap().encode();
            if got.as_bytes() != want {
                failures.push(format!("{name}.{file}: {}", first_diff(&want, got.as_bytes())));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn version_contracts_parse_as_talos_parses_them() {
    let cases = [
        ("v1.8", Ok("v1.8")),
        ("1.8", Ok("v1.8")),
        ("v1.8.3", Ok("v1.8")),
        ("v01.02", Ok("v1.2")),
        ("v1.13.0-beta.1", Ok("v1.13")),
        ("v1.8-beta", Err("error parsing version \"v1.8-beta\"")),
        ("vv1.8", Err("error parsing version \"vv1.8\"")),
        ("v1", Err("error parsing version \"v1\"")),
        ("", Err("error parsing version \"v\"")),
        ("banana", Err("error parsing version \"vbanana\"")),
    ];
    for (text, want) in cases {
        let got = text.parse::<VersionContract>().map(|c| c.to_string()).map_err(|e| e.to_string());
        assert_eq!(got, want.map(String::from).map_err(String::from), "{text:?}");
    }
}
