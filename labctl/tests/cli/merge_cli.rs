//! End-to-end tests of `labctl merge`: the built binary, spawned as a user would run it.
//!
//! * Talos v1.13.9's own configpatcher cases (docs/merge.md §11.1), read from the folder named by
//!   `TALOS_PEER_DIR` (never copied into this repository), through stdout and through `-o`.
//! * The lab patches of `fixtures/` applied to the lab fixtures (insta snapshots plus exact
//!   expectations built from the fixture bytes).
//! * Bad input: exit code 1, Talos's exact error text on stderr, an `-o` target left untouched.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The workspace root (the parent of `labctl/`): `fixtures/` lives there, and the lab commands
/// are run from there, as a user would (`labctl merge fixtures/worker.yaml -p @fixtures/...`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

/// Runs `labctl <args>` in `cwd`.
fn labctl_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(args)
        .current_dir(cwd)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("failed to spawn labctl")
}

/// Runs `labctl <args>` in the workspace root.
fn labctl(args: &[&str]) -> Output {
    labctl_in(&root(), args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts success with nothing on stderr, and returns stdout.
fn success(out: &Output, what: &str) -> Vec<u8> {
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
fn failure(out: &Output, message: &str, what: &str) {
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

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// Asserts `path` is a regular file with mode 0644.
fn assert_mode_0644(path: &Path) {
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
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---------------------------------------------------------------------------------------------
// Talos v1.13.9 peer data (docs/merge.md §11.1)
// ---------------------------------------------------------------------------------------------

/// `$TALOS_PEER_DIR/configpatcher/testdata`, or `None` (loudly; a failure under `CI=true`)
/// when the peer data is not available. A relative `TALOS_PEER_DIR` (as `.ci/run` sets it) is
/// taken relative to the workspace root, where `.ci/run` runs, not to `labctl/`.
fn peer_testdata() -> Option<PathBuf> {
    let problem = match std::env::var_os("TALOS_PEER_DIR").filter(|d| !d.is_empty()).map(PathBuf::from) {
        None => "TALOS_PEER_DIR is not set (or empty)".to_string(),
        Some(dir) => {
            let dir = if dir.is_relative() { root().join(dir) } else { dir };
            let testdata = dir.join("configpatcher/testdata");
            if testdata.is_dir() {
                return Some(testdata);
            }
            format!("TALOS_PEER_DIR points to {}, which has no configpatcher/testdata", dir.display())
        }
    };
    let msg = format!(
        "{problem}: the Talos v1.13.9 peer data is missing, the labctl merge conformance tests did NOT run \
         (set TALOS_PEER_DIR=/path/to/shared/peer/talos-v1.13.9)"
    );
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{msg}");
    }
    // Straight to the process's stderr, past libtest's output capture, so it is seen.
    let _ = writeln!(std::io::stderr(), "\n!!!!!!!! {msg} !!!!!!!!\n");
    None
}

/// `labctl merge <case>/<config> -p @<case>/<patch>... [extra args]`, run in the workspace root
/// with absolute paths.
fn merge_peer(dir: &Path, config: &str, patches: &[&str], extra: &[&str]) -> Output {
    let config = dir.join(config);
    let patch_args: Vec<String> = patches.iter().map(|p| format!("@{}", dir.join(p).display())).collect();
    let mut args = vec!["merge", path_str(&config)];
    for p in &patch_args {
        args.push("-p");
        args.push(p);
    }
    args.extend_from_slice(extra);
    labctl(&args)
}

/// One successful upstream case: stdout is the expected bytes plus `\n`; with `-o` into a new
/// nested directory the file holds exactly the expected bytes and stdout is empty.
/// Returns the path of the `-o` output (inside a temp dir kept alive by the caller's guard).
fn peer_case_ok(case: &str, config: &str, patches: &[&str], expected: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let dir = peer_testdata()?.join(case);
    let expected = read(&dir.join(expected));
    let what = format!("{case}: {config} + {patches:?}");

    let stdout = success(&merge_peer(&dir, config, patches, &[]), &what);
    let mut want = expected.clone();
    want.push(b'\n');
    assert_eq!(text(&stdout), text(&want), "{what}: stdout must be the expected bytes + \\n");
    assert_eq!(stdout, want, "{what}: stdout bytes");

    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("new/nested/out.yaml");
    let stdout = success(&merge_peer(&dir, config, patches, &["-o", path_str(&out)]), &what);
    assert_eq!(text(&stdout), "", "{what}: nothing on stdout with -o");
    let written = read(&out);
    assert_eq!(text(&written), text(&expected), "{what}: -o file must be exactly the expected bytes");
    assert_eq!(written, expected, "{what}: -o file bytes");
    assert_mode_0644(&out);
    assert_eq!(listing(out.parent().expect("parent")), ["out.yaml"], "{what}: no temporary file left");
    Some((tmp, out))
}

/// One failing upstream case: exit 1, stderr starts with Talos's text; with `-o` no file (and no
/// directory) is created.
fn peer_case_err(case: &str, config: &str, patches: &[&str], message: &str) {
    let Some(testdata) = peer_testdata() else { return };
    let dir = testdata.join(case);
    let what = format!("{case}: {config} + {patches:?}");

    failure(&merge_peer(&dir, config, patches, &[]), message, &what);

    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("new/nested/out.yaml");
    failure(&merge_peer(&dir, config, patches, &["-o", path_str(&out)]), message, &what);
    assert!(!out.exists(), "{what}: no output file may be created on error");
    assert_eq!(listing(tmp.path()), Vec::<String>::new(), "{what}: nothing may be created on error");
}

#[test]
fn peer_apply() {
    peer_case_ok(
        "apply",
        "config.yaml",
        &["strategic1.yaml", "jsonpatch1.yaml", "jsonpatch2.yaml", "strategic2.yaml", "strategic3.yaml"],
        "expected.yaml",
    );
}

#[test]
fn peer_apply_multi_doc_fail() {
    peer_case_err(
        "multidoc",
        "config.yaml",
        &["jsonpatch.yaml", "strategic1.yaml"],
        "JSON6902 patches are not supported for multi-document machine configuration",
    );
}

#[test]
fn peer_apply_multi_doc() {
    peer_case_ok("multidoc", "config.yaml", &["strategic1.yaml", "strategic2.yaml"], "expected.yaml");
}

#[test]
fn peer_apply_audit_policy() {
    peer_case_ok("auditpolicy", "config.yaml", &["patch1.yaml"], "expected.yaml");
}

#[test]
fn peer_apply_with_manifest_newline() {
    let Some((_tmp, out)) = peer_case_ok("apply", "config.yaml", &["strategic4.yaml"], "expected_manifests.yaml")
    else {
        return;
    };
    // Upstream then loads the result again: a strategic step (which decodes it) must succeed.
    let reloaded = labctl(&["merge", path_str(&out), "-p", "machine: {}"]);
    success(&reloaded, "apply/expected_manifests.yaml must load again");
}

#[test]
fn peer_apply_multi_doc_delete() {
    peer_case_ok("patchdelete", "config.yaml", &["strategic1.yaml"], "expected.yaml");
}

#[test]
fn peer_apply_multi_doc_cp_delete() {
    peer_case_ok(
        "patchdelete",
        "controlplane_orig.yaml",
        &["strategic2.yaml", "strategic3.yaml", "strategic4.yaml"],
        "controlplane_expected.yaml",
    );
}

#[test]
fn peer_patch_delete_missing() {
    peer_case_err(
        "patchdeletemissing",
        "config.yaml",
        &["strategic1.yaml"],
        "patch delete: path 'machine.network.hostname' in document '/v1alpha1': failed to delete path \
         'machine.network.hostname': lookup failed",
    );
}

#[test]
fn peer_patch_link() {
    peer_case_ok("patchlink", "base.yaml", &["patch.yaml"], "expected.yaml");
}

// ---------------------------------------------------------------------------------------------
// The lab patches on the lab fixtures (lab/steps.md steps 5-8)
// ---------------------------------------------------------------------------------------------

/// `labctl merge fixtures/worker.yaml -p @fixtures/<p>...` from the workspace root; stdout.
fn merge_worker(patches: &[&str]) -> String {
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

#[test]
fn lab_output_file_and_cwd_relative_output() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let stdout = merge_worker(&["05-labels.yaml", "06-canary.yaml"]);
    // Relative -o, resolved against the working directory; fixtures given by absolute path.
    let worker = root().join("fixtures/worker.yaml");
    let p05 = format!("@{}", root().join("fixtures/05-labels.yaml").display());
    let p06 = format!("@{}", root().join("fixtures/06-canary.yaml").display());
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-p", &p05, "-p", &p06, "-o", "out/merged.yaml"]);
    assert_eq!(text(&success(&out, "-o out/merged.yaml")), "");
    let written = read(&tmp.path().join("out/merged.yaml"));
    assert_eq!(format!("{}\n", text(&written)), stdout, "-o gets exactly the bytes, stdout adds one \\n");
    assert_mode_0644(&tmp.path().join("out/merged.yaml"));

    // Overwriting an existing file replaces it completely.
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "out/merged.yaml"]);
    assert_eq!(text(&success(&out, "-o overwrite")), "");
    assert_eq!(read(&tmp.path().join("out/merged.yaml")), read(&worker));
    assert_eq!(listing(&tmp.path().join("out")), ["merged.yaml"], "no temporary file left");
}

/// The permission bits of `path`.
#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

#[cfg(unix)]
#[test]
fn output_through_a_symlink_writes_the_target() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker = root().join("fixtures/worker.yaml");
    std::fs::create_dir(tmp.path().join("real")).expect("mkdir real");
    std::fs::write(tmp.path().join("real/config.yaml"), b"old").expect("write target");
    // A relative link, through a second link (a chain), in another directory.
    std::os::unix::fs::symlink("real/config.yaml", tmp.path().join("hop.yaml")).expect("symlink hop");
    std::os::unix::fs::symlink("hop.yaml", tmp.path().join("link.yaml")).expect("symlink link");
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "link.yaml"]);
    assert_eq!(text(&success(&out, "-o link.yaml")), "");
    for link in ["link.yaml", "hop.yaml"] {
        let meta = std::fs::symlink_metadata(tmp.path().join(link)).expect("link metadata");
        assert!(meta.file_type().is_symlink(), "{link} must stay a symlink");
    }
    assert_eq!(std::fs::read_link(tmp.path().join("link.yaml")).expect("read link"), Path::new("hop.yaml"));
    assert_eq!(read(&tmp.path().join("real/config.yaml")), read(&worker));
    assert_eq!(listing(tmp.path()), ["hop.yaml", "link.yaml", "real"]);
    assert_eq!(listing(&tmp.path().join("real")), ["config.yaml"], "no temporary file left");

    // A dangling link creates its target.
    std::os::unix::fs::symlink("real/new.yaml", tmp.path().join("dangling.yaml")).expect("symlink dangling");
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "dangling.yaml"]);
    assert_eq!(text(&success(&out, "-o dangling.yaml")), "");
    assert!(std::fs::symlink_metadata(tmp.path().join("dangling.yaml")).expect("link").file_type().is_symlink());
    assert_eq!(read(&tmp.path().join("real/new.yaml")), read(&worker));

    // A link loop fails like Go's open.
    std::os::unix::fs::symlink("loop.yaml", tmp.path().join("loop.yaml")).expect("symlink loop");
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "loop.yaml"]);
    failure(&out, "open loop.yaml: too many levels of symbolic links", "-o loop.yaml");
}

