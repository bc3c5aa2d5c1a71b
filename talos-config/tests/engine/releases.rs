//! The same inputs answered as each release: what Talos v1.12.11's and v1.13.9's own code
//! printed for them (recorded with the reference programs, `data/releases/README.md`).
//! `data/releases/<case>/` holds a patch onto the lab's worker config and, per release, the
//! merged config (`<tag>.yaml`) or the error (`<tag>.err`); `data/releases/validate/<case>/`
//! holds a patch, a mode and what `talosctl validate` printed on stderr with its exit code.
//! A case with a `base` file naming `controlplane` patches the lab's control plane instead.

use std::path::{Path, PathBuf};

use talos_config::{Config, Mode, Options, PatchSource, Release, merge_sources_for};

pub(crate) fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/releases")
}

/// The lab's config a case patches: `fixtures/worker.yaml`, or the control plane's when the
/// case's `base` file says `controlplane`.
fn base(case: &Path) -> PatchSource {
    let name = match read(&case.join("base")).as_deref().map(str::trim) {
        None | Some("worker") => "worker.yaml",
        Some("controlplane") => "controlplane.yaml",
        Some(other) => panic!("{}: unknown base {other:?}", case.display()),
    };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    PatchSource::new(name, std::fs::read(path).unwrap())
}

pub(crate) fn read(path: &Path) -> Option<String> {
    std::fs::read(path).ok().map(|b| String::from_utf8(b).unwrap())
}

pub(crate) fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("patch.yaml").is_file())
        .collect();
    out.sort();
    out
}

/// The merge as a release gives it: the config talosctl printed (its stdout ends with one
/// newline more) or its error text (its stderr ends with a newline).
fn merged(case: &Path, release: Release) -> Result<String, String> {
    let patch = PatchSource::new("patch.yaml", read(&case.join("patch.yaml")).unwrap());
    merge_sources_for(&base(case), &[patch], release)
        .map(|bytes| String::from_utf8(bytes).unwrap())
        .map_err(|e| e.to_string())
}

#[test]
fn merges_answer_as_each_release() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases(&data()) {
        for &release in Release::ALL {
            let want = match (read(&case.join(format!("{release}.yaml"))), read(&case.join(format!("{release}.err")))) {
                (Some(out), _) => Ok(out.strip_suffix('\n').unwrap().to_string()),
                (None, Some(err)) => Err(err.strip_suffix('\n').unwrap().to_string()),
                (None, None) => panic!("{}: nothing recorded for {release}", case.display()),
            };
            let got = merged(&case, release);
            if got != want {
                failures.push(format!("{} as {release}:\n got  {got:?}\n want {want:?}", case.display()));
            }
            checked += 1;
        }
    }
    assert_eq!(checked, cases(&data()).len() * Release::ALL.len());
    assert!(checked >= 69, "the recorded cases are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn validation_answers_as_each_release() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases(&data().join("validate")) {
        let mode: Mode = read(&case.join("mode")).unwrap().trim().parse().unwrap();
        for &release in Release::ALL {
            let Some(stderr) = read(&case.join(format!("{release}.stderr"))) else { continue };
            let code: i32 = read(&case.join(format!("{release}.rc"))).unwrap().trim().parse().unwrap();
            let merged = merged(&case, release).unwrap();
            let report = Config::from_bytes_for(merged.as_bytes(), release).unwrap().validate(mode, Options::default());
            let mut got: String = report.warnings.iter().map(|w| format!("WARNING: {w}\n")).collect();
            if let Some(error) = &report.error {
                got.push_str(&format!("{error}\n"));
            }
            if (got.as_str(), i32::from(report.error.is_some())) != (stderr.as_str(), code) {
                failures
                    .push(format!("{} as {release}:\n got  {got:?}\n want {stderr:?} (exit {code})", case.display()));
            }
            checked += 1;
        }
    }
    assert!(checked >= 16, "the recorded cases are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A strategic patch carries the release it was loaded as: applied as another, it is refused
/// rather than mixing two releases' kinds and fields. JSON6902 patches apply as any release.
#[test]
fn a_patch_applies_only_as_the_release_it_was_loaded_as() {
    use talos_config::testing::apply_patches_to_config;
    use talos_config::{Patch, apply_patches_for};
    let base = b"version: v1alpha1\nmachine:\n  type: worker\n";
    let labels = b"machine:\n  nodeLabels:\n    a: b\n";
    let old = Patch::load_for(labels, Release::V1_12_11).unwrap();
    assert_eq!(old.release(), Some(Release::V1_12_11));
    let err = apply_patches_for(base, std::slice::from_ref(&old), Release::V1_13_9).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a patch loaded as Talos v1.12.11 cannot be applied as v1.13.9: load the patches with load_patches_for \
         (or Patch::load_for) and the release of the config they apply to"
    );
    assert_eq!(err.kind(), talos_config::ErrorKind::PatchLoad);
    let config = Config::from_bytes_for(base, Release::V1_13_9).unwrap();
    assert_eq!(apply_patches_to_config(config, std::slice::from_ref(&old)).unwrap_err().to_string(), err.to_string());
    assert!(apply_patches_for(base, &[old], Release::V1_12_11).is_ok());
    let json =
        Patch::load_for(b"[{\"op\": \"add\", \"path\": \"/machine/env\", \"value\": {}}]", Release::V1_12_11).unwrap();
    assert_eq!(json.release(), None);
    assert!(apply_patches_for(base, &[json], Release::V1_13_9).is_ok());
}

