//! `labctl lsp` and Talos v1.14 (issue 38): in a project that answers as v1.14.0-rc.1, a whole
//! machine config gets one `refactor.rewrite` code action that moves its v1alpha1 Kubernetes
//! settings into their own documents (the library's rewrite of the file, as the edit); a
//! default (v1.13.9) project and a patch get none. The server says nothing at initialization.

use std::path::Path;

use serde_json::{Value, json};
use talos_config::upgrade::{UpgradeOptions, rewrite};
use talos_config::{Mode, Release};

use super::lsp_cli::Client;

/// A project folder: the lab's worker and step-5 patch, and a `.labctl.toml` that starts with
/// `release_line` (empty for the default release).
fn project(release_line: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    for name in ["worker.yaml", "05-labels.yaml"] {
        std::fs::copy(fixtures.join(name), dir.path().join(name)).unwrap();
    }
    let toml = format!("{release_line}[[config]]\nbase = \"worker.yaml\"\npatches = [\"05-labels.yaml\"]\n");
    std::fs::write(dir.path().join(".labctl.toml"), toml).unwrap();
    dir
}

/// Opens `name` of `dir` and returns its URI and text, once its diagnostics are published.
fn open(client: &mut Client, dir: &Path, name: &str) -> (String, String) {
    let uri = format!("file://{}/{name}", dir.display());
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    client.open(&uri, &text);
    let _ = client.diagnostics();
    (uri, text)
}

/// The code actions for the lines `from..=to` of `uri`.
fn actions(client: &mut Client, uri: &str, from: u32, to: u32) -> Value {
    let range = json!({"start": {"line": from, "character": 0}, "end": {"line": to, "character": 0}});
    let response = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": []}}),
    );
    response["result"].clone()
}

#[test]
fn a_v1_14_config_gets_the_rewrite_that_moves_its_kubernetes_settings() {
    let dir = project("talos_release = \"v1.14.0-rc.1\"\n");
    let mut client = Client::start();
    let (uri, text) = open(&mut client, dir.path(), "worker.yaml");
    let options = UpgradeOptions {
        from: Release::V1_14_0_RC1,
        to: Release::V1_14_0_RC1,
        mode: Mode::Container,
        ..UpgradeOptions::default()
    };
    let expected = String::from_utf8(rewrite(text.as_bytes(), &options).unwrap().bytes).unwrap();
    let last = text.split('\n').count() as u32 - 1;
    // `machine.kubelet` (line 11): the whole file is replaced by the library's rewrite.
    assert_eq!(
        actions(&mut client, &uri, 10, 10),
        json!([{
            "title": "Move 7 Kubernetes settings into their Talos v1.14.0-rc.1 documents",
            "kind": "refactor.rewrite",
            "edit": {"changes": {uri.clone(): [{
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": last, "character": 0}},
                "newText": expected
            }]}}
        }])
    );
    // The first line and the last of the v1alpha1 document offer it; the HostnameConfig
    // document after it does not.
    assert_eq!(actions(&mut client, &uri, 0, 0).as_array().unwrap().len(), 1);
    assert_eq!(actions(&mut client, &uri, 47, 47).as_array().unwrap().len(), 1);
    assert_eq!(actions(&mut client, &uri, 48, 50), json!([]));
}

#[test]
fn a_default_project_and_a_patch_get_no_rewrite() {
    let default = project("");
    let mut client = Client::start();
    let (uri, _) = open(&mut client, default.path(), "worker.yaml");
    assert_eq!(actions(&mut client, &uri, 10, 10), json!([]));
    // A patch (no `version:`) in a v1.14 project: its `machine.nodeLabels` would move in a
    // config, but a patch is not rewritten.
    let v1_14 = project("talos_release = \"v1.14.0-rc.1\"\n");
    let (uri, _) = open(&mut client, v1_14.path(), "05-labels.yaml");
    assert_eq!(actions(&mut client, &uri, 0, 2), json!([]));
}

/// The notifications the server sends before the first diagnostics of a file opened right
/// after initialization: what it says at start.
fn said_at_start(root: &Path) -> Vec<Value> {
    let mut client = Client::start_in(Some(root));
    client.open(&format!("file://{}/worker.yaml", root.display()), "version: v1alpha1\n");
    let mut said = Vec::new();
    loop {
        let message = client.receive();
        if message["method"] == "textDocument/publishDiagnostics" {
            return said;
        }
        if message["method"] == "window/showMessage" {
            said.push(message["params"].clone());
        }
    }
}

/// No release is a preview: a v1.14 project, like a default one, starts without a message.
#[test]
fn no_release_is_announced_at_initialization() {
    let v1_14 = project("talos_release = \"v1.14.0-rc.1\"\n");
    assert_eq!(said_at_start(v1_14.path()), Vec::<Value>::new());
    let default = project("");
    assert_eq!(said_at_start(default.path()), Vec::<Value>::new());
}

/// A file under a project that its `[[config]]` does not list is still checked as the
/// project's release: a list in `extraArgs` is refused by v1.12.11, with its text.
#[test]
fn an_unlisted_file_answers_at_the_project_release() {
    let dir = project("talos_release = \"v1.12.11\"\n");
    let patch = "machine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true, B=true]\n";
    std::fs::write(dir.path().join("unlisted.yaml"), patch).unwrap();
    let mut client = Client::start();
    let uri = format!("file://{}/unlisted.yaml", dir.path().display());
    client.open(&uri, patch);
    assert_eq!(
        client.diagnostics(),
        json!([{
            "range": {"start": {"line": 3, "character": 21}, "end": {"line": 3, "character": 37}},
            "severity": 1,
            "code": "talos-merge",
            "source": "labctl",
            "message": "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: unmarshal errors:\n  line 4: cannot unmarshal !!seq into string\nfix the input named here as the message says; nothing else was checked"
        }])
    );
}
