//! Tests of the CI files users copy: `.pre-commit-hooks.yaml` (its hooks and their fields, each
//! hook's entry run as pre-commit runs it, on the lab's fixtures) and `docs/ci/labctl.yml` (its
//! permissions and uploads, every labctl command line it runs checked against labctl's own help,
//! its lint and cluster check steps run on a cluster folder).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use talos_yaml::Node;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// PATH with the labctl under test first, as the hooks' `language: system` finds it.
fn path_with_labctl() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_labctl")).parent().expect("labctl is in a folder");
    let rest = std::env::var("PATH").unwrap_or_default();
    format!("{}:{rest}", bin.display())
}

fn labctl(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl")).args(args).current_dir(dir).output().expect("labctl runs")
}

fn parse(file: &str) -> Node {
    let bytes = std::fs::read(root().join(file)).unwrap();
    let mut documents = talos_yaml::parse::parse_documents(&bytes).unwrap();
    assert_eq!(documents.len(), 1, "{file} is one YAML document");
    documents.remove(0)
}

fn scalar<'a>(node: &'a Node, key: &str) -> &'a str {
    &node
        .get(key)
        .unwrap_or_else(|| panic!("no `{key}`"))
        .as_scalar()
        .unwrap_or_else(|| panic!("`{key}` is a scalar"))
        .text
}

/// A mapping of scalars as `(key, value)` pairs, in order.
fn scalar_entries(node: &Node) -> Vec<(String, String)> {
    node.as_mapping()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_scalar().unwrap().text.clone(), v.as_scalar().unwrap().text.clone()))
        .collect()
}

fn hook(id: &str) -> Node {
    let hooks = parse(".pre-commit-hooks.yaml");
    let found = hooks.as_sequence().unwrap().iter().find(|h| scalar(h, "id") == id).cloned();
    found.unwrap_or_else(|| panic!("no hook {id}"))
}

fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Runs a hook as pre-commit does for `language: system`: its entry, then its `args`, then the
/// file names (when it takes them), from the repository's root, with labctl on PATH.
fn run_hook(id: &str, args: &[&str], files: &[&str]) -> Output {
    let hook = hook(id);
    let mut line = scalar(&hook, "entry").to_owned();
    for word in args.iter().chain(files) {
        line.push(' ');
        line.push_str(&quote(word));
    }
    Command::new("sh")
        .arg("-c")
        .arg(line)
        .env("PATH", path_with_labctl())
        .current_dir(root())
        .output()
        .expect("sh runs")
}

const LINT_ENTRY: &str = r#"sh -c 'if [ "$#" -lt 2 ]; then echo "labctl-lint: no base config: set args: [path/to/base.yaml] on the hook in .pre-commit-config.yaml" >&2; exit 2; fi; base="$1"; shift; status=0; for patch in "$@"; do if [ "$patch" != "$base" ]; then labctl lint "$base" -p "@$patch" || status=1; fi; done; exit "$status"' --"#;

const STEP8: &str = "fixtures/08-kubelet.yaml:4:7: error[kubelet-unknown-flag]: kubelet v1.36 has no flag `--max-pod`: it exits at start (`unknown flag: --max-pod`), Talos restarts it every 5 s, and the node never becomes Ready\n  field: machine.kubelet.extraArgs.max-pod\n  fix: did you mean `max-pods`? Rename the key.\n";

const CLEAN: &str = "labctl lint: 0 errors, 0 warnings, 0 infos\n";
const ONE_ERROR: &str = "labctl lint: 1 error, 0 warnings, 0 infos\n";

#[test]
fn hooks_file_declares_lint_and_cluster_check() {
    let hooks = parse(".pre-commit-hooks.yaml");
    let hooks: Vec<_> = hooks.as_sequence().unwrap().iter().map(scalar_entries).collect();
    let pairs = |entries: &[(&str, &str)]| -> Vec<(String, String)> {
        entries.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    };
    assert_eq!(
        hooks,
        vec![
            pairs(&[
                ("id", "labctl-lint"),
                ("name", "labctl lint"),
                (
                    "description",
                    "Lint each changed Talos patch file against the base config named in args, with labctl lint."
                ),
                ("entry", LINT_ENTRY),
                ("language", "system"),
                ("files", r"\.ya?ml$"),
            ]),
            pairs(&[
                ("id", "labctl-cluster-check"),
                ("name", "labctl cluster check"),
                (
                    "description",
                    "Check every node config of a cluster together (the folder or files named in args), with labctl cluster check."
                ),
                ("entry", "labctl cluster check"),
                ("language", "system"),
                ("files", r"\.ya?ml$"),
                ("pass_filenames", "false"),
            ]),
        ]
    );
}