/// `labctl diff` and `plan` print documents as the configs' release prints them: go-yaml rc.3
/// (v1.12.11) writes a block scalar that starts with a line break as `|4`, rc.4 as `|`.
#[test]
fn diffs_print_as_the_configs_release() {
    let config = |motd: &str| {
        format!(
            "version: v1alpha1\nmachine:\n  type: worker\n  files:\n    - content: {motd:?}\n      path: /var/etc/motd\n      op: create\n      permissions: 0o644\n"
        )
    };
    let diff = |release| {
        let a = Config::from_bytes_for(config("\nhello\n").as_bytes(), release).unwrap();
        let b = Config::from_bytes_for(config("\nbye\n").as_bytes(), release).unwrap();
        talos_config::diff::compare(&a, &b).documents[0].diff.clone()
    };
    let expected = |header: &str| {
        format!(
            "--- a\n+++ b\n@@ -6,7 +6,7 @@\n     files:\n         - content: {header}\n \n-            hello\n+            bye\n           permissions: 0o644\n           path: /var/etc/motd\n           op: create\n"
        )
    };
    assert_eq!(diff(Release::V1_12_11), expected("|4"));
    assert_eq!(diff(Release::V1_13_9), expected("|"));
}

/// A v1.14 node (`ValidateAtRuntime`) checks the Kubernetes images' versions while validating,
/// the v1alpha1 document's (the kubelet's only when `machine.kubelet` is present) and the
/// Kubernetes documents', and reports them with the runtime checks in one list; `talosctl
/// validate` (a client, `WithLocal`) skips them. Read from upstream (`ValidateAtRuntime`,
/// `ValidateKubernetesVersions`): the reference program has no node.
#[test]
fn a_v1_14_node_checks_the_images_while_validating() {
    let config = "version: v1alpha1\nmachine:\n  type: worker\n  token: abcdef.0123456789abcdef\n  ca:\n    crt: Zm9v\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.31.0\n  install:\n    disk: /dev/sda\n    extensions:\n      - image: ext:v1\ncluster:\n  controlPlane:\n    endpoint: https://10.5.0.2:6443\n---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: kubelet:v1.38.0\nconfig: {}\n";
    let client = Config::from_bytes_for(config.as_bytes(), Release::V1_14_0_RC1)
        .unwrap()
        .validate(Mode::Metal, Options::default());
    assert_eq!(
        client.error.map(|e| e.to_string()),
        Some("1 error occurred:\n\t* kubelet config is already set in v1alpha1 config (.machine.kubelet)\n\n".into())
    );
    let node =
        talos_config::node::check_apply_for(config.as_bytes(), Mode::Metal, false, Release::V1_14_0_RC1).unwrap_err();
    assert_eq!(
        node.message,
        "3 errors occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* kubelet image is not valid: version of Kubernetes 1.31.0 is too old to be used with Talos 1.14.0-rc.1\n\n\n\t* KubeletConfig: kubelet image is not valid: version of Kubernetes 1.38.0 is too new to be used with Talos 1.14.0-rc.1\n\t* kubelet config is already set in v1alpha1 config (.machine.kubelet)\n\n"
    );
}