#[cfg(unix)]
#[test]
fn output_keeps_an_existing_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker = root().join("fixtures/worker.yaml");
    for mode in [0o600, 0o755, 0o640] {
        let target = tmp.path().join(format!("out-{mode:o}.yaml"));
        std::fs::write(&target, b"old").expect("write target");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let out = labctl(&["merge", "fixtures/worker.yaml", "-o", path_str(&target)]);
        assert_eq!(text(&success(&out, "-o existing")), "");
        assert_eq!(read(&target), read(&worker));
        assert_eq!(mode_of(&target), mode, "{} keeps its mode", target.display());
    }
}

#[cfg(unix)]
#[test]
fn new_output_file_gets_0644_less_the_umask() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker = root().join("fixtures/worker.yaml");
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("027", 0o640), ("000", 0o644)] {
        let target = tmp.path().join(format!("new-{umask}.yaml"));
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_labctl"))
            .args(["merge", path_str(&worker), "-o", path_str(&target)])
            .output()
            .expect("spawn sh");
        assert_eq!(text(&success(&out, "-o new")), "");
        assert_eq!(read(&target), read(&worker));
        assert_eq!(mode_of(&target), mode, "umask {umask}");
    }
}

#[test]
fn output_dir_blocked_by_a_file() {
    // Go's MkdirAll names the ancestor that is not a directory.
    let tmp = tempfile::tempdir().expect("temp dir");
    let file = tmp.path().join("file");
    std::fs::write(&file, b"x").expect("write file");
    let out = file.join("sub/out.yaml");
    let res = labctl(&["merge", "fixtures/worker.yaml", "-o", path_str(&out)]);
    failure(
        &res,
        &format!("failed to create output dir: mkdir {}: not a directory", file.display()),
        "-o under a file",
    );
    assert_eq!(read(&file), b"x");
}

