//! `labctl gen --talos-release v1.12.11` against talosctl v1.12.11's own `gen config` /
//! `gen secrets`, recorded case by case in `data/gen-v1.12/cases` (the layout of `data/gen`, see
//! its README): cases 001-125 are `data/gen`'s, recorded again with v1.12.11; 126-137 are its
//! `-p/--persist` flag and KubeSpan in `machine.network`. The differences on purpose are
//! `gen_cli.rs`'s (0600 files, nothing written when a file exists, no documentation comments,
//! labctl naming itself, our usage block and help, fresh talosconfig keys). The release is named
//! in each of its forms (`--talos-release v1.12.11`, `--talos-release=v1.12` after the
//! subcommand, `--talos-release 1.12.11` at the end).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use talos_config::Release;

type Files = BTreeMap<String, (u32, Option<Vec<u8>>)>;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/data/gen-v1.12")
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
            out.insert(1, "v1.12.11".to_string());
            out.insert(1, "--talos-release".to_string());
        }
        1 => out.insert(1, "--talos-release=v1.12".to_string()),
        _ => out.extend(["--talos-release".to_string(), "1.12.11".to_string()]),
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
    let files = snapshot(dir).into_iter().filter(|(path, now)| before.get(path) != Some(now)).collect();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr), files)
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

/// A config with comments loaded and encoded again as v1.12.11 (labctl writes none); a
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
        return talos_config::Config::from_bytes_for(bytes, Release::V1_12_11).unwrap().encode();
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

/// Cases whose outcome differs on purpose (see `gen_cli.rs`): (case, stderr).
const DIFFERENT: &[(&str, &str)] = &[
    (
        "091-err-exists-worker-only",
        "generating PKI and tokens\nfile \"out/worker.yaml\" already exists, use --force to overwrite\n",
    ),
    ("094-err-force-onto-directory", "generating PKI and tokens\nopen w.yaml: is a directory\n"),
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
    if let Some((_, want)) = DIFFERENT.iter().find(|d| d.0 == name) {
        expect("exit", "1", &exit.to_string());
        expect("stderr", want, &stderr);
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
            let load = |b: &[u8]| talos_config::generate::SecretsBundle::from_yaml_for(b, Release::V1_12_11).unwrap();
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
fn labctl_gen_matches_talosctl_v1_12_case_by_case() {
    let mut cases: Vec<PathBuf> =
        std::fs::read_dir(data_dir().join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(cases.len() >= 137, "{} cases", cases.len());
    let problems: Vec<String> = cases.iter().enumerate().flat_map(|(i, c)| check_case(c, i)).collect();
    assert!(problems.is_empty(), "{} differences:\n{}", problems.len(), problems.join("\n\n"));
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// `TAG` picks the installer image's tag under v1.12.11 too; its default is v1.12.11's.
#[test]
fn the_tag_variable_and_the_v1_12_default_installer_image() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data_dir().join("secrets.yaml"), dir.path().join("s.yaml")).unwrap();
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
