//! `labctl lsp` over stdio (issue 28, first part): a client speaking JSON-RPC with
//! Content-Length framing, as an editor does. The lab's step-8 patch gets the
//! `kubelet-unknown-flag` diagnostic at its line while typing (incremental changes), hover shows
//! a field's doc, completion offers the keys of the mapping at the cursor, the misspelled flag's
//! quick fix renames it, and a bad request
//! gets an error answer without ending the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

pub(crate) struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Client {
    pub(crate) fn start() -> Client {
        Client::start_in(None)
    }

    /// The server started for a workspace folder (`rootUri`), when there is one.
    pub(crate) fn start_in(root: Option<&std::path::Path>) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_labctl"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (stdin, stdout) = (child.stdin.take().unwrap(), BufReader::new(child.stdout.take().unwrap()));
        let mut client = Client { child, stdin, stdout, next_id: 1 };
        let root = root.map(|r| format!("file://{}", r.display()));
        let init = client.request("initialize", json!({"processId": null, "rootUri": root, "capabilities": {}}));
        assert_eq!(init["result"]["capabilities"]["textDocumentSync"], json!(2), "{init}");
        client.notify("initialized", json!({}));
        client
    }

    pub(crate) fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub(crate) fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.stdout.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response (notifications in between are skipped).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// The next diagnostics published.
    pub(crate) fn diagnostics(&mut self) -> Value {
        loop {
            let message = self.receive();
            if message["method"] == "textDocument/publishDiagnostics" {
                return message["params"]["diagnostics"].clone();
            }
        }
    }

    pub(crate) fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let _ = self.child.wait();
    }
}

const STEP8: &str = "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n";

#[test]
fn the_step8_patch_gets_its_diagnostic_while_typing() {
    let mut client = Client::start();
    let uri = "file:///lab/08-kubelet.yaml";
    client.open(uri, STEP8);
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.as_array().unwrap().len(), 1, "{diagnostics}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "kubelet-unknown-flag");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"], json!({"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 13}}));
    assert_eq!(
        d["message"],
        "kubelet v1.36 has no flag `--max-pod`: it exits at start (`unknown flag: --max-pod`), Talos restarts it \
         every 5 s, and the node never becomes Ready\ndid you mean `max-pods`? Rename the key."
    );
    // The quick fix renames the key.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    assert_eq!(
        actions["result"],
        json!([{
            "title": "Rename to `max-pods`",
            "kind": "quickfix",
            "isPreferred": true,
            "edit": {"changes": {uri: [{"range": d["range"], "newText": "max-pods"}]}}
        }])
    );
    // Typing the missing `s` (an incremental change) clears the error; what is left is the
    // warning that the flag belongs in `extraConfig`.
    let change =
        json!({"range": {"start": {"line": 3, "character": 13}, "end": {"line": 3, "character": 13}}, "text": "s"});
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]}),
    );
    let after = client.diagnostics();
    assert_eq!(after.as_array().unwrap().len(), 1, "{after}");
    assert_eq!(after[0]["severity"], 2);
    assert_eq!(after[0]["range"], json!({"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 14}}));
    assert!(after[0]["message"].as_str().unwrap().ends_with("\nset `machine.kubelet.extraConfig.maxPods` instead"));
}

#[test]
fn hover_completion_and_a_bad_request() {
    let mut client = Client::start();
    let uri = "file:///lab/05-labels.yaml";
    client.open(uri, "machine:\n  nodeLabels:\n    lab.talos.dev/pool: blue\n  \n");
    let _ = client.diagnostics();
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
    let hover = client.request("textDocument/hover", at(1, 4));
    let value = hover["result"]["contents"]["value"].as_str().unwrap().to_string();
    assert!(value.starts_with("**machine.nodeLabels** (v1alpha1)\n\n"), "{value}");
    assert!(value.len() > "**machine.nodeLabels** (v1alpha1)\n\n".len() + 10, "the field's doc: {value}");
    let completion = client.request("textDocument/completion", at(3, 2));
    let labels: Vec<&str> =
        completion["result"].as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"kubelet") && labels.contains(&"nodeLabels") && labels.contains(&"install"), "{labels:?}");
    assert!(!labels.contains(&"$patch"));
    assert!(value.contains("\n\nGo type: `map[string]string`.\n\n"), "{value}");
    assert!(value.ends_with("\n\nApplying this file: no reboot."), "{value}");
    // Values after `key:` (an enum's names), kubelet flags under extraArgs.
    let names = |response: &Value| -> Vec<String> {
        response["result"].as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
    };
    let hostname = "file:///lab/hostname.yaml";
    client.open(hostname, "apiVersion: v1alpha1\nkind: HostnameConfig\nauto: \n");
    let _ = client.diagnostics();
    let values = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": hostname}, "position": {"line": 2, "character": 6}}),
    );
    assert_eq!(names(&values), ["off", "talos-addr", "stable"]);
    let kubelet = "file:///lab/kubelet.yaml";
    client.open(kubelet, "machine:\n  kubelet:\n    extraArgs:\n      \n");
    let _ = client.diagnostics();
    let flags = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": kubelet}, "position": {"line": 3, "character": 6}}),
    );
    let flags = names(&flags);
    assert!(flags.contains(&"max-pods".to_string()) && flags.contains(&"node-ip".to_string()), "{flags:?}");
    let bad = client.request("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    // The server still answers.
    let hover = client.request("textDocument/hover", at(0, 1));
    assert!(hover["result"]["contents"]["value"].as_str().unwrap().starts_with("**machine** (v1alpha1)"));
}

