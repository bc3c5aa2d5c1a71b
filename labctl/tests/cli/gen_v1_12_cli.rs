//! `labctl gen --talos-release v1.12.11` against talosctl v1.12.11's own `gen config` /
//! `gen secrets`, recorded case by case in `data/gen-v1.12/cases` (the layout of `data/gen`, see
//! its README): cases 001-125 are `data/gen`'s, recorded again with v1.12.11; 126-137 are its
//! `-p/--persist` flag and KubeSpan in `machine.network`. The differences on purpose are
//! `gen_cli.rs`'s (0600 files, nothing written when a file exists, no documentation comments,
//! labctl naming itself, our usage block and help, fresh talosconfig keys). The release is named
//! in each of its forms (`--talos-release v1.12.11`, `--talos-release=v1.12` after the
//! subcommand, `--talos-release 1.12.11` at the end).

use std::path::Path;

use talos_config::Release;

use crate::gen_cases::{Suite, labctl_gen as labctl, words};

const SUITE: Suite = Suite {
    data: "gen-v1.12",
    release: Release::V1_12_11,
    forms: Some(["v1.12.11", "v1.12", "1.12.11"]),
    also_different: &[],
};

#[test]
fn labctl_gen_matches_talosctl_v1_12_case_by_case() {
    SUITE.check_all(137, |_, _| Vec::new());
}

/// `TAG` picks the installer image's tag under v1.12.11 too; its default is v1.12.11's.
#[test]
fn the_tag_variable_and_the_v1_12_default_installer_image() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(SUITE.data_dir().join("secrets.yaml"), dir.path().join("s.yaml")).unwrap();
    let args =
        words(&["config", "--talos-release", "v1.12", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-"]);
    let args = [args, words(&["--with-secrets", "s.yaml"])].concat();
    for (tag, want) in [
        (Some("v9.9.9"), "        image: ghcr.io/siderolabs/installer:v9.9.9"),
        (None, "        image: ghcr.io/siderolabs/installer:v1.12.11"),
    ] {
        let stdout = String::from_utf8(labctl(&args, dir.path(), tag).stdout).unwrap();
        assert_eq!(stdout.lines().find(|l| l.contains("installer")), Some(want), "TAG={tag:?}");
    }
}

/// Without `--talos-release` (or with v1.13.9) `-p/--persist` does not exist, as in talosctl
/// v1.13.9 (pflag's texts); an unknown release is refused with the supported ones.
#[test]
fn persist_is_v1_12s_and_the_release_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let base = words(&["config", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-"]);
    let cases: &[(&[&str], &str)] = &[
        (&["--persist=false"], "unknown flag: --persist"),
        (&["-p=false"], "unknown shorthand flag: 'p' in -p=false"),
        (&["--talos-release", "v1.13.9", "--persist"], "unknown flag: --persist"),
        (&["--persist", "--talos-release=1.13"], "unknown flag: --persist"),
        (
            &["--talos-release", "v1.11"],
            "invalid argument \"v1.11\" for \"--talos-release\" flag: unknown Talos release \"v1.11\": supported \
             releases are v1.12.11, v1.13.9 and v1.14.0-rc.1 (v1.12, v1.13 and v1.14 name them too)",
        ),
    ];
    for (extra, want) in cases {
        let out = labctl(&[base.clone(), words(extra)].concat(), dir.path(), None);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        assert_eq!(stderr.split("\n\nUsage:").next(), Some(*want), "{extra:?}");
    }
    let out = labctl(&words(&["secrets", "--talos-release=v2", "-o", "-"]), dir.path(), None);
    assert!(String::from_utf8(out.stderr).unwrap().starts_with("invalid argument \"v2\" for \"--talos-release\""));
}

/// `--talos-release v1.13.9` is the default; each release's help gives its defaults.
#[test]
fn the_default_release_and_the_help_of_each() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/data/gen/secrets.yaml");
    let base = [
        words(&["config", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-", "--with-secrets"]),
        vec![secrets.display().to_string()],
    ]
    .concat();
    let default = labctl(&base, dir.path(), None);
    let named = labctl(&[base.clone(), words(&["--talos-release", "v1.13.9"])].concat(), dir.path(), None);
    assert!(default.status.success());
    assert_eq!(default.stdout, named.stdout);
    let help = |release: &str| {
        let out = labctl(&words(&["config", "--talos-release", release, "--help"]), dir.path(), None);
        String::from_utf8(out.stdout).unwrap()
    };
    let (old, new) = (help("v1.12"), help("v1.13"));
    assert!(old.contains("  -p, --persist ") && old.contains("(default \"1.35.4\")"), "{old}");
    assert!(!new.contains("--persist") && new.contains("(default \"1.36.3\")"), "{new}");
}