#[test]
fn hooks_lint_passes_a_clean_patch() {
    let out = run_hook("labctl-lint", &["fixtures/worker.yaml"], &["fixtures/05-labels.yaml"]);
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), CLEAN);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn hooks_lint_fails_on_step8_with_the_finding() {
    let out = run_hook("labctl-lint", &["fixtures/worker.yaml"], &["fixtures/08-kubelet.yaml"]);
    assert_eq!(text(&out.stdout), STEP8);
    assert_eq!(text(&out.stderr), ONE_ERROR);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn hooks_lint_lints_each_patch_alone_and_fails_if_any_fails() {
    // 08-kubelet first: a failing patch does not stop the others being linted.
    let out =
        run_hook("labctl-lint", &["fixtures/worker.yaml"], &["fixtures/08-kubelet.yaml", "fixtures/05-labels.yaml"]);
    assert_eq!(text(&out.stdout), STEP8);
    assert_eq!(text(&out.stderr), format!("{ONE_ERROR}{CLEAN}"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn hooks_lint_skips_the_base_when_it_changed_too() {
    let out = run_hook("labctl-lint", &["fixtures/worker.yaml"], &["fixtures/worker.yaml", "fixtures/05-labels.yaml"]);
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), CLEAN);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn hooks_lint_without_a_base_says_how_to_name_it() {
    let out = run_hook("labctl-lint", &[], &["fixtures/05-labels.yaml"]);
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "labctl-lint: no base config: set args: [path/to/base.yaml] on the hook in .pre-commit-config.yaml\n"
    );
    assert_eq!(out.status.code(), Some(2));
}

/// A cluster folder: the lab's control plane and worker, one secrets bundle.
fn cluster_folder(dir: &Path, worker: &str) -> PathBuf {
    let folder = dir.join("clusterconfig");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(root().join("fixtures/controlplane.yaml"), folder.join("controlplane.yaml")).unwrap();
    std::fs::write(folder.join("worker.yaml"), worker).unwrap();
    folder
}

fn lab_worker() -> String {
    std::fs::read_to_string(root().join("fixtures/worker.yaml")).unwrap()
}

#[test]
fn hooks_cluster_check_runs_on_the_folder_in_args() {
    let dir = tempfile::tempdir().unwrap();
    let worker = lab_worker();
    // The worker with another machine token: not the control plane's cluster.
    let stranger = worker.replace("token: tbywgp.45p3jwyegg4gv2ch", "token: abcdef.0123456789abcdef");
    assert_ne!(stranger, worker);
    for (name, worker, code) in [("same", worker.as_str(), 0), ("stranger", stranger.as_str(), 1)] {
        let case = dir.path().join(name);
        std::fs::create_dir(&case).unwrap();
        let folder = cluster_folder(&case, worker);
        let folder = folder.to_str().unwrap();
        let hook = run_hook("labctl-cluster-check", &[folder], &[]);
        let direct = labctl(&["cluster", "check", folder], &root());
        assert_eq!(text(&hook.stdout), text(&direct.stdout), "{name}");
        assert_eq!(text(&hook.stderr), text(&direct.stderr), "{name}");
        assert_eq!(hook.status.code(), Some(code), "{name}: {}", text(&hook.stdout));
        assert_eq!(text(&hook.stderr).lines().count(), 1, "{name}: a one-line summary");
        if code == 0 {
            assert_eq!(text(&hook.stdout), "", "{name}");
        } else {
            assert!(text(&hook.stdout).contains("worker.yaml"), "{name}: the node is named");
        }
    }
}

fn workflow() -> Node {
    parse("docs/ci/labctl.yml")
}

fn steps(workflow: &Node) -> Vec<Node> {
    let job = workflow.get("jobs").unwrap().get("labctl").unwrap();
    job.get("steps").unwrap().as_sequence().unwrap().to_vec()
}

fn run_scripts(workflow: &Node) -> Vec<String> {
    steps(workflow).iter().filter_map(|s| s.get("run")).map(|r| r.as_scalar().unwrap().text.clone()).collect()
}

#[test]
fn hooks_workflow_uploads_both_reports_to_code_scanning() {
    let workflow = workflow();
    assert_eq!(
        scalar_entries(workflow.get("permissions").unwrap()),
        [("contents", "read"), ("security-events", "write"), ("actions", "read")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    let uploads: Vec<_> = steps(&workflow)
        .iter()
        .filter(|s| s.get("uses").is_some_and(|u| u.as_scalar().unwrap().text.contains("upload-sarif")))
        .map(|s| {
            let with = s.get("with").unwrap();
            [scalar(s, "uses"), scalar(s, "if"), scalar(with, "sarif_file"), scalar(with, "category")]
                .map(str::to_owned)
        })
        .collect();
    let always = "always() && steps.install.outcome == 'success'";
    let upload = "github/codeql-action/upload-sarif@v3";
    assert_eq!(
        uploads,
        vec![
            [upload, always, "lint.sarif", "labctl-lint"].map(str::to_owned),
            [upload, always, "cluster.sarif", "labctl-cluster-check"].map(str::to_owned),
        ]
    );
    assert_eq!(
        run_scripts(&workflow)[0],
        "cargo install labctl --locked --no-default-features",
        "labctl installed from its package"
    );
}

/// The subcommands `labctl ... --help` lists under `Commands:`.
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// Whether `flag` appears in `help` as a whole option (`--output`, not `--output-file`).
fn has_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(i, _)| {
        let before = help[..i].chars().next_back();
        let after = help[i + flag.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-')
    })
}

/// The help of one option: its line under `Options:` and the lines below it, up to the next option.
fn option_help(help: &str, flag: &str) -> String {
    let is_option = |l: &str| l.len() - l.trim_start().len() <= 6 && l.trim_start().starts_with('-');
    let mut lines = help.lines().skip_while(|l| !(is_option(l) && has_flag(l, flag)));
    let first = lines.next().unwrap_or_default();
    std::iter::once(first).chain(lines.take_while(|l| !is_option(l))).collect::<Vec<_>>().join("\n")
}

/// Checks one labctl command line of a `run:` script against labctl's help: its subcommand (the
/// words each help lists under `Commands:`), its flags (on the line and in the script's
/// `args+=(...)` lines) and `--output`'s value. Gives the `subcommand flag` pairs it checked.
fn check_command(line: &str, script: &str) -> Result<Vec<String>, String> {
    let words: Vec<&str> = line.split(" > ").next().unwrap_or(line).split_whitespace().skip(1).collect();
    let mut subcommand: Vec<&str> = Vec::new();
    for word in &words {
        let mut help_args = subcommand.clone();
        help_args.push("--help");
        let help = labctl(&help_args, &root());
        if !commands(&text(&help.stdout)).iter().any(|c| c == word) {
            break;
        }
        subcommand.push(word);
    }
    if subcommand.is_empty() {
        return Err(format!("`{line}` names no labctl subcommand"));
    }
    let name = subcommand.join(" ");
    let mut help_args = subcommand.clone();
    help_args.push("--help");
    let help = labctl(&help_args, &root());
    if !help.status.success() {
        return Err(format!("labctl {name} --help fails"));
    }
    let help = text(&help.stdout);
    let array_words = script.lines().filter(|l| l.contains("args+=(")).flat_map(|l| l.split_whitespace());
    let all: Vec<&str> = words.iter().copied().chain(array_words).map(|w| w.trim_start_matches("args+=(")).collect();
    let mut checked = Vec::new();
    for (i, word) in all.iter().enumerate() {
        if word.starts_with('-') {
            if !has_flag(&help, word) {
                return Err(format!("labctl {name} has no {word}"));
            }
            checked.push(format!("{name} {word}"));
        }
        if *word == "--output" {
            let value = all.get(i + 1).copied().unwrap_or_default();
            if !option_help(&help, "--output").contains(&format!("- {value}:")) {
                return Err(format!("labctl {name} --output has no `{value}`"));
            }
        }
    }
    Ok(checked)
}

#[test]
fn hooks_workflow_runs_labctl_commands_and_flags_that_exist() {
    let scripts = run_scripts(&workflow());
    let lines: Vec<&str> =
        scripts.iter().flat_map(|s| s.lines()).map(str::trim).filter(|l| l.starts_with("labctl ")).collect();
    assert_eq!(
        lines,
        [
            r#"labctl lint clusterconfig/worker.yaml "${args[@]}" --output sarif > lint.sarif"#,
            "labctl cluster check clusterconfig/ --output sarif > cluster.sarif",
        ]
    );
    let mut checked = Vec::new();
    for line in lines {
        let script = scripts.iter().find(|s| s.contains(line)).unwrap();
        checked.extend(check_command(line, script).unwrap());
    }
    assert_eq!(checked, ["lint --output", "lint -p", "cluster check --output"]);
}

#[test]
fn hooks_workflow_check_refuses_what_labctl_does_not_accept() {
    let script = "for patch in patches/*.yaml; do args+=(-p \"@$patch\"); done";
    let cases = [
        (
            "labctl lnt base.yaml --output sarif > lint.sarif",
            "`labctl lnt base.yaml --output sarif > lint.sarif` names no labctl subcommand",
        ),
        ("labctl lint base.yaml --format sarif > lint.sarif", "labctl lint has no --format"),
        ("labctl lint base.yaml --output sarf > lint.sarif", "labctl lint --output has no `sarf`"),
        ("labctl lint base.yaml --output-file x > lint.sarif", "labctl lint has no --output-file"),
        ("labctl merge base.yaml --output sarif > lint.sarif", "labctl merge --output has no `sarif`"),
    ];
    for (line, error) in cases {
        assert_eq!(check_command(line, script), Err(error.to_owned()), "{line}");
    }
    let no_patch_flag = "for patch in patches/*.yaml; do args+=(--patches \"@$patch\"); done";
    assert_eq!(
        check_command("labctl lint base.yaml --output sarif > lint.sarif", no_patch_flag),
        Err("labctl lint has no --patches".to_owned())
    );
}

#[test]
fn hooks_workflow_lint_step_runs_on_a_cluster_folder() {
    let workflow = workflow();
    let step = steps(&workflow)
        .into_iter()
        .find(|s| s.get("name").is_some_and(|n| n.as_scalar().unwrap().text == "labctl lint"));
    let script = scalar(step.as_ref().unwrap(), "run").to_owned();
    for (patches, code, rules) in [
        (&["05-labels.yaml"][..], 0, vec![]),
        (&["05-labels.yaml", "08-kubelet.yaml"][..], 1, vec!["kubelet-unknown-flag patches/08-kubelet.yaml:4:7"]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        cluster_folder(dir.path(), &lab_worker());
        std::fs::create_dir(dir.path().join("patches")).unwrap();
        for patch in patches {
            std::fs::copy(root().join("fixtures").join(patch), dir.path().join("patches").join(patch)).unwrap();
        }
        // GitHub runs a step's `run` as `bash -e {0}`.
        let out = Command::new("bash")
            .arg("-e")
            .arg("-c")
            .arg(&script)
            .env("PATH", path_with_labctl())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(text(&out.stdout), "");
        assert_eq!(text(&out.stderr), if code == 0 { CLEAN } else { ONE_ERROR });
        assert_eq!(out.status.code(), Some(code));
        let log: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("lint.sarif")).unwrap()).unwrap();
        crate::lint_cli::assert_valid_sarif(&log);
        let found: Vec<String> = log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let at = &r["locations"][0]["physicalLocation"];
                format!(
                    "{} {}:{}:{}",
                    r["ruleId"].as_str().unwrap(),
                    at["artifactLocation"]["uri"].as_str().unwrap(),
                    at["region"]["startLine"],
                    at["region"]["startColumn"]
                )
            })
            .collect();
        assert_eq!(found, rules);
    }
}