#[test]
fn output_is_a_directory() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let res = labctl(&["merge", "fixtures/worker.yaml", "-o", path_str(tmp.path())]);
    failure(&res, &format!("open {}: is a directory", tmp.path().display()), "-o a directory");
    assert_eq!(listing(tmp.path()), Vec::<String>::new());
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

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

/// A temp dir holding `existing.yaml` with known bytes, to check an `-o` target is untouched.
struct Target {
    dir: tempfile::TempDir,
    path: PathBuf,
}

const TARGET_BYTES: &[u8] = b"# keep me\nmachine: {type: worker}\n";

impl Target {
    fn new() -> Target {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("existing.yaml");
        std::fs::write(&path, TARGET_BYTES).expect("write target");
        Target { dir, path }
    }

    fn arg(&self) -> &str {
        path_str(&self.path)
    }

    fn assert_untouched(&self, what: &str) {
        assert_eq!(read(&self.path), TARGET_BYTES, "{what}: the -o target must be left untouched");
        assert_eq!(listing(self.dir.path()), ["existing.yaml"], "{what}: no temporary file may be left");
    }
}

/// Runs `labctl merge <args>` (from the workspace root) once to stdout and once with `-o` onto an
/// existing file; both must fail with `message`.
fn merge_fails(args: &[&str], message: &str) {
    let what = format!("labctl merge {args:?}");
    let mut all = vec!["merge"];
    all.extend_from_slice(args);
    failure(&labctl(&all), message, &what);

    let target = Target::new();
    all.extend_from_slice(&["-o", target.arg()]);
    failure(&labctl(&all), message, &format!("{what} -o"));
    target.assert_untouched(&what);

    // -o into a directory that does not exist yet: it must not be created either.
    let missing = target.dir.path().join("new/out.yaml");
    let n = all.len();
    all[n - 1] = path_str(&missing);
    failure(&labctl(&all), message, &format!("{what} -o new/out.yaml"));
    assert!(!missing.exists(), "{what}: no output file may be created on error");
    target.assert_untouched(&what);
}

