//! The harness the `gen_cli*` modules share: a folder of cases recorded with one release's
//! talosctl (`data/gen*/cases`, layout in `data/gen/README.md`), each run through `labctl gen`
//! in a fresh directory and compared, byte for byte, except where labctl differs on purpose
//! (`gen_cli.rs` lists those differences).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use talos_config::Release;

/// Files below a directory: path -> (mode, bytes; `None` for a directory).
pub(crate) type Files = BTreeMap<String, (u32, Option<Vec<u8>>)>;

/// What a case's run left: exit code, stdout, stderr (the directory as `@CWD@`), changed files.
pub(crate) struct Run {
    pub(crate) exit: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) files: Files,
}

/// A case whose outcome differs from talosctl's on purpose: (case, exit, stderr).
pub(crate) type Different = (&'static str, i32, &'static str);

/// The cases of every release whose outcome differs on purpose (`gen_cli.rs`): nothing is
/// written when an output file exists.
const ON_PURPOSE: &[Different] = &[
    (
        "091-err-exists-worker-only",
        1,
        "generating PKI and tokens\nfile \"out/worker.yaml\" already exists, use --force to overwrite\n",
    ),
    ("094-err-force-onto-directory", 1, "generating PKI and tokens\nopen w.yaml: is a directory\n"),
];

/// One release's recorded cases.
pub(crate) struct Suite {
    /// The folder under `tests/cli/data`.
    pub(crate) data: &'static str,
    /// The release the cases were recorded with.
    pub(crate) release: Release,
    /// The release as `--talos-release` takes it (full, short, full without `v`), cycled
    /// through the cases and placed differently each time; `None` for the default release,
    /// named nowhere.
    pub(crate) forms: Option<[&'static str; 3]>,
    /// The cases whose outcome differs on purpose, besides [`ON_PURPOSE`].
    pub(crate) also_different: &'static [Different],
}

impl Suite {
    /// The suite's data folder.
    pub(crate) fn data_dir(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/data").join(self.data)
    }

    /// Runs every case (at least `min_cases` of them) and fails with every difference found.
    /// `extra` adds checks of a case that differs on purpose.
    pub(crate) fn check_all(&self, min_cases: usize, extra: impl Fn(&str, &Run) -> Vec<String>) {
        let mut cases: Vec<PathBuf> =
            std::fs::read_dir(self.data_dir().join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
        cases.sort();
        assert!(cases.len() >= min_cases, "{} cases", cases.len());
        let problems: Vec<String> = cases.iter().enumerate().flat_map(|(i, c)| self.check_case(c, i, &extra)).collect();
        assert!(problems.is_empty(), "{} differences:\n{}", problems.len(), problems.join("\n\n"));
    }

    /// `args` with the release named in the form `form` picks.
    fn with_release(&self, args: &[String], form: usize) -> Vec<String> {
        let mut out = args.to_vec();
        let Some([full, short, bare]) = self.forms else { return out };
        match form % 3 {
            0 => {
                out.insert(1, full.to_string());
                out.insert(1, "--talos-release".to_string());
            }
            1 => out.insert(1, format!("--talos-release={short}")),
            _ => out.extend(["--talos-release".to_string(), bare.to_string()]),
        }
        out
    }

    /// Runs `labctl gen ARGS` in a fresh directory holding the bundles and patches (and what the
    /// case's `setup` adds).
    fn run_case(&self, case: &Path, form: usize) -> Run {
        let work = tempfile::tempdir().unwrap();
        let dir = work.path();
        let data = self.data_dir();
        for name in ["secrets.yaml", "secrets-v1.2.yaml"] {
            std::fs::copy(data.join(name), dir.join(name)).unwrap();
        }
        std::fs::create_dir(dir.join("patches")).unwrap();
        for entry in std::fs::read_dir(data.join("patches")).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join("patches").join(path.file_name().unwrap())).unwrap();
        }
        if case.join("setup").exists() {
            let status =
                Command::new("bash").arg(case.join("setup")).current_dir(dir).env("DATA_DIR", &data).status().unwrap();
            assert!(status.success(), "setup of {}", case.display());
        }
        let before = snapshot(dir);
        let args: Vec<String> = read(case, "args").lines().map(String::from).collect();
        let out = labctl_gen(&self.with_release(&args, form), dir, None);
        let cwd = dir.canonicalize().unwrap().to_string_lossy().into_owned();
        let text = |b: &[u8]| String::from_utf8_lossy(b).replace(&cwd, "@CWD@");
        let stderr = text(&out.stderr);
        let files = snapshot(dir).into_iter().filter(|(path, now)| before.get(path) != Some(now)).collect();
        Run { exit: out.status.code().unwrap_or(-1), stdout: text(&out.stdout), stderr, files }
    }

