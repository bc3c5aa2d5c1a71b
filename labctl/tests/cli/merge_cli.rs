//! End-to-end tests of `labctl merge`: the built binary, spawned as a user would run it.
//!
//! * The lab patches of `fixtures/` applied to the lab fixtures (insta snapshots plus exact
//!   expectations built from the fixture bytes), no patch at all, provenance and CI formats.
//! * The helpers the other `merge_*` tests share: Talos's own cases in `merge_peer_cli`, `-o` in
//!   `merge_output_cli`, bad input in `merge_bad_cli`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// ---------------------------------------------------------------------------------------------
// Helpers (shared by the merge_* tests)
// ---------------------------------------------------------------------------------------------

/// The workspace root (the parent of `labctl/`): `fixtures/` lives there, and the lab commands
/// are run from there, as a user would (`labctl merge fixtures/worker.yaml -p @fixtures/...`).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

/// Runs `labctl <args>` in `cwd`.
pub(crate) fn labctl_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(args)
        .current_dir(cwd)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("failed to spawn labctl")
}

/// Runs `labctl <args>` in the workspace root.
pub(crate) fn labctl(args: &[&str]) -> Output {
    labctl_in(&root(), args)
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts success with nothing on stderr, and returns stdout.
pub(crate) fn success(out: &Output, what: &str) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{what}: expected success, got {:?}\n--- stderr ---\n{}",
        out.status.code(),
        text(&out.stderr)
    );
    assert_eq!(text(&out.stderr), "", "{what}: stderr must be empty on success");
    out.stdout.clone()
}

/// Asserts exit code 1, nothing on stdout, and that stderr is exactly Talos's text `message`
/// followed by `\n`, optionally followed by one `labctl: in <input> at line ...` hint line.
pub(crate) fn failure(out: &Output, message: &str, what: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: expected exit code 1\n--- stderr ---\n{stderr}");
    assert_eq!(text(&out.stdout), "", "{what}: stdout must be empty on error");
    let expected = format!("{message}\n");
    assert!(
        stderr.starts_with(&expected),
        "{what}: stderr must start with Talos's text\n--- expected ---\n{expected}--- got ---\n{stderr}"
    );
    let rest = &stderr[expected.len()..];
    assert!(
        rest.is_empty()
            || (rest.starts_with("labctl: in ")
                && rest.contains(" at line ")
                && rest.ends_with('\n')
                && rest.matches('\n').count() == 1),
        "{what}: after Talos's text only one `labctl: in <input> at line L` hint may follow, got:\n{rest}"
    );
}

pub(crate) fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

pub(crate) fn path_str(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// Asserts `path` is a regular file with mode 0644.
pub(crate) fn assert_mode_0644(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).expect("output file metadata").permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{} must have mode 0644, has {:o}", path.display(), mode & 0o777);
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// The files in `dir`, sorted (to check that no temporary file is left behind).
pub(crate) fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---------------------------------------------------------------------------------------------
// The lab patches on the lab fixtures (lab/steps.md steps 5-8)
// ---------------------------------------------------------------------------------------------

/// `labctl merge fixtures/worker.yaml -p @fixtures/<p>...` from the workspace root; stdout.
pub(crate) fn merge_worker(patches: &[&str]) -> String {
    let patch_args: Vec<String> = patches.iter().map(|p| format!("@fixtures/{p}")).collect();
    let mut args = vec!["merge", "fixtures/worker.yaml"];
    for p in &patch_args {
        args.push("-p");
        args.push(p);
    }
    let what = format!("worker.yaml + {patches:?}");
    String::from_utf8(success(&labctl(&args), &what)).expect("output is UTF-8")
}

/// The worker fixture with `machine` lines inserted (the fixture is already in Talos's canonical
/// encoding, so a strategic patch only adds the new lines), printed to stdout (+ `\n`).
fn worker_with(after_line: &str, insert: &str) -> String {
    let worker = text(&read(&root().join("fixtures/worker.yaml")));
    let at = worker.find(after_line).unwrap_or_else(|| panic!("{after_line:?} not in fixtures/worker.yaml"));
    let at = at + after_line.len();
    format!("{}{insert}{}\n", &worker[..at], &worker[at..])
}

/// The last line of the worker's `machine` section: `nodeLabels` (the last `MachineConfig`
/// field) comes right after it.
const END_OF_MACHINE: &str = "            forwardKubeDNSToHost: true\n";
/// `extraArgs` follows `image` in `KubeletConfig`.
const KUBELET_IMAGE: &str = "        image: ghcr.io/siderolabs/kubelet:v1.36.3\n";

#[test]
fn lab_fixture_worker_is_canonical() {
    // A no-op strategic step re-encodes the fixture; it must come back byte for byte.
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "machine: {}"]);
    let want = format!("{}\n", text(&read(&root().join("fixtures/worker.yaml"))));
    assert_eq!(text(&success(&out, "worker.yaml + machine: {}")), want);
}

