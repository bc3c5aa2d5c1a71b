//! `--talos-release` (issue 36): every config command answers as the release named after the
//! subcommand, with that release's texts (recorded with Talos v1.12.11's and v1.13.9's own code,
//! talos-config's `tests/engine/data/releases`), and an unknown release is refused naming the
//! supported ones.

use crate::merge_cli::{labctl, root, text};

/// A recorded case of talos-config's `tests/engine/data/releases/<case>/`.
fn recorded(case: &str, file: &str) -> String {
    text(&std::fs::read(root().join("talos-config/tests/engine/data/releases").join(case).join(file)).unwrap())
}

/// A v1.13 list-valued `extraArgs` patch: v1.12.11 decoded `extraArgs` as a map of strings.
const LIST_ARGS: &str = "machine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true]\n";

const V1_12_REFUSAL: &str = "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: unmarshal errors:\n  line 4: cannot unmarshal !!seq into string\n";

fn patch_file(dir: &tempfile::TempDir, text: &str) -> String {
    let path = dir.path().join("args.yaml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// What `talosctl machineconfig patch` of each release printed for the same list-valued
/// `extraArgs` patch, exactly (stdout and stderr; labctl adds where the error is).
#[test]
fn merge_answers_as_the_release_named() {
    let patch = "@talos-config/tests/engine/data/releases/extraargs-list/patch.yaml";
    for release in ["v1.12.11", "v1.12", "1.12"] {
        let out = labctl(&["merge", "--talos-release", release, "fixtures/worker.yaml", "-p", patch]);
        assert_eq!(out.status.code(), Some(1), "{release}");
        let where_ = format!("labctl: in {} at line 1, column 36\n", &patch[1..]);
        assert_eq!(text(&out.stderr), recorded("extraargs-list", "v1.12.11.err") + &where_, "{release}");
        assert!(out.stdout.is_empty());
    }
    for release in [None, Some("v1.13.9"), Some("v1.13")] {
        let mut args = vec!["merge", "fixtures/worker.yaml", "-p", patch];
        if let Some(r) = release {
            args.extend(["--talos-release", r]);
        }
        let out = labctl(&args);
        assert_eq!(out.status.code(), Some(0), "{release:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), recorded("extraargs-list", "v1.13.9.yaml"), "{release:?}");
    }
}

#[test]
fn validate_and_lint_answer_as_the_release_named() {
    let dir = tempfile::tempdir().unwrap();
    // A VRFConfig document: registered from v1.13 on.
    let config = dir.path().join("vrf.yaml");
    let mut bytes = std::fs::read(crate::merge_cli::root().join("fixtures/worker.yaml")).unwrap();
    bytes.extend_from_slice(b"---\napiVersion: v1alpha1\nkind: VRFConfig\nname: vrf-blue\ntable: \"123\"\n");
    std::fs::write(&config, bytes).unwrap();
    let config = config.display().to_string();
    let out = labctl(&["validate", "--talos-release", "v1.12.11", "--config", &config, "--mode", "container"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error decoding document v1alpha1/VRFConfig/vrf-blue (line 54): \"VRFConfig\" \"v1alpha1\": not registered\n"
    );
    let out = labctl(&["validate", "--config", &config, "--mode", "container"]);
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), format!("{config} is valid for container mode\n")));

    let patch = format!("@{}", patch_file(&dir, LIST_ARGS));
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", &patch, "--talos-release", "v1.12"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}:4:22: error[talos-merge]: {}  fix: fix the input named here as the message says; nothing else was checked\n",
            &patch[1..],
            V1_12_REFUSAL
        )
    );
}

#[test]
fn an_unknown_release_is_refused_naming_the_supported_ones() {
    // `lint` says usage errors with exit code 2 (its documented codes), the others with 1.
    for (command, code) in
        [(&["merge", "fixtures/worker.yaml"][..], 1), (&["schema"], 1), (&["lint", "fixtures/worker.yaml"], 2)]
    {
        let out = labctl(&[command, &["--talos-release", "v1.11"]].concat());
        assert_eq!(out.status.code(), Some(code), "{command:?}");
        assert_eq!(
            text(&out.stderr),
            "error: invalid value 'v1.11' for '--talos-release <RELEASE>': unknown Talos release \"v1.11\": supported releases are v1.12.11, v1.13.9 and v1.14.0-rc.1 (v1.12, v1.13 and v1.14 name them too)\n\nFor more information, try '--help'.\n",
            "{command:?}"
        );
    }
}

/// v1.14.0-rc.1 answers as its own code does, named in full or by its line, with nothing on
/// stderr; stdout is the merged config alone.
#[test]
fn v1_14_answers_with_nothing_on_stderr() {
    let patch = "@talos-config/tests/engine/data/releases/patch-repeat/patch.yaml";
    for release in ["v1.14.0-rc.1", "v1.14"] {
        let out = labctl(&["merge", "--talos-release", release, "fixtures/worker.yaml", "-p", patch]);
        assert_eq!(out.status.code(), Some(0), "{release}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{release}");
        assert_eq!(text(&out.stdout), recorded("patch-repeat", "v1.14.0-rc.1.yaml"), "{release}");
    }
    let out = labctl(&["merge", "--talos-release", "v1.13.9", "fixtures/worker.yaml", "-p", patch]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        recorded("patch-repeat", "v1.13.9.err")
            + "labctl: in talos-config/tests/engine/data/releases/patch-repeat/patch.yaml at line 7, column 1\n"
    );
}
