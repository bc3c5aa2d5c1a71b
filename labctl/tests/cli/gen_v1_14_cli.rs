//! `labctl gen --talos-release v1.14.0-rc.1` against talosctl v1.14.0-rc.1's own `gen config` /
//! `gen secrets`, recorded case by case in `data/gen-v1.14/cases` (the layout of `data/gen`, see
//! its README): cases 001-125 are `data/gen`'s, recorded again with v1.14.0-rc.1; 126-153 are
//! v1.14's: the v1.14 contract's documents with docs on and off, `--skip-k8s-etcd`, the
//! Kubernetes version required, contracts v0.0 and v1.15, KubeSpan and discovery, patches with
//! the new kinds (a custom CNI, the kubelet, node and KubePrism, the resolver, trim, the
//! unattended install), bundles checked against the contract, `--from-controlplane-config` on a
//! v1.14 control plane. The differences on purpose are `gen_cli.rs`'s (0600 files, nothing
//! written when a file exists, no documentation comments, labctl naming itself, our usage block
//! and help, fresh talosconfig keys, the preview warning), and two where talosctl v1.14 crashes
//! (a nil dereference): `--skip-k8s-etcd` with a bundle without `secrets` (labctl writes the
//! configs, with no bootstrap token) and `--from-controlplane-config` on a worker (labctl says
//! what is missing). The release is named in each of its forms (`--talos-release v1.14.0-rc.1`,
//! `--talos-release=v1.14` after the subcommand, `--talos-release 1.14.0-rc.1` at the end).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use talos_config::Release;

type Files = BTreeMap<String, (u32, Option<Vec<u8>>)>;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/data/gen-v1.14")
}

/// Everything below `dir`: path -> (mode, bytes; `None` for a directory).
fn snapshot(dir: &Path) -> Files {
    use std::os::unix::fs::PermissionsExt as _;
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::metadata(&path).unwrap();
            let rel = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let bytes = if meta.is_dir() { None } else { Some(std::fs::read(&path).unwrap()) };
            if meta.is_dir() {
                stack.push(path.clone());
            }
            out.insert(rel, (meta.permissions().mode() & 0o777, bytes));
        }
    }
    out
}

/// `args` with the release named in one of three forms, chosen by `form`.
fn with_release(args: &[String], form: usize) -> Vec<String> {
    let mut out = args.to_vec();
    match form % 3 {
        0 => {
            out.insert(1, "v1.14.0-rc.1".to_string());
            out.insert(1, "--talos-release".to_string());
        }
        1 => out.insert(1, "--talos-release=v1.14".to_string()),
        _ => out.extend(["--talos-release".to_string(), "1.14.0-rc.1".to_string()]),
    }
    out
}

/// Runs `labctl gen ARGS` in a fresh directory holding the bundles and patches (and what the
/// case's `setup` adds): exit code, stdout, stderr (the directory as `@CWD@`), created files.
fn run_case(case: &Path, form: usize) -> (i32, String, String, Files) {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    for name in ["secrets.yaml", "secrets-v1.2.yaml"] {
        std::fs::copy(data_dir().join(name), dir.join(name)).unwrap();
    }
    std::fs::create_dir(dir.join("patches")).unwrap();
    for entry in std::fs::read_dir(data_dir().join("patches")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("patches").join(path.file_name().unwrap())).unwrap();
    }
    if case.join("setup").exists() {
        let status =
            Command::new("bash").arg(case.join("setup")).current_dir(dir).env("DATA_DIR", data_dir()).status().unwrap();
        assert!(status.success(), "setup of {}", case.display());
    }
    let before = snapshot(dir);
    let args: Vec<String> = read(case, "args").lines().map(String::from).collect();
    let out = labctl(&with_release(&args, form), dir, None);
    let cwd = dir.canonicalize().unwrap().to_string_lossy().into_owned();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(&cwd, "@CWD@");
    let stderr = text(&out.stderr);
    // The preview warning is labctl's own line.
    let stderr: String = stderr.lines().filter(|l| !l.starts_with(PREVIEW)).map(|l| format!("{l}\n")).collect();
    let files = snapshot(dir).into_iter().filter(|(path, now)| before.get(path) != Some(now)).collect();
    (out.status.code().unwrap_or(-1), text(&out.stdout), stderr, files)
}

fn labctl(args: &[String], dir: &Path, tag: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_labctl"));
    command.arg("gen").args(args).current_dir(dir);
    match tag {
        Some(tag) => command.env("TAG", tag),
        None => command.env_remove("TAG"),
    };
    command.output().unwrap()
}

fn read(case: &Path, name: &str) -> String {
    std::fs::read_to_string(case.join(name)).unwrap_or_default()
}