#[test]
fn bad_missing_config_file() {
    merge_fails(&["does-not-exist.yaml"], "open does-not-exist.yaml: no such file or directory");
    merge_fails(
        &["does-not-exist.yaml", "-p", "@fixtures/05-labels.yaml"],
        "open does-not-exist.yaml: no such file or directory",
    );
}

#[test]
fn bad_missing_patch_file() {
    merge_fails(&["fixtures/worker.yaml", "-p", "@nope.yaml"], "open nope.yaml: no such file or directory");
    // Without @ too (a bare file name).
    merge_fails(&["fixtures/worker.yaml", "-p", "nope.yaml"], "open nope.yaml: no such file or directory");
    // Patches are read in order: the first missing one is reported, even after a good one.
    merge_fails(
        &["fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml", "-p", "@missing/a.yaml", "-p", "@b.yaml"],
        "open missing/a.yaml: no such file or directory",
    );
}

#[test]
fn bad_config_is_a_directory() {
    // Go's os.ReadFile opens a directory fine and fails reading it.
    merge_fails(&["fixtures"], "read fixtures: is a directory");
}

#[test]
fn bad_malformed_yaml_patch() {
    // A tab where indentation is expected (docs/merge.md §4.1, upstream decoder test "tab instead
    // of spaces"); neither JSON nor a YAML list either, so the strategic error is returned.
    merge_fails(
        &["fixtures/worker.yaml", "-p", "machine:\n\tnetwork: {}\n"],
        "decode error: yaml: while scanning for the next token at line 2: found character that cannot start any token",
    );
}

