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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/data/gen")
}

/// What a case's run left: exit code, stdout, stderr, created files (path -> (mode, bytes)).
struct Run {
    exit: i32,
    stdout: String,
    stderr: String,
    files: BTreeMap<String, (u32, Option<Vec<u8>>)>,
}

fn snapshot(dir: &Path) -> BTreeMap<String, (u32, Option<Vec<u8>>)> {
    use std::os::unix::fs::PermissionsExt as _;
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::metadata(&path).unwrap();
            let rel = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let mode = meta.permissions().mode() & 0o777;
            if meta.is_dir() {
                stack.push(path.clone());
                out.insert(rel, (mode, None));
            } else {
                out.insert(rel, (mode, Some(std::fs::read(&path).unwrap())));
            }
        }
    }
    out
}

fn run_case(case: &Path) -> Run {
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
    let args: Vec<String> = std::fs::read_to_string(case.join("args")).unwrap().lines().map(String::from).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_labctl"))
        .arg("gen")
        .args(&args)
        .current_dir(dir)
        .env_remove("TAG")
        .output()
        .unwrap();
    let cwd = dir.canonicalize().unwrap().to_string_lossy().into_owned();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(&cwd, "@CWD@");
    let files = snapshot(dir).into_iter().filter(|(path, now)| before.get(path) != Some(now)).collect();
    Run { exit: out.status.code().unwrap_or(-1), stdout: text(&out.stdout), stderr: text(&out.stderr), files }
}

fn read(case: &Path, name: &str) -> String {
    std::fs::read_to_string(case.join(name)).unwrap_or_default()
}

