//! `labctl` and `labctl-lab`: `labctl` runs the small commands itself and hands everything else to
//! `labctl-lab` (installed next to it), and what the user sees is the same either way: the same
//! bytes on stdout and stderr, the same exit code, usage texts that say `labctl`.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output};

const FRONT: &str = env!("CARGO_BIN_EXE_labctl");
const FULL: &str = env!("CARGO_BIN_EXE_labctl-lab");

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Runs `program` as `labctl` (its `argv[0]`), in English whatever the machine's locale.
fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .arg0("labctl")
        .args(args)
        .current_dir(root())
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_same(args: &[&str]) {
    let front = run(FRONT, args);
    let full = run(FULL, args);
    assert_eq!(text(&front.stdout), text(&full.stdout), "stdout of {args:?}");
    assert_eq!(text(&front.stderr), text(&full.stderr), "stderr of {args:?}");
    assert_eq!(front.status.code(), full.status.code(), "exit code of {args:?}");
}

/// What `labctl` hands over (help, `lab`, `sim`, no command, an unknown word) and what it runs
/// itself (the shared subcommands' help and usage errors) reads exactly as from `labctl-lab`.
#[test]
fn labctl_and_labctl_lab_say_the_same() {
    let cases: &[&[&str]] = &[
        &[],
        &["--help"],
        &["-h"],
        &["help"],
        &["help", "lab"],
        &["help", "merge"],
        &["lab"],
        &["lab", "--help"],
        &["lab", "run", "--help"],
        &["lab", "check", "-h"],
        &["lab", "check", "--output", "yaml"],
        &["sim", "--help"],
        &["sim", "up", "--help"],
        &["mrege"],
        &["--lang", "ja"],
        &["--version"],
        &["-V"],
        &["merge", "--help"],
        &["merge", "-h"],
        &["merge", "--version"],
        &["merge"],
        &["merge", "--bogus"],
        &["validate", "--help"],
        &["lint", "--help"],
        &["lint", "--bogus"],
        &["plan", "--help"],
        &["diff", "--help"],
        &["lsp", "--help"],
        &["schema", "--help"],
        &["gen", "--help"],
        &["gen", "config", "--help"],
        &["merge", "fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml"],
        &["validate", "--mode", "container", "--config", "fixtures/worker.yaml"],
    ];
    for args in cases {
        assert_same(args);
    }
}

/// `labctl lab run --help` is `labctl-lab`'s, in the learner's language too.
#[test]
fn lab_help_comes_from_labctl_lab() {
    let front = run(FRONT, &["lab", "run", "--help"]);
    assert!(front.status.success(), "{}", text(&front.stderr));
    assert!(text(&front.stdout).contains("Usage: labctl lab run [OPTIONS]"), "{}", text(&front.stdout));
    assert_eq!(front.stdout, run(FULL, &["lab", "run", "--help"]).stdout);
    for lang in ["ja", "en"] {
        let front = run(FRONT, &["lab", "run", "--help", "--lang", lang]);
        let full = run(FULL, &["lab", "run", "--help", "--lang", lang]);
        assert!(front.status.success(), "{}", text(&front.stderr));
        assert_eq!(text(&front.stdout), text(&full.stdout), "--lang {lang}");
    }
}

/// Without `labctl-lab` next to it, `labctl` says which file it looked for and how to get it;
/// the small commands still work.
#[test]
fn a_missing_labctl_lab_is_named() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().canonicalize().expect("canonical temp dir");
    let alone = dir.join("labctl");
    std::fs::copy(FRONT, &alone).expect("copy labctl");
    let alone = alone.to_str().expect("UTF-8 path");
    for args in [&["lab", "check"][..], &["sim", "up"], &["--help"], &[]] {
        let out = run(alone, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "labctl: cannot run {}: no such file or directory\n\
                 labctl runs `lab`, `sim` and its help with labctl-lab, installed next to it: reinstall labctl to get \
                 both (cargo install labctl; from a checkout: cargo install --path labctl)\n",
                dir.join("labctl-lab").display()
            ),
            "{args:?}"
        );
    }
    let out = run(alone, &["validate", "--mode", "container", "--config", "fixtures/worker.yaml"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "fixtures/worker.yaml is valid for container mode\n");
}