#[test]
fn hooks_workflow_cluster_check_step_writes_sarif() {
    let workflow = workflow();
    let step = steps(&workflow)
        .into_iter()
        .find(|s| s.get("name").is_some_and(|n| n.as_scalar().unwrap().text == "labctl cluster check"));
    let script = scalar(step.as_ref().unwrap(), "run").to_owned();
    let dir = tempfile::tempdir().unwrap();
    cluster_folder(dir.path(), &lab_worker());
    let out = Command::new("bash")
        .arg("-e")
        .arg("-c")
        .arg(&script)
        .env("PATH", path_with_labctl())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("cluster.sarif")).unwrap()).unwrap();
    crate::lint_cli::assert_valid_sarif(&log);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn hooks_readme_config_uses_the_hooks_of_the_hooks_file() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```yaml\n# .pre-commit-config.yaml\n").expect("the README's pre-commit config") + 8;
    let block = &readme[start..start + readme[start..].find("```").unwrap()];
    let config = talos_yaml::parse::parse_documents(block.as_bytes()).unwrap().remove(0);
    let repo = &config.get("repos").unwrap().as_sequence().unwrap()[0];
    let hooks: Vec<(String, Vec<String>)> = repo
        .get("hooks")
        .unwrap()
        .as_sequence()
        .unwrap()
        .iter()
        .map(|h| {
            let args = h.get("args").unwrap().as_sequence().unwrap();
            (scalar(h, "id").to_owned(), args.iter().map(|a| a.as_scalar().unwrap().text.clone()).collect())
        })
        .collect();
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        hooks,
        vec![
            ("labctl-lint".to_owned(), strings(&["clusterconfig/worker.yaml"])),
            ("labctl-cluster-check".to_owned(), strings(&["clusterconfig/"])),
        ]
    );
    let ids: Vec<String> =
        parse(".pre-commit-hooks.yaml").as_sequence().unwrap().iter().map(|h| scalar(h, "id").to_owned()).collect();
    assert_eq!(ids, ["labctl-lint", "labctl-cluster-check"]);
    let lint = repo.get("hooks").unwrap().as_sequence().unwrap()[0].clone();
    assert_eq!(scalar(&lint, "files"), r"^patches/.*\.ya?ml$");
}