/// A real editor: Neovim's own LSP client (headless, driven by `data/nvim/lsp.lua`) opens the
/// lab's step-8 patch and sees the diagnostic on line 4, completes `kubelet` under `machine:`,
/// applies the rename quick fix, and shows `nodeLabels`' doc on hover in the step-5 patch.
/// Skipped, saying so, where `nvim` is absent; required under `CI=true` (`.ci/run` installs it).
#[test]
fn neovim_shows_the_diagnostic_hover_completion_and_fix() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "nvim is missing on the CI machine");
        eprintln!("note: nvim is not installed: the Neovim test of labctl lsp did not run");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["08-kubelet.yaml", "05-labels.yaml"] {
        std::fs::copy(root.join("fixtures").join(name), dir.path().join(name)).unwrap();
    }
    let out = dir.path().join("out.txt");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/data/nvim/lsp.lua");
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("LABCTL", env!("CARGO_BIN_EXE_labctl"))
        .env("DIR", dir.path())
        .env("OUT", &out)
        .stdin(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "diagnostic line 4 col 7 kubelet-unknown-flag: kubelet v1.36 has no flag `--max-pod`: it exits at start \
         (`unknown flag: --max-pod`), Talos restarts it every 5 s, and the node never becomes Ready\n\
         completion under machine offers kubelet: true\n\
         code action: Rename to `max-pods`\n\
         line 4 after the fix:       max-pods: \"150\"\n\
         hover: **machine.nodeLabels** (v1alpha1)\n\
         hover doc: Labels Talos keeps on this node's Kubernetes Node object (applied without a reboot).\n"
    );
}

/// With a `.labctl.toml`, a patch is checked in its config's context, hover says which file set
/// the merged value, and go to definition jumps there (a later patch that overrides the key).
#[test]
fn a_project_file_gives_the_context_hover_origin_and_definition() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::copy(root.join("fixtures/worker.yaml"), dir.path().join("worker.yaml")).unwrap();
    std::fs::copy(root.join("fixtures/05-labels.yaml"), dir.path().join("05-labels.yaml")).unwrap();
    std::fs::write(dir.path().join("06-relabel.yaml"), "machine:\n  nodeLabels:\n    lab.talos.dev/pool: green\n")
        .unwrap();
    std::fs::write(dir.path().join(".labctl.toml"), "[[config]]\nbase = \"worker.yaml\"\npatches = [\"0*.yaml\"]\n")
        .unwrap();
    let mut client = Client::start();
    let uri = format!("file://{}/05-labels.yaml", dir.path().display());
    client.open(&uri, &std::fs::read_to_string(dir.path().join("05-labels.yaml")).unwrap());
    assert_eq!(client.diagnostics(), json!([]));
    let at = json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 6}});
    let hover = client.request("textDocument/hover", at.clone());
    let value = hover["result"]["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        value.ends_with("\n\nIn the merged config, set by 06-relabel.yaml:3.\n\nApplying this file: no reboot."),
        "{value}"
    );
    let definition = client.request("textDocument/definition", at);
    let target = format!("file://{}/06-relabel.yaml", dir.path().display());
    assert_eq!(
        definition["result"],
        json!({"uri": target, "range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 4}}})
    );
}

/// A buffer that is not YAML gets go-yaml's error as a diagnostic at its line; the server goes on.
#[test]
fn an_unparsable_buffer_gets_a_diagnostic() {
    let mut client = Client::start();
    let uri = "file:///lab/broken.yaml";
    client.open(uri, "machine:\n  nodeLabels: [a\n");
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.as_array().unwrap().len(), 1, "{diagnostics}");
    assert_eq!(diagnostics[0]["severity"], 1);
    assert_eq!(diagnostics[0]["code"], "talos-merge");
    assert_eq!(diagnostics[0]["range"]["start"], json!({"line": 2, "character": 0}));
    assert_eq!(
        diagnostics[0]["message"],
        "decode error: yaml: while parsing a flow sequence at line 1, column 15: line 2: did not find expected ',' \
         or ']'\nfix the input named here as the message says; nothing else was checked"
    );
    let hover = client
        .request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}));
    assert!(hover.get("error").is_none(), "{hover}");
}