fn recorded_files(case: &Path) -> Files {
    read(case, "modes")
        .lines()
        .map(|line| {
            let (mode, path) = line.split_once(' ').unwrap();
            let full = case.join("files").join(path);
            let bytes = if full.is_dir() { None } else { Some(std::fs::read(&full).unwrap()) };
            (path.to_string(), (u32::from_str_radix(mode, 8).unwrap(), bytes))
        })
        .collect()
}

/// The first words of labctl's warning that v1.14.0-rc.1 is a preview.
const PREVIEW: &str = "labctl: warning: Talos v1.14.0-rc.1 is a preview";

/// A config with comments loaded and encoded again as v1.14.0-rc.1 (labctl writes none); a
/// talosconfig with its fresh `crt` and `key` blanked.
fn normalize(bytes: &[u8], with_docs: bool) -> String {
    let text = String::from_utf8_lossy(bytes).into_owned();
    if text.starts_with("context:") {
        let blank = |l: &str| match l.trim_start().split_once(": ") {
            Some(("crt" | "key", _)) => format!("{}: FRESH", &l[..l.len() - l.trim_start().len() + 3]),
            _ => l.to_string(),
        };
        return text.lines().map(blank).collect::<Vec<_>>().join("\n");
    }
    if with_docs && text.contains("version: v1alpha1") {
        return talos_config::Config::from_bytes_for(bytes, Release::V1_14_0_RC1).unwrap().encode();
    }
    text
}

/// The layout of a bundle as `record.sh` writes it: its keys, then the service-account key's
/// PEM header.
fn skeleton(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let (mut out, mut sa, mut sa_next) = (String::new(), String::new(), false);
    for line in text.lines() {
        let trimmed = line.trim_start();
        let Some(end) = trimmed.find(':') else { continue };
        let key = &trimmed[..end];
        if !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
            out.push_str(&line[..line.len() - trimmed.len() + end + 1]);
            out.push('\n');
        }
        if sa_next && key == "key" {
            let pem = talos_go::base64_decode(trimmed[end + 1..].trim()).unwrap_or_default();
            sa = String::from_utf8_lossy(&pem).lines().next().unwrap_or_default().to_string();
        }
        sa_next = key == "k8sserviceaccount";
    }
    out + &format!("k8sserviceaccount key, first decoded line: {sa}\n")
}

/// Cases whose outcome differs on purpose (see `gen_cli.rs`, and the two crashes of talosctl
/// v1.14 above): (case, exit, stderr).
const DIFFERENT: &[(&str, i32, &str)] = &[
    (
        "091-err-exists-worker-only",
        1,
        "generating PKI and tokens\nfile \"out/worker.yaml\" already exists, use --force to overwrite\n",
    ),
    ("094-err-force-onto-directory", 1, "generating PKI and tokens\nopen w.yaml: is a directory\n"),
    (
        "147-config-secrets-no-k8s-skip-k8s-etcd",
        0,
        "generating PKI and tokens\nCreated out/controlplane.yaml\nCreated out/worker.yaml\n",
    ),
    (
        "149-err-secrets-from-worker-v1.14",
        1,
        "labctl gen secrets: w.yaml has no Kubernetes aggregator CA (neither a KubeAggregatorCAConfig document \
         nor .cluster.aggregatorCA): it is not a control-plane config\ngive the controlplane.yaml that gen config \
         wrote\n",
    ),
];