#[test]
fn lab_fixture_controlplane_is_canonical() {
    let out = labctl(&["merge", "fixtures/controlplane.yaml", "-p", "machine: {}"]);
    let want = format!("{}\n", text(&read(&root().join("fixtures/controlplane.yaml"))));
    assert_eq!(text(&success(&out, "controlplane.yaml + machine: {}")), want);
}

#[test]
fn lab_05_labels() {
    let out = merge_worker(&["05-labels.yaml"]);
    assert_eq!(out, worker_with(END_OF_MACHINE, "    nodeLabels:\n        lab.talos.dev/pool: blue\n"));
    insta::assert_snapshot!("lab_05_labels", out);
}

#[test]
fn lab_06_canary() {
    let out = merge_worker(&["06-canary.yaml"]);
    // "on" is a YAML 1.1 bool: Talos's encoder double-quotes it, so it stays a string.
    assert_eq!(out, worker_with(END_OF_MACHINE, "    nodeLabels:\n        lab.talos.dev/canary: \"on\"\n"));
    insta::assert_snapshot!("lab_06_canary", out);
}

#[test]
fn lab_05_then_06() {
    let out = merge_worker(&["05-labels.yaml", "06-canary.yaml"]);
    // Map keys of nodeLabels are printed sorted.
    assert_eq!(
        out,
        worker_with(
            END_OF_MACHINE,
            "    nodeLabels:\n        lab.talos.dev/canary: \"on\"\n        lab.talos.dev/pool: blue\n"
        )
    );
    insta::assert_snapshot!("lab_05_06", out);
}

#[test]
fn lab_07_bad_merges_without_validation() {
    // `merge` does not validate (like `talosctl machineconfig patch`): the bad label name merges.
    let out = merge_worker(&["07-bad.yaml"]);
    assert_eq!(out, worker_with(END_OF_MACHINE, "    nodeLabels:\n        lab.talos.dev/team name: platform\n"));
    insta::assert_snapshot!("lab_07_bad", out);
}

#[test]
fn lab_08_kubelet() {
    let out = merge_worker(&["08-kubelet.yaml"]);
    assert_eq!(out, worker_with(KUBELET_IMAGE, "        extraArgs:\n            max-pod: \"150\"\n"));
    insta::assert_snapshot!("lab_08_kubelet", out);
}

#[test]
fn lab_08_fix_restores_05_06_byte_for_byte() {
    let before = merge_worker(&["05-labels.yaml", "06-canary.yaml"]);
    let broken = merge_worker(&["05-labels.yaml", "06-canary.yaml", "08-kubelet.yaml"]);
    // 08 adds the arg (and nothing else) to the 05+06 result.
    let at = before.find(KUBELET_IMAGE).expect("the kubelet image line") + KUBELET_IMAGE.len();
    let expected = format!("{}        extraArgs:\n            max-pod: \"150\"\n{}", &before[..at], &before[at..]);
    assert_eq!(broken, expected);
    let fixed = merge_worker(&["05-labels.yaml", "06-canary.yaml", "08-kubelet.yaml", "08-fix.yaml"]);
    assert_eq!(fixed, before, "05+06+08+08-fix must give back the 05+06 result byte for byte");
    insta::assert_snapshot!("lab_05_06_08_08fix", fixed);
}

#[test]
fn lab_08_fix_alone_fails_lookup() {
    // Deleting a key of a map that does not exist (the worker has no extraArgs) is Talos's
    // `lookup failed` (docs/merge.md §5.3): applying the fix twice is an error.
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/08-fix.yaml"]);
    failure(
        &out,
        "patch delete: path 'machine.kubelet.extraArgs.max-pod' in document '/v1alpha1': failed to delete path \
         'machine.kubelet.extraArgs.max-pod': lookup failed",
        "worker.yaml + 08-fix.yaml",
    );
}

#[test]
fn lab_patch_without_at_is_a_file_name() {
    // talosctl's rule: no space/newline and not starting with [ or { → a file name.
    let with_at = merge_worker(&["05-labels.yaml"]);
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "fixtures/05-labels.yaml"]);
    assert_eq!(text(&success(&out, "-p fixtures/05-labels.yaml")), with_at);
}

#[test]
fn lab_inline_patch_and_long_flag() {
    let from_file = merge_worker(&["05-labels.yaml"]);
    let out = labctl(&[
        "merge",
        "fixtures/worker.yaml",
        "--patch",
        "machine:\n  nodeLabels:\n    lab.talos.dev/pool: blue\n",
    ]);
    assert_eq!(text(&success(&out, "inline 05")), from_file);
}

