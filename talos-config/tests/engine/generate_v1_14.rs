//! Config generation as Talos v1.14.0-rc.1 makes it (`GenOptions::for_release(Release::V1_14_0_RC1)`):
//! every case in `data/gen-v1.14` rebuilds what talosctl v1.14.0-rc.1's own `gen config
//! --with-secrets` wrote (the command in each case's `.args`, read here flag by flag), byte for
//! byte, for both machine types: the v1.14 contract's documents, every older contract from v1.0
//! (and v0.0, the current one, and v1.15, above it), `--skip-k8s-etcd`, KubeSpan, discovery,
//! mirrors and the other options. The configs load and validate as talosctl v1.14 validates
//! them (`rejected.txt`); the secrets bundle's check takes the contract; a control-plane config
//! gives its bundle back.

use std::path::{Path, PathBuf};

use talos_config::generate::{GenOptions, Input, MachineType, SecretsBundle, VersionContract};
use talos_config::model::v1alpha1::CNIConfig;
use talos_config::{Config, Mode, Options, Release};

use crate::common::first_diff;

const V1_14: Release = Release::V1_14_0_RC1;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/gen-v1.14")
}

fn bundle(name: &str) -> SecretsBundle {
    SecretsBundle::from_yaml_for(&std::fs::read(dir().join(name)).unwrap(), V1_14).unwrap()
}