    fn check_case(&self, case: &Path, form: usize, extra: &impl Fn(&str, &Run) -> Vec<String>) -> Vec<String> {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let args = read(case, "args");
        let run = self.run_case(case, form);
        let mut problems = Vec::new();
        let mut expect = |what: &str, want: &str, got: &str| {
            if want != got {
                problems.push(format!("{name}: {what}:\n--- talosctl\n{want}\n--- labctl\n{got}"));
            }
        };
        if let Some((_, exit, stderr)) = ON_PURPOSE.iter().chain(self.also_different).find(|d| d.0 == name) {
            expect("exit", &exit.to_string(), &run.exit.to_string());
            expect("stderr", stderr, &run.stderr);
            return [problems, extra(&name, &run)].concat();
        }
        expect("exit", read(case, "exit").trim(), &run.exit.to_string());
        // The command names itself; the usage after a flag error is ours.
        let want_stderr = read(case, "stderr").replace("\"talosctl gen", "\"labctl gen");
        expect("stderr", before_usage(&want_stderr), before_usage(&run.stderr));
        if args.lines().any(|a| a == "--help" || a == "-h") {
            return problems;
        }
        if case.join("random").exists() {
            // A fresh bundle: compare its layout (keys and the service-account key's PEM header).
            for (path, (mode, bytes)) in &run.files {
                expect(&format!("mode of {path}"), "600", &format!("{mode:o}"));
                let keys = read(case, "keys");
                let section = keys.split(&format!("== {path}\n")).nth(1).unwrap_or_default();
                let section = section.split("\n== ").next().unwrap_or_default().trim_end();
                expect(
                    &format!("layout of {path}"),
                    section,
                    skeleton(bytes.as_deref().unwrap_or_default()).trim_end(),
                );
            }
            if !run.stdout.is_empty() {
                expect("stdout layout", read(case, "stdout").trim_end(), skeleton(run.stdout.as_bytes()).trim_end());
            }
            return problems;
        }
        if args.contains("kubernetes-pki") && run.exit == 0 {
            return [problems, self.pki_bundles(case, &run)].concat();
        }
        let with_docs = !args.contains("--with-docs=false");
        let normalize = |path: &str, bytes: &[u8]| self.normalize(path, bytes, with_docs);
        expect("stdout", &normalize("-", read(case, "stdout").as_bytes()), &normalize("-", run.stdout.as_bytes()));
        let want = recorded_files(case);
        let names = |m: &Files| m.keys().cloned().collect::<Vec<_>>().join(" ");
        expect("file set", &names(&want), &names(&run.files));
        for (path, (mode, bytes)) in &want {
            let Some((got_mode, got_bytes)) = run.files.get(path) else { continue };
            // Directories keep their mode; files labctl writes are 0600 (a file `-f` replaces too).
            let want_mode = if bytes.is_some() { 0o600 } else { *mode };
            expect(&format!("mode of {path}"), &format!("{want_mode:o}"), &format!("{got_mode:o}"));
            if let (Some(want), Some(got)) = (bytes, got_bytes) {
                expect(path, &normalize(path, want), &normalize(path, got));
            }
        }
        problems
    }

    /// A config or talosconfig made comparable: configs with comments (no `--with-docs=false`)
    /// loaded and encoded again (labctl writes none); the talosconfig's fresh `crt` and `key`
    /// values blanked.
    fn normalize(&self, path: &str, bytes: &[u8], with_docs: bool) -> String {
        let text = String::from_utf8_lossy(bytes).into_owned();
        if path.ends_with("talosconfig") || text.starts_with("context:") {
            let blank = |l: &str| match l.trim_start().split_once(": ") {
                Some(("crt" | "key", _)) => format!("{}: FRESH", &l[..l.len() - l.trim_start().len() + 3]),
                _ => l.to_string(),
            };
            return text.lines().map(blank).collect::<Vec<_>>().join("\n");
        }
        if with_docs && text.contains("version: v1alpha1") {
            return talos_config::Config::from_bytes_for(bytes, self.release).unwrap().encode();
        }
        text
    }

    /// A bundle made from a Kubernetes PKI: the same file set and layout, the PKI's CAs and key
    /// and the given bootstrap token byte for byte (the rest is fresh).
    fn pki_bundles(&self, case: &Path, run: &Run) -> Vec<String> {
        use talos_config::generate::SecretsBundle;
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let want = recorded_files(case);
        let given_token =
            read(case, "args").lines().any(|a| a == "-t" || a.starts_with("--kubernetes-bootstrap-token"));
        let mut problems = Vec::new();
        if want.keys().collect::<Vec<_>>() != run.files.keys().collect::<Vec<_>>() {
            problems.push(format!("{name}: file set {:?} vs {:?}", want.keys(), run.files.keys()));
        }
        let load = |b: &[u8]| SecretsBundle::from_yaml_for(b, self.release).unwrap();
        for (path, (_, bytes)) in &want {
            let (Some(want), Some((mode, Some(got)))) = (bytes, run.files.get(path)) else { continue };
            if *mode != 0o600 || skeleton(want) != skeleton(got) {
                problems.push(format!(
                    "{name}: {path}: mode {mode:o}, layout\n{}\nvs\n{}",
                    skeleton(want),
                    skeleton(got)
                ));
            }
            let (want, got) = (load(want), load(got));
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
}

/// Runs `labctl gen ARGS` in `dir`, with `TAG` set to `tag` or unset.
pub(crate) fn labctl_gen(args: &[String], dir: &Path, tag: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_labctl"));
    command.arg("gen").args(args).current_dir(dir);
    match tag {
        Some(tag) => command.env("TAG", tag),
        None => command.env_remove("TAG"),
    };
    command.output().unwrap()
}

/// Owned words.
pub(crate) fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// Everything below `dir`.
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

fn read(case: &Path, name: &str) -> String {
    std::fs::read_to_string(case.join(name)).unwrap_or_default()
}

/// The recorded files: path -> (mode, bytes).
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

/// The first line of an error followed by a usage block (the usage itself is ours).
fn before_usage(stderr: &str) -> &str {
    stderr.split("\n\nUsage:").next().unwrap_or(stderr)
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
