//! `labctl gen` against talosctl v1.13.9's own `gen config` / `gen secrets`, recorded case by
//! case in `data/gen/cases` (see its README): the same exit code, stdout, stderr and file set,
//! byte for byte, except for the documented differences, each checked here as what we do instead:
//! - files are written 0600 (talosctl: 0644 for configs and talosconfig);
//! - nothing is written when any output file exists (talosctl writes the first files, then fails);
//! - Talos's documentation comments are not written (labctl's `--with-docs` and
//!   `--with-examples` default to false, and true is refused): a case without
//!   `--with-docs=false` is compared as data (both sides loaded and encoded again);
//! - labctl names itself in its messages (`unknown command "x" for "labctl gen secrets"`);
//! - after a flag error, the usage that follows talosctl's message is ours, as is `--help`;
//! - the talosconfig's client certificate and key are fresh each run (checked for shape), as
//!   is what a bundle made from a Kubernetes PKI adds to it (compared as layout; the taken CAs,
//!   key and token byte for byte).

use std::process::Command;

use talos_config::Release;

use crate::gen_cases::Suite;

const SUITE: Suite = Suite { data: "gen", release: Release::V1_13_9, forms: None, also_different: &[] };

#[test]
fn labctl_gen_matches_talosctl_case_by_case() {
    SUITE.check_all(100, |_, _| Vec::new());
}

/// The `TAG` environment variable picks the default installer image's tag, as it does for
/// talosctl (recorded: `TAG=v9.9.9` and `TAG=` with talosctl v1.13.9's own gen config).
#[test]
fn the_tag_variable_sets_the_default_installer_image() {
    let secrets = SUITE.data_dir().join("secrets.yaml");
    for (tag, want) in [
        (Some("v9.9.9"), "        image: ghcr.io/siderolabs/installer:v9.9.9"),
        (Some(""), "        image: 'ghcr.io/siderolabs/installer:'"),
        (None, "        image: ghcr.io/siderolabs/installer:v1.13.9"),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_labctl"));
        command.args(["gen", "config", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-", "--with-secrets"]);
        command.arg(&secrets);
        match tag {
            Some(tag) => command.env("TAG", tag),
            None => command.env_remove("TAG"),
        };
        let out = command.output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let image = stdout.lines().find(|l| l.contains("installer")).unwrap();
        assert_eq!(image, want, "TAG={tag:?}");
    }
}

/// Where talosctl crashes (a nil pointer in `NewBundleFromConfig`: a config without the v1alpha1
/// document), labctl says why, writes nothing and exits 1.
#[test]
fn a_config_without_the_v1alpha1_document_has_no_secrets_to_take() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.yaml"), "apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: x\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(["gen", "secrets", "--from-controlplane-config", "h.yaml", "-o", "s.yaml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "labctl gen secrets: h.yaml has no v1alpha1 document (machine, cluster): no secrets to take\n\
         give the controlplane.yaml that gen config wrote\n"
    );
    assert!(!dir.path().join("s.yaml").exists());
}