/// The bundle and options a case's `talosctl gen config ...` line chose.
fn options_of(args: &str) -> (String, GenOptions) {
    let words: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(&words[..5], ["talosctl", "gen", "config", "demo", "https://10.5.0.2:6443"], "{args}");
    let mut options = GenOptions::for_release(V1_14);
    let mut secrets = String::new();
    let mut skip = false;
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
            "--skip-k8s-etcd" => skip = true,
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
    if skip {
        options.contract = options.contract.without_etcd().without_kubernetes();
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

/// Every case's two configs as we make them: (case, file stem, config).
fn generated() -> Vec<(String, String, Config)> {
    let mut out = Vec::new();
    for name in case_names() {
        let (secrets, options) = options_of(&std::fs::read_to_string(dir().join(format!("{name}.args"))).unwrap());
        let input = Input::new("demo", "https://10.5.0.2:6443", bundle(&secrets), options);
        for (machine_type, file) in [(MachineType::ControlPlane, "controlplane"), (MachineType::Worker, "worker")] {
            let config = input.config(machine_type).unwrap_or_else(|e| panic!("{name}.{file}: {e}"));
            out.push((name.clone(), file.to_string(), config));
        }
    }
    out
}

#[test]
fn generated_configs_are_talosctl_v1_14s_byte_for_byte() {
    let names = case_names();
    for want in ["current", "v0.0", "kubespan", "no-discovery", "skip-k8s-etcd", "install-disk-empty", "options"] {
        assert!(names.iter().any(|n| n == want), "{want}");
    }
    for minor in 0..=15 {
        assert!(names.contains(&format!("v1.{minor}")), "v1.{minor}");
    }
    let mut failures = Vec::new();
    for (name, file, config) in generated() {
        let want = std::fs::read(dir().join(format!("{name}.{file}.yaml"))).unwrap();
        assert_eq!(config.release(), V1_14);
        let got = config.encode();
        if got.as_bytes() != want {
            failures.push(format!("{name}.{file}: {}", first_diff(&want, got.as_bytes())));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The v1.14 contract's documents, in talosctl's order: 29 on a control plane, 15 on a worker.
#[test]
fn the_v1_14_contract_documents_in_order() {
    let kinds = |name: &str| -> Vec<String> {
        let text = std::fs::read(dir().join(name)).unwrap();
        Config::from_bytes_for(&text, V1_14).unwrap().docs().map(|d| d.kind().to_string()).collect()
    };
    let worker = [
        "v1alpha1",
        "DiscoveryServiceConfig",
        "DiscoveryIdentityConfig",
        "UnattendedInstallConfig",
        "ResolverConfig",
        "VolumeConfig",
        "FilesystemTrimConfig",
        "SecurityProfileConfig",
        "HostnameConfig",
        "KubeClusterConfig",
        "KubeNodeConfig",
        "KubeletConfig",
        "KubeNetworkConfig",
        "KubeAPIServerCAConfig",
        "KubePrismConfig",
    ];
    assert_eq!(kinds("current.worker.yaml"), worker);
    let control_plane = kinds("current.controlplane.yaml");
    assert_eq!(control_plane.len(), 29);
    assert_eq!(control_plane[..15], worker);
    assert_eq!(control_plane.last().map(String::as_str), Some("KubeCoreDNSConfig"));
    // --skip-k8s-etcd keeps the first nine; KubeSpan's document follows the hostname's.
    assert_eq!(kinds("skip-k8s-etcd.controlplane.yaml"), worker[..9]);
    assert_eq!(kinds("skip-k8s-etcd-kubespan.worker.yaml")[9], "KubeSpanConfig");
}

/// Every recorded config loads as v1.14 and validates as talosctl v1.14 validates it: clean in
/// metal, cloud and container mode, except the rejections `rejected.txt` lists (KubeSpan
/// without discovery; old contracts without host DNS in container mode; a v1.2 contract with a
/// secretbox bundle has no etcd encryption secret).
#[test]
fn generated_configs_validate_as_talosctl_v1_14_does() {
    let rejected = std::fs::read_to_string(dir().join("rejected.txt")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, file, config) in generated() {
        let loaded = Config::from_bytes_for(config.encode().as_bytes(), V1_14).unwrap();
        for (mode, mode_name) in [(Mode::Metal, "metal"), (Mode::Cloud, "cloud"), (Mode::Container, "container")] {
            let key = format!("{name}.{file}.yaml {mode_name}: ");
            let want = rejected.lines().find_map(|l| l.strip_prefix(&key)).unwrap_or_default();
            let report = loaded.validate(mode, Options::default());
            let got = report
                .error
                .map(|e| e.to_string().lines().filter_map(|l| l.strip_prefix("\t* ")).collect::<Vec<_>>().join(" | "))
                .unwrap_or_default();
            if got != want || !report.warnings.is_empty() {
                failures.push(format!("{key}want [{want}], got [{got}], warnings {:?}", report.warnings));
            }
            checked += 1;
        }
    }
    assert!(checked >= 228, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// talosctl v1.14 refuses an empty Kubernetes version (v1.13 wrote empty images).
#[test]
fn a_kubernetes_version_is_required_from_v1_14() {
    let mut options = GenOptions::for_release(V1_14);
    options.kubernetes_version.clear();
    options.contract = VersionContract::new(1, 13);
    let input = Input::new("demo", "https://10.5.0.2:6443", bundle("secrets.yaml"), options);
    assert_eq!(input.config(MachineType::Worker).unwrap_err().to_string(), "kubernetes version must be specified");
    let mut old = GenOptions::for_release(Release::V1_13_9);
    old.kubernetes_version.clear();
    let input = Input::new("demo", "https://10.5.0.2:6443", bundle("secrets.yaml"), old);
    assert!(input.config(MachineType::Worker).is_ok());
}

/// The bundle check takes the contract from v1.14: without Kubernetes, no `secrets` and no
/// Kubernetes CAs are needed; without etcd, no etcd CA; the service-account key is checked
/// before `certs.os`. v1.13.9 checks everything, `os` before the key.
#[test]
fn the_bundle_check_takes_the_contract() {
    let text = "cluster:\n  id: aWQ=\n  secret: c2VjcmV0\ntrustdinfo:\n  token: abcdef.0123456789abcdef\ncerts: {}\n";
    let thin = SecretsBundle::from_yaml_for(text.as_bytes(), V1_14).unwrap();
    let bare = VersionContract::CURRENT.without_kubernetes().without_etcd();
    let errors = |contract, release| thin.validate_for(contract, release).unwrap_err().to_string();
    assert_eq!(errors(bare, V1_14), "1 error occurred:\n\t* certs.os is required\n\n");
    assert_eq!(
        errors(VersionContract::CURRENT.without_kubernetes(), V1_14),
        "2 errors occurred:\n\t* certs.etcd is required\n\t* certs.os is required\n\n"
    );
    let full = "6 errors occurred:\n\t* secrets is required\n\t* certs.etcd is required\n\t* certs.k8s is required\n\t\
                * certs.k8saggregator is required\n";
    assert_eq!(
        errors(VersionContract::CURRENT, V1_14),
        format!("{full}\t* certs.k8sserviceaccount is required\n\t* certs.os is required\n\n")
    );
    assert_eq!(
        errors(bare, Release::V1_13_9),
        format!("{full}\t* certs.os is required\n\t* certs.k8sserviceaccount is required\n\n")
    );
    // Generated without Kubernetes: the configs need neither the CAs nor the token.
    let mut options = GenOptions::for_release(V1_14);
    options.contract = bare;
    let mut with_os = thin.clone();
    with_os.certs =
        bundle("secrets.yaml").certs.map(|c| talos_config::generate::Certs { os: c.os, ..Default::default() });
    let input = Input::new("demo", "https://10.5.0.2:6443", with_os, options);
    let text = input.config(MachineType::ControlPlane).unwrap().encode();
    assert!(text.contains("\ncluster: {}\n") && !text.contains("KubeClusterConfig"), "{text}");
}

/// `gen secrets --from-controlplane-config` on a v1.14 control plane gives the bundle back
/// (an AES-CBC secret comes back as the secretbox one, from the `key1` provider); on a worker
/// (where talosctl v1.14 crashes) the error names what is missing.
#[test]
fn a_v1_14_control_plane_gives_its_bundle_back() {
    let load = |name: &str| Config::from_bytes_for(&std::fs::read(dir().join(name)).unwrap(), V1_14).unwrap();
    let taken = SecretsBundle::from_config_for(&load("current.controlplane.yaml"), V1_14).unwrap();
    assert_eq!(taken.to_yaml_for(V1_14), std::fs::read_to_string(dir().join("secrets.yaml")).unwrap());
    let old = bundle("secrets-v1.2.yaml");
    let taken = SecretsBundle::from_config_for(&load("current-secrets-v1.2.controlplane.yaml"), V1_14).unwrap();
    let secrets = taken.secrets.as_ref().unwrap();
    assert_eq!(secrets.secretbox_encryption_secret, old.secrets.as_ref().unwrap().aescbc_encryption_secret);
    assert!(secrets.aescbc_encryption_secret.is_empty());
    assert_eq!(taken.certs, old.certs);
    // An older contract's control plane, read by v1.14, gives the same bundle as v1.13.9 reads.
    let legacy = load("v1.13.controlplane.yaml");
    assert_eq!(SecretsBundle::from_config_for(&legacy, V1_14).unwrap(), SecretsBundle::from_config(&legacy).unwrap());
    let err = SecretsBundle::from_config_for(&load("current.worker.yaml"), V1_14).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the config has no Kubernetes aggregator CA (neither a KubeAggregatorCAConfig document nor \
         .cluster.aggregatorCA): it is not a control-plane config"
    );
}

/// The library's custom CNI (talosctl has no flag for it): a `KubeExternalManifestConfig`
/// named `custom-cni` after CoreDNS, and no Flannel; up to contract v1.13 `cluster.network.cni`.
#[test]
fn a_custom_cni_is_an_external_manifest_from_v1_14() {
    let mut options = GenOptions::for_release(V1_14);
    options.cni = Some(CNIConfig {
        name: "custom".into(),
        urls: vec!["https://example.com/cni.yaml".into()],
        ..Default::default()
    });
    let input = Input::new("demo", "https://10.5.0.2:6443", bundle("secrets.yaml"), options.clone());
    let config = input.config(MachineType::ControlPlane).unwrap();
    let kinds: Vec<&str> = config.docs().map(|d| d.kind()).collect();
    assert!(!kinds.contains(&"KubeFlannelCNIConfig"));
    assert_eq!(kinds[kinds.len() - 2..], ["KubeCoreDNSConfig", "KubeExternalManifestConfig"]);
    assert!(config.encode().ends_with("name: custom-cni\nurl: https://example.com/cni.yaml\n"));
    options.contract = VersionContract::new(1, 13);
    let input = Input::new("demo", "https://10.5.0.2:6443", bundle("secrets.yaml"), options.clone());
    let text = input.config(MachineType::Worker).unwrap().encode();
    assert!(text.contains("        cni:\n            name: custom\n            urls:\n"), "{text}");
    options.contract = VersionContract::CURRENT;
    options.cni = Some(CNIConfig { name: "none".into(), ..Default::default() });
    let input = Input::new("demo", "https://10.5.0.2:6443", bundle("secrets.yaml"), options);
    assert!(input.config(MachineType::ControlPlane).unwrap_err().to_string().contains("not the CNI \"none\""));
}