/// The recorded files: path -> (mode, bytes).
fn recorded_files(case: &Path) -> BTreeMap<String, (u32, Option<Vec<u8>>)> {
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

/// A config or talosconfig made comparable: configs with comments (no `--with-docs=false`)
/// loaded and encoded again; the talosconfig's fresh `crt` and `key` values blanked.
fn normalize(path: &str, bytes: &[u8], with_docs: bool) -> String {
    let text = String::from_utf8_lossy(bytes).into_owned();
    if path.ends_with("talosconfig") || text.starts_with("context:") {
        return text
            .lines()
            .map(|l| match l.trim_start().split_once(": ") {
                Some(("crt" | "key", _)) => format!("{}: FRESH", &l[..l.len() - l.trim_start().len() + 3]),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    if with_docs && text.contains("version: v1alpha1") {
        return talos_config::Config::from_bytes(bytes).unwrap().encode();
    }
    text
}

/// The first line of an error followed by a usage block (the usage itself is ours).
fn before_usage(stderr: &str) -> &str {
    stderr.split("\n\nUsage:").next().unwrap_or(stderr)
}

/// Cases whose outcome differs on purpose, and what labctl does instead: (case, exit, stderr).
const DIFFERENT: &[(&str, i32, &str)] = &[
    (
        "091-err-exists-worker-only",
        1,
        "generating PKI and tokens\nfile \"out/worker.yaml\" already exists, use --force to overwrite\n",
    ),
    ("094-err-force-onto-directory", 1, "generating PKI and tokens\nopen w.yaml: is a directory\n"),
];

fn check_case(case: &Path) -> Vec<String> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let args = read(case, "args");
    let run = run_case(case);
    let mut problems = Vec::new();
    let mut expect = |what: &str, want: &str, got: &str| {
        if want != got {
            problems.push(format!("{name}: {what}:\n--- talosctl\n{want}\n--- labctl\n{got}"));
        }
    };
    if let Some((_, exit, stderr)) = DIFFERENT.iter().find(|d| d.0 == name) {
        expect("exit", &exit.to_string(), &run.exit.to_string());
        expect("stderr", stderr, &run.stderr);
        return problems;
    }
    expect("exit", read(case, "exit").trim(), &run.exit.to_string());
    let help = args.lines().any(|a| a == "--help" || a == "-h");
    // The command names itself.
    let want_stderr = read(case, "stderr").replace("\"talosctl gen", "\"labctl gen");
    expect("stderr", before_usage(&want_stderr), before_usage(&run.stderr));
    if help {
        return problems;
    }
    let random = case.join("random").exists();
    if random {
        // A fresh bundle: compare its layout (keys and the service-account key's PEM header).
        for (path, (mode, bytes)) in &run.files {
            expect(&format!("mode of {path}"), "600", &format!("{mode:o}"));
            let got = skeleton(bytes.as_deref().unwrap_or_default());
            let want = read(case, "keys");
            let section = want.split(&format!("== {path}\n")).nth(1).unwrap_or_default();
            let section = section.split("\n== ").next().unwrap_or_default().trim_end();
            expect(&format!("layout of {path}"), section, got.trim_end());
        }
        if !run.stdout.is_empty() {
            expect("stdout layout", read(case, "stdout").trim_end(), skeleton(run.stdout.as_bytes()).trim_end());
        }
        return problems;
    }
    if args.contains("kubernetes-pki") && run.exit == 0 {
        return [problems, pki_bundles(case, &run)].concat();
    }
    let with_docs = !args.contains("--with-docs=false");
    expect(
        "stdout",
        &normalize("-", read(case, "stdout").as_bytes(), with_docs),
        &normalize("-", run.stdout.as_bytes(), with_docs),
    );
    let want = recorded_files(case);
    let names = |m: &BTreeMap<String, (u32, Option<Vec<u8>>)>| m.keys().cloned().collect::<Vec<_>>().join(" ");
    expect("file set", &names(&want), &names(&run.files));
    for (path, (mode, bytes)) in &want {
        let Some((got_mode, got_bytes)) = run.files.get(path) else { continue };
        // Directories keep their mode; files labctl writes are 0600 (a file `-f` replaces too).
        let want_mode = if bytes.is_some() { 0o600 } else { *mode };
        expect(&format!("mode of {path}"), &format!("{want_mode:o}"), &format!("{got_mode:o}"));
        if let (Some(want), Some(got)) = (bytes, got_bytes) {
            expect(path, &normalize(path, want, with_docs), &normalize(path, got, with_docs));
        }
    }
    problems
}

/// A bundle made from a Kubernetes PKI: the same file set and layout, the PKI's CAs and key and
/// the given bootstrap token byte for byte (the rest is fresh).
fn pki_bundles(case: &Path, run: &Run) -> Vec<String> {
    use talos_config::generate::SecretsBundle;
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let want = recorded_files(case);
    let given_token = read(case, "args").lines().any(|a| a == "-t" || a.starts_with("--kubernetes-bootstrap-token"));
    let mut problems = Vec::new();
    if want.keys().collect::<Vec<_>>() != run.files.keys().collect::<Vec<_>>() {
        problems.push(format!("{name}: file set {:?} vs {:?}", want.keys(), run.files.keys()));
    }
    for (path, (_, bytes)) in &want {
        let (Some(want), Some((mode, Some(got)))) = (bytes, run.files.get(path)) else { continue };
        if *mode != 0o600 || skeleton(want) != skeleton(got) {
            problems.push(format!("{name}: {path}: mode {mode:o}, layout\n{}\nvs\n{}", skeleton(want), skeleton(got)));
        }
        let (want, got) = (SecretsBundle::from_yaml(want).unwrap(), SecretsBundle::from_yaml(got).unwrap());
        let (wc, gc) = (want.certs.clone().unwrap(), got.certs.clone().unwrap());
        let taken = |c: &talos_config::generate::Certs| {
            (c.etcd.clone(), c.k8s.clone(), c.k8s_aggregator.clone(), c.k8s_service_account.clone())
        };
        let token = |b: SecretsBundle| b.secrets.unwrap().bootstrap_token;
        if taken(&wc) != taken(&gc) || (given_token && token(want) != token(got)) {
            problems.push(format!("{name}: {path}: the PKI's CAs, key or token differ"));
        }
    }
    problems
}

/// The layout of a bundle as `record.sh` writes it: the keys, then the service-account key's
/// PEM header.
fn skeleton(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut sa_next = false;
    let mut sa = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(key_end) = trimmed.find(':') {
            let key = &trimmed[..key_end];
            if key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) && !key.is_empty() {
                out.push_str(&line[..line.len() - trimmed.len() + key_end + 1]);
                out.push('\n');
            }
            if sa_next && key == "key" {
                let b64 = trimmed[key_end + 1..].trim();
                let pem = talos_go::base64_decode(b64).unwrap_or_default();
                sa = String::from_utf8_lossy(&pem).lines().next().unwrap_or_default().to_string();
            }
            sa_next = key == "k8sserviceaccount";
        }
    }
    out.push_str(&format!("k8sserviceaccount key, first decoded line: {sa}\n"));
    out
}

#[test]
fn labctl_gen_matches_talosctl_case_by_case() {
    let mut cases: Vec<PathBuf> =
        std::fs::read_dir(data_dir().join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let problems: Vec<String> = cases.iter().flat_map(|c| check_case(c)).collect();
    assert!(problems.is_empty(), "{} differences:\n{}", problems.len(), problems.join("\n\n"));
}

/// The `TAG` environment variable picks the default installer image's tag, as it does for
/// talosctl (recorded: `TAG=v9.9.9` and `TAG=` with talosctl v1.13.9's own gen config).
#[test]
fn the_tag_variable_sets_the_default_installer_image() {
    let secrets = data_dir().join("secrets.yaml");
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