fn check_case(case: &Path, form: usize) -> Vec<String> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let args = read(case, "args");
    let (exit, stdout, stderr, files) = run_case(case, form);
    let mut problems = Vec::new();
    let mut expect = |what: &str, want: &str, got: &str| {
        if want != got {
            problems.push(format!("{name}: {what}:\n--- talosctl\n{want}\n--- labctl\n{got}"));
        }
    };
    if let Some((_, want_exit, want)) = DIFFERENT.iter().find(|d| d.0 == name) {
        expect("exit", &want_exit.to_string(), &exit.to_string());
        expect("stderr", want, &stderr);
        if name.starts_with("147") {
            // No bootstrap token where talosctl crashes on the bundle without `secrets`.
            let config = files.get("out/worker.yaml").and_then(|f| f.1.clone()).unwrap_or_default();
            let text = String::from_utf8_lossy(&config);
            expect("worker", "cluster: {}", text.lines().find(|l| l.starts_with("cluster:")).unwrap_or_default());
        }
        return problems;
    }
    expect("exit", read(case, "exit").trim(), &exit.to_string());
    let before_usage = |s: &str| s.split("\n\nUsage:").next().unwrap_or(s).to_string();
    let want_stderr = read(case, "stderr").replace("\"talosctl gen", "\"labctl gen");
    expect("stderr", &before_usage(&want_stderr), &before_usage(&stderr));
    if args.lines().any(|a| a == "--help" || a == "-h") {
        return problems;
    }
    if case.join("random").exists() {
        for (path, (mode, bytes)) in &files {
            expect(&format!("mode of {path}"), "600", &format!("{mode:o}"));
            let keys = read(case, "keys");
            let section = keys.split(&format!("== {path}\n")).nth(1).unwrap_or_default();
            let section = section.split("\n== ").next().unwrap_or_default().trim_end();
            expect(&format!("layout of {path}"), section, skeleton(bytes.as_deref().unwrap_or_default()).trim_end());
        }
        if !stdout.is_empty() {
            expect("stdout layout", read(case, "stdout").trim_end(), skeleton(stdout.as_bytes()).trim_end());
        }
        return problems;
    }
    let want = recorded_files(case);
    let names = |m: &Files| m.keys().cloned().collect::<Vec<_>>().join(" ");
    expect("file set", &names(&want), &names(&files));
    if args.contains("kubernetes-pki") && exit == 0 {
        // The PKI's CAs, key and (given) token are taken; the rest is fresh.
        for (path, (_, bytes)) in &want {
            let (Some(want), Some((_, Some(got)))) = (bytes, files.get(path)) else { continue };
            expect(&format!("layout of {path}"), &skeleton(want), &skeleton(got));
            let load =
                |b: &[u8]| talos_config::generate::SecretsBundle::from_yaml_for(b, Release::V1_14_0_RC1).unwrap();
            let taken = |b: &[u8]| {
                let c = load(b).certs.unwrap();
                format!("{:?}", (c.etcd, c.k8s, c.k8s_aggregator, c.k8s_service_account))
            };
            expect(&format!("taken CAs of {path}"), &taken(want), &taken(got));
        }
        return problems;
    }
    let with_docs = !args.contains("--with-docs=false");
    expect("stdout", &normalize(read(case, "stdout").as_bytes(), with_docs), &normalize(stdout.as_bytes(), with_docs));
    for (path, (mode, bytes)) in &want {
        let Some((got_mode, got_bytes)) = files.get(path) else { continue };
        let want_mode = if bytes.is_some() { 0o600 } else { *mode };
        expect(&format!("mode of {path}"), &format!("{want_mode:o}"), &format!("{got_mode:o}"));
        if let (Some(want), Some(got)) = (bytes, got_bytes) {
            expect(path, &normalize(want, with_docs), &normalize(got, with_docs));
        }
    }
    problems
}

#[test]
fn labctl_gen_matches_talosctl_v1_14_case_by_case() {
    let mut cases: Vec<PathBuf> =
        std::fs::read_dir(data_dir().join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(cases.len() >= 153, "{} cases", cases.len());
    let problems: Vec<String> = cases.iter().enumerate().flat_map(|(i, c)| check_case(c, i)).collect();
    assert!(problems.is_empty(), "{} differences:\n{}", problems.len(), problems.join("\n\n"));
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// `TAG` picks the tag of v1.14's default installer, the Image Factory's metal installer.
#[test]
fn the_tag_variable_and_the_v1_14_default_installer_image() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data_dir().join("secrets.yaml"), dir.path().join("s.yaml")).unwrap();
    let args =
        words(&["config", "--talos-release", "v1.14", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-"]);
    let args = [args, words(&["--with-secrets", "s.yaml"])].concat();
    let factory = "factory.talos.dev/metal-installer/376567988ad370138ad8b2698212367b8edcb69b5fd68c80be1f2ec7d603b4ba";
    for (tag, want) in [(Some("v9.9.9"), format!("{factory}:v9.9.9")), (None, format!("{factory}:v1.14.0-rc.1"))] {
        let stdout = String::from_utf8(labctl(&args, dir.path(), tag).stdout).unwrap();
        let line = stdout.lines().find(|l| l.contains("metal-installer")).unwrap_or_default();
        assert_eq!(line, format!("    image: {want}"), "TAG={tag:?}");
    }
}

/// `--skip-k8s-etcd` is v1.14's (hidden, as in talosctl); v1.13.9 does not know it. The help
/// gives v1.14's defaults.
#[test]
fn skip_k8s_etcd_is_v1_14s_and_the_help_has_its_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let base = words(&["config", "demo", "https://10.5.0.2:6443", "-t", "worker", "-o", "-", "--skip-k8s-etcd"]);
    let out = labctl(&base, dir.path(), None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.split("\n\nUsage:").next(), Some("unknown flag: --skip-k8s-etcd"));
    let out = labctl(&words(&["config", "--talos-release", "v1.14", "--help"]), dir.path(), None);
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("(default \"1.37.0-rc.0\")") && !help.contains("skip-k8s-etcd"), "{help}");
    assert!(help.contains("factory.talos.dev/metal-installer/"), "{help}");
}