#[test]
fn lab_patch_with_comma_is_not_split() {
    // -p is a string array: a comma is part of the value (here: of an inline patch).
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "machine: {nodeLabels: {a: 'x,y'}}"]);
    assert_eq!(text(&success(&out, "comma")), worker_with(END_OF_MACHINE, "    nodeLabels:\n        a: x,y\n"));
}

// ---------------------------------------------------------------------------------------------
// No patches
// ---------------------------------------------------------------------------------------------

#[test]
fn no_patch_echoes_input() {
    for fixture in ["fixtures/worker.yaml", "fixtures/controlplane.yaml"] {
        let out = labctl(&["merge", fixture]);
        let want = format!("{}\n", text(&read(&root().join(fixture))));
        assert_eq!(text(&success(&out, fixture)), want);
    }
}

#[test]
fn no_patch_echoes_input_verbatim_even_if_not_canonical() {
    // Zero patches: the bytes are not decoded at all (comments, odd indentation, even invalid
    // configs come back unchanged).
    let tmp = tempfile::tempdir().expect("temp dir");
    let input = b"# a comment\nmachine:\n   type: worker\n   foo: [unknown, key]\n";
    let config = tmp.path().join("in.yaml");
    std::fs::write(&config, input).expect("write input");
    let out = labctl(&["merge", path_str(&config)]);
    let mut want = input.to_vec();
    want.push(b'\n');
    assert_eq!(success(&out, "no -p"), want);

    let target = tmp.path().join("copy.yaml");
    let out = labctl(&["merge", path_str(&config), "-o", path_str(&target)]);
    assert_eq!(text(&success(&out, "no -p, -o")), "");
    assert_eq!(read(&target), input);
}

#[test]
fn help_describes_merge() {
    let out = labctl(&["--help"]);
    let help = text(&success(&out, "--help"));
    assert!(help.contains("merge"), "{help}");
    let out = labctl(&["merge", "--help"]);
    let help = text(&success(&out, "merge --help"));
    for needle in ["CONFIG", "--patch", "@file", "--output", "talosctl machineconfig patch"] {
        assert!(help.contains(needle), "merge --help must mention {needle}:\n{help}");
    }
}

/// go-yaml accepts 10,000 nesting levels; labctl must not crash on deep input (the library
/// recurses over the tree, so labctl runs it on a large stack).
#[test]
fn deeply_nested_patch_merges() {
    let depth = 9_000;
    let patch =
        format!("machine:\n  kubelet:\n    extraConfig:\n      x: {}{}\n", "[".repeat(depth), "]".repeat(depth));
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", &patch]);
    let stdout = text(&success(&out, "deep merge"));
    let expected = format!("            x:\n{}{}[]\n", " ".repeat(16), "- ".repeat(depth - 1));
    assert!(stdout.contains(&expected), "the nested list is printed on one dash line");
}

#[test]
fn provenance_names_the_patch_line_of_each_label_and_the_removed_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args([
            "merge",
            "fixtures/worker.yaml",
            "-p",
            "@fixtures/05-labels.yaml",
            "-p",
            "@fixtures/08-kubelet.yaml",
            "-p",
            "@fixtures/08-fix.yaml",
            "--provenance",
        ])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("    nodeLabels:\n        lab.talos.dev/pool: blue  # fixtures/05-labels.yaml:3:5\n"),
        "{text}"
    );
    assert!(
        text.ends_with("# removed: machine.kubelet.extraArgs.max-pod (set at fixtures/08-kubelet.yaml:4:7) by fixtures/08-fix.yaml:4:7\n"),
        "{text}"
    );
    insta::assert_snapshot!("merge_provenance_lab", text);
}

#[test]
fn a_merge_error_in_ci_formats() {
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/08-fix.yaml", "--error-format", "github"]);
    assert_eq!(
        text(&out.stdout),
        "::error file=fixtures/08-fix.yaml,line=1,col=1,title=talos-merge::patch delete: path 'machine.kubelet.extraArgs.max-pod' in document '/v1alpha1': failed to delete path 'machine.kubelet.extraArgs.max-pod': lookup failed%0AFix: fix the input named here as the message says; nothing else was checked\n"
    );
    assert_eq!(text(&out.stderr), "labctl merge: 1 error, 0 warnings, 0 infos\n");
    assert_eq!(out.status.code(), Some(1));
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml", "--error-format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("version: v1alpha1\n"), "a good merge prints the config as always");
}

/// `--version` says which Talos release labctl follows.
#[test]
fn version_names_the_talos_release() {
    let out = labctl(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "labctl 0.1.0 (Talos v1.13.9)\n");
}
