//! Typed model of the new-style kinds outside `network` and `v1alpha1`: every peer testdata file
//! round-trips byte for byte, and the custom merges behave like upstream.

use crate::model_kinds_common;

use model_kinds_common::*;
use talos_config::Document;
use talos_config::testing::Hooks;
use talos_config::testing::lookup;
use talos_config::testing::roundtrip;

fn roundtrip_file(rel: &str) {
    let Some(dir) = peer_dir() else { return };
    let path = dir.join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let out = roundtrip(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert_eq!(out, String::from_utf8_lossy(&bytes), "{rel}");
}

macro_rules! roundtrip_tests {
    ($($name:ident => $path:literal,)*) => {$(
        #[test]
        fn $name() {
            roundtrip_file($path);
        }
    )*};
}

roundtrip_tests! {
    rt_siderolink_document => "types/siderolink/testdata/document.yaml",
    rt_cri_registrymirrorconfig => "types/cri/testdata/registrymirrorconfig.yaml",
    rt_cri_registryauthconfig => "types/cri/testdata/registryauthconfig.yaml",
    rt_cri_registrytlsconfig => "types/cri/testdata/registrytlsconfig.yaml",
    rt_hardware_pcidriverrebindconfig => "types/hardware/testdata/pcidriverrebindconfig.yaml",
    rt_security_imageverificationconfig => "types/security/testdata/imageverificationconfig.yaml",
    rt_security_trustedrootsconfig => "types/security/testdata/trustedrootsconfig.yaml",
    rt_runtime_environment => "types/runtime/testdata/environment.yaml",
    rt_runtime_eventsink => "types/runtime/testdata/eventsink.yaml",
    rt_runtime_kmsglog => "types/runtime/testdata/kmsglog.yaml",
    rt_runtime_oom => "types/runtime/testdata/oom.yaml",
    rt_runtime_watchdogtimer => "types/runtime/testdata/watchdogtimer.yaml",
    rt_block_existingvolumeconfig_selector => "types/block/testdata/existingvolumeconfig_selector.yaml",
    rt_block_externalvolumeconfig_basicvirtiofs => "types/block/testdata/externalvolumeconfig_basicvirtiofs.yaml",
    rt_block_rawvolumeconfig_diskselector => "types/block/testdata/rawvolumeconfig_diskselector.yaml",
    rt_block_rawvolumeconfig_encrypted => "types/block/testdata/rawvolumeconfig_encrypted.yaml",
    rt_block_swapvolumeconfig_diskselector => "types/block/testdata/swapvolumeconfig_diskselector.yaml",
    rt_block_swapvolumeconfig_encrypted => "types/block/testdata/swapvolumeconfig_encrypted.yaml",
    rt_block_uservolumeconfig_diskselector => "types/block/testdata/uservolumeconfig_diskselector.yaml",
    rt_block_uservolumeconfig_encrypted => "types/block/testdata/uservolumeconfig_encrypted.yaml",
    rt_block_uservolumeconfig_prjquota => "types/block/testdata/uservolumeconfig_prjquota.yaml",
    rt_block_volumeconfig_diskselector => "types/block/testdata/volumeconfig_diskselector.yaml",
    rt_block_volumeconfig_empty => "types/block/testdata/volumeconfig_empty.yaml",
    rt_block_volumeconfig_maxsize => "types/block/testdata/volumeconfig_maxsize.yaml",
    rt_block_volumeconfig_negativemaxsize => "types/block/testdata/volumeconfig_negativemaxsize.yaml",
    rt_block_volumeconfig_state => "types/block/testdata/volumeconfig_state.yaml",
    rt_block_zswapconfig_full => "types/block/testdata/zswapconfig_full.yaml",
    rt_block_zswapconfig_min => "types/block/testdata/zswapconfig_min.yaml",
}

/// The three TPM testdata files are decode-only upstream (not in its marshal tests): go-yaml
/// prints `slot: 0` (not omitempty), block sequences, and drops an empty `pcrs` list
/// (omitempty), so they re-encode differently.
#[test]
fn tpm_testdata_decode_and_canonical_encoding() {
    let Some(dir) = peer_dir() else { return };
    let head = "apiVersion: v1alpha1\nkind: VolumeConfig\nname: STATE\nencryption:\n    provider: luks2\n    keys:\n        - slot: 0\n          tpm:";
    for (file, tail) in [
        ("volumeconfig_tpm_encryption_no_options.yaml", " {}\n"),
        (
            "volumeconfig_tpm_encryption_with_pcr_settings.yaml",
            "\n            options:\n                pcrs:\n                    - 0\n                    - 7\n",
        ),
        ("volumeconfig_tpm_encryption_with_pcrs_disabled.yaml", "\n            options: {}\n"),
    ] {
        let bytes = std::fs::read(dir.join("types/block/testdata").join(file)).unwrap();
        assert_eq!(roundtrip(&bytes).unwrap(), format!("{head}{tail}"), "{file}");
    }
}

#[test]
fn registered_kinds() {
    for (kind, named) in [
        ("SideroLinkConfig", false),
        ("ExtensionServiceConfig", true),
        ("RegistryMirrorConfig", true),
        ("RegistryAuthConfig", true),
        ("RegistryTLSConfig", true),
        ("VolumeConfig", true),
        ("UserVolumeConfig", true),
        ("RawVolumeConfig", true),
        ("SwapVolumeConfig", true),
        ("ExistingVolumeConfig", true),
        ("ExternalVolumeConfig", true),
        ("ZswapConfig", false),
        ("EnvironmentConfig", false),
        ("EventSinkConfig", false),
        ("KmsgLogConfig", true),
        ("OOMConfig", false),
        ("WatchdogTimerConfig", false),
        ("ImageVerificationConfig", false),
        ("TrustedRootsConfig", true),
        ("PCIDriverRebindConfig", true),
    ] {
        let e = lookup(kind).unwrap_or_else(|| panic!("{kind} not registered"));
        assert_eq!(e.named, named, "{kind}");
    }
}

/// configloader/testdata/multidoc2.test: a 2-space indented ExtensionServiceConfig.
#[test]
fn multidoc2_extension_service_config() {
    let Some(dir) = peer_dir() else { return };
    let text = std::fs::read_to_string(dir.join("configloader/testdata/multidoc2.test")).unwrap();
    let out = roundtrip(text.as_bytes()).unwrap();
    assert_eq!(
        out,
        "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n    - content: hello\n      mountPath: /etc/foo\n"
    );
}

/// Upstream `TestExtensionServiceConfigMerge` (docs/merge.md §11.5).
#[test]
fn extension_service_config_merge() {
    let left = "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n  - content: hello\n    mountPath: /etc/foo\n";
    let right = "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n  - content: hello world\n    mountPath: /etc/foo\n  - content: bar\n    mountPath: /etc/bar\n";
    let mut l = decode_as::<talos_config::model::runtime::ExtensionServiceConfig>(left);
    let r = decode_as::<talos_config::model::runtime::ExtensionServiceConfig>(right);
    l.merge_from(&r).unwrap();
    let files: Vec<(&str, &str)> =
        l.config_files.0.iter().map(|f| (f.content.as_str(), f.mount_path.as_str())).collect();
    assert_eq!(files, [("hello world", "/etc/foo"), ("bar", "/etc/bar")]);
}

/// configpatcher multidoc: configFiles keyed by mountPath, environment appended, an empty
/// `content` keeps the existing one.
#[test]
fn extension_service_config_merge_multidoc() {
    let Some(dir) = peer_dir() else { return };
    let dir = dir.join("configpatcher/testdata/multidoc");
    let config = std::fs::read_to_string(dir.join("config.yaml")).unwrap();
    let patch = std::fs::read_to_string(dir.join("strategic2.yaml")).unwrap();
    let base_docs: Vec<&str> = config.split("---\n").collect();
    let patch_docs: Vec<&str> = patch.split("---\n").collect();
    let esc = merge_docs(base_docs[2], patch_docs[1]).unwrap();
    assert_eq!(
        esc,
        "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n    - content: hello world\n      mountPath: /etc/foo\n    - content: another hello\n      mountPath: /etc/bar\nenvironment:\n    - FOO=BAR\n    - XXX=YYY\n"
    );
    let sidero = merge_docs(base_docs[1], patch_docs[0]).unwrap();
    assert_eq!(
        sidero,
        "apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://siderolink.api/join?jointoken=secret&user=bob\n"
    );
    let keep = merge_docs(
        base_docs[2],
        "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n    - mountPath: /etc/foo\n",
    )
    .unwrap();
    assert_eq!(
        keep,
        "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n    - content: hello\n      mountPath: /etc/foo\nenvironment:\n    - FOO=BAR\n"
    );
}

/// The merge rule itself, on typed values (no YAML involved).
#[test]
fn config_file_list_merge_typed() {
    use talos_config::model::runtime::{ConfigFile, ConfigFileList};
    use talos_config::testing::merge_values;
    let f = |c: &str, m: &str| ConfigFile { content: c.into(), mount_path: m.into() };
    let mut left = ConfigFileList(vec![f("a", "/x"), f("b", "/y")]);
    merge_values(&mut left, &ConfigFileList(vec![f("", "/y"), f("c", "/x"), f("d", "/z"), f("e", "/z")])).unwrap();
    // Unlike ImageVerificationConfig rules, the search covers files appended by this same merge:
    // the second `/z` merges into the first.
    assert_eq!(left, ConfigFileList(vec![f("c", "/x"), f("b", "/y"), f("e", "/z")]));
    // An empty patch list changes nothing.
    let before = left.clone();
    merge_values(&mut left, &ConfigFileList::default()).unwrap();
    assert_eq!(left, before);
}

/// A SideroLinkConfig without apiUrl (upstream fuzz corpus) prints `apiUrl: ""`.
#[test]
fn siderolink_without_url() {
    let out = roundtrip(b"apiVersion: v1alpha1\nkind: SideroLinkConfig").unwrap();
    assert_eq!(out, "apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: \"\"\n");
}

#[test]
fn registry_mirror_typed() {
    let m = decode_as::<talos_config::model::cri::RegistryMirrorConfig>(
        "apiVersion: v1alpha1\nkind: RegistryMirrorConfig\nname: ghcr.io\nendpoints:\n  - url: https://a.example:5000\n    overridePath: false\n",
    );
    assert_eq!(Document::name(&m), "ghcr.io");
    assert_eq!(m.endpoints.len(), 1);
    assert_eq!(m.endpoints[0].url.text(), "https://a.example:5000");
    assert_eq!(m.endpoints[0].override_path, Some(false));
    assert_eq!(m.skip_fallback, None);
}

/// `multidoc1.test` is a hand-written loader input; re-encoded, the EventSinkConfig endpoint
/// (a Go string starting with `[`) is single-quoted as go-yaml writes it.
#[test]
fn configloader_multidoc1_canonical_encoding() {
    let Some(dir) = peer_dir() else { return };
    let bytes = std::fs::read(dir.join("configloader/testdata/multidoc1.test")).unwrap();
    assert_eq!(
        roundtrip(&bytes).unwrap(),
        "apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: grpc://172.20.0.1:4000/?jointoken=foo\n---\n\
         apiVersion: v1alpha1\nkind: KmsgLogConfig\nname: apiSink\nurl: tcp://[fdae:41e4:649b:9303::1]:4001/\n---\n\
         apiVersion: v1alpha1\nkind: EventSinkConfig\nendpoint: '[fdae:41e4:649b:9303::1]:8080'\n"
    );
}