#[test]
fn bad_patch_not_a_document() {
    // docs/merge.md §1.2: upstream's "it's not even a json" integration test input.
    merge_fails(&["fixtures/worker.yaml", "-p", "it's not even a json"], "expected a YAML document at line 1");
}

#[test]
fn bad_unknown_field_patch() {
    merge_fails(
        &["fixtures/worker.yaml", "-p", "machine: {foo: bar}"],
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n",
    );
    // The same from a file, written in block style.
    let tmp = tempfile::tempdir().expect("temp dir");
    let patch = tmp.path().join("unknown.yaml");
    std::fs::write(&patch, "machine:\n  foo: bar\n").expect("write patch");
    merge_fails(
        &["fixtures/worker.yaml", "-p", &format!("@{}", patch.display())],
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n",
    );
}

#[test]
fn bad_json6902_on_multi_doc_fixture() {
    // The lab cluster's config is multi-document (v1alpha1 + HostnameConfig).
    let json = r#"[{"op": "add", "path": "/machine/nodeLabels", "value": {"lab.talos.dev/pool": "blue"}}]"#;
    let message = "JSON6902 patches are not supported for multi-document machine configuration";
    merge_fails(&["fixtures/worker.yaml", "-p", json], message);
    merge_fails(
        &["fixtures/worker.yaml", "-p", "- op: add\n  path: /machine/nodeLabels\n  value:\n    a: b\n"],
        message,
    );
    merge_fails(&["fixtures/controlplane.yaml", "-p", "@fixtures/05-labels.yaml", "-p", json], message);
}

#[test]
fn bad_json6902_unknown_op_loads_then_fails() {
    merge_fails(
        &["fixtures/worker.yaml", "-p", r#"[{"op": "crash", "path": "/machine"}]"#],
        "JSON6902 patches are not supported for multi-document machine configuration",
    );
}

#[test]
fn bad_usage_exits_1() {
    for args in [&["merge"][..], &["merge", "a.yaml", "b.yaml"], &["merge", "a.yaml", "--bogus"], &["nope"]] {
        let out = labctl(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: usage errors exit 1");
        assert_eq!(text(&out.stdout), "", "{args:?}: nothing on stdout");
        assert!(!out.stderr.is_empty(), "{args:?}: usage error explained on stderr");
    }
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
