//! End-to-end tests of `labctl plan`: the reboot prediction for the lab's patches and for a
//! change that needs a reboot, with the patch line of each field, JSON, and `--fail-on-reboot`.

use std::path::Path;
use std::process::{Command, Output};

fn labctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn the_lab_patches_apply_without_a_reboot() {
    for patch in ["@fixtures/05-labels.yaml", "@fixtures/06-canary.yaml", "@fixtures/08-kubelet.yaml"] {
        let out = labctl(&["plan", "fixtures/worker.yaml", "-p", patch, "--fail-on-reboot"]);
        assert_eq!(
            text(&out.stdout),
            "--mode auto: applied without a reboot\n--mode no-reboot and --mode try: accepted\n",
            "{patch}"
        );
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn a_reboot_names_each_field_and_its_patch_line() {
    let patch = "machine:\n  env:\n    A: b\n  nodeLabels:\n    pool: blue\n";
    let out = labctl(&["plan", "fixtures/worker.yaml", "-p", patch]);
    assert_eq!(
        text(&out.stdout),
        "--mode auto: applied with a reboot, because of:\n  machine.env  (inline patch #1:2:3)\n--mode no-reboot and --mode try: refused (this config change can't be applied in immediate mode)\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let out = labctl(&["plan", "fixtures/worker.yaml", "-p", patch, "--output", "json", "--fail-on-reboot"]);
    assert_eq!(
        text(&out.stdout),
        "{\n  \"version\": 1,\n  \"auto\": \"reboot\",\n  \"live_possible\": false,\n  \"reboot_fields\": [\n    {\n      \"path\": \"machine.env\",\n      \"set_at\": \"inline patch #1:2:3\"\n    }\n  ]\n}\n"
    );
    assert_eq!(text(&out.stderr), "labctl plan: the change needs a reboot (--fail-on-reboot)\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bad_input_is_an_error() {
    let out = labctl(&["plan", "fixtures/worker.yaml", "-p", "@fixtures/08-fix.yaml"]);
    assert_eq!(
        text(&out.stderr),
        "patch delete: path 'machine.kubelet.extraArgs.max-pod' in document '/v1alpha1': failed to delete path 'machine.kubelet.extraArgs.max-pod': lookup failed\n"
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
}
