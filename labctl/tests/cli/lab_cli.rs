//! End-to-end tests of `labctl lab run`, `labctl lab check` and `labctl sim up` against the simulated cluster (real
//! gRPC over mutual TLS, a real HTTPS Kubernetes API for kube-rs, real TCP probes on loopback): the whole lab and
//! its files (the snapshots), and the helpers the other `lab_*` tests share (`lab_sim_up_cli`, `lab_try_cli`,
//! `lab_setup_cli`, `lab_interrupt_cli`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub(crate) fn labctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl"))
        // English whatever the machine's locale: these tests compare English texts.
        .env("LC_ALL", "C")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("labctl runs")
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub(crate) fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

pub(crate) fn json(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&read(dir, name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Replaces the value at `pointer` with `<what>` after checking it has the expected shape.
fn redact(v: &mut Value, pointer: &str, what: &str, shape: impl Fn(&str) -> bool) {
    let slot = v.pointer_mut(pointer).unwrap_or_else(|| panic!("no {pointer}"));
    let s = slot.as_str().unwrap_or_else(|| panic!("{pointer} is not a string: {slot}"));
    assert!(shape(s), "{pointer} = {s:?} has not the expected shape");
    *slot = Value::String(format!("<{what}>"));
}

pub(crate) fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).expect("json") + "\n"
}

/// `2026-12-02T18:04:33.961541164Z`.
fn is_rfc3339(s: &str) -> bool {
    s.len() >= 20 && s.as_bytes()[4] == b'-' && s.as_bytes()[10] == b'T' && s.ends_with('Z')
}

/// Every file of a finished run, with the lab's names, fields and types; volatile values checked, then redacted.
pub(crate) fn assert_lab_files(out: &Path, try_timeout: u64) {
    insta::assert_snapshot!("noshell", read(out, "noshell.json"));
    insta::assert_snapshot!("services", read(out, "services.json"));
    insta::assert_snapshot!("members", read(out, "members.json"));
    let mut cluster = json(out, "cluster.json");
    redact(&mut cluster, "/api_server", "https://127.0.0.1:port", |s| s.starts_with("https://127.0.0.1:"));
    insta::assert_snapshot!("cluster", pretty(&cluster));
    let mut patch = json(out, "patch.json");
    redact(&mut patch, "/container_started_at", "State.StartedAt", is_rfc3339);
    insta::assert_snapshot!("patch", pretty(&patch));
    let t = json(out, "try.json");
    assert_eq!(t["timeout_sec"], Value::from(try_timeout));
    insta::assert_snapshot!(
        "try",
        read(out, "try.json").replace(&format!("\"timeout_sec\": {try_timeout},"), "\"timeout_sec\": <timeout>,")
    );
    insta::assert_snapshot!("rejected", read(out, "rejected.json"));
    let mut diag = json(out, "kubelet-diag.json");
    redact(&mut diag, "/error_line", "E<MMDD> <time> <pid> run.go:72] ...", |s| {
        s.starts_with('E')
            && s.ends_with(
                " run.go:72] \"command failed\" err=\"failed to parse kubelet flag: unknown flag: --max-pod\"",
            )
    });
    insta::assert_snapshot!("kubelet_diag", pretty(&diag));
    let mut report = json(out, "report.json");
    redact(&mut report, "/apply_log_line", "[talos] <time> apply config request: mode no_reboot", |s| {
        s.starts_with("[talos] 20") && s.ends_with(" apply config request: mode no_reboot")
    });
    insta::assert_snapshot!("report", pretty(&report));
    assert_eq!(
        read(out, "patch-out.txt"),
        "patched MachineConfigs.config.talos.dev/v1alpha1 at the node 10.5.0.3\nApplied configuration without a reboot\n"
    );
    assert_eq!(
        read(out, "rejected.txt"),
        "patched MachineConfigs.config.talos.dev/v1alpha1 at the node 10.5.0.3\n1 error occurred:\n\t* 10.5.0.3: rpc \
         error: code = InvalidArgument desc = 1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid \
         machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n\n\n\n"
    );
    for (name, body) in [
        ("05-labels.yaml", "machine:\n  nodeLabels:\n    lab.talos.dev/pool: blue\n"),
        ("07-bad.yaml", "machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n"),
        ("08-kubelet.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n"),
        ("08-fix.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod:\n        $patch: delete\n"),
    ] {
        assert_eq!(read(out, name), body, "{name}");
    }
    // The version arithmetic of docs/lab.md's bookkeeping table.
    let members = json(out, "members.json");
    let patch = json(out, "patch.json");
    let rejected = json(out, "rejected.json");
    let report = json(out, "report.json");
    assert_eq!(members["worker_mc_version"], 1);
    assert_eq!((patch["mc_version_before"].clone(), patch["mc_version_after"].clone()), (1.into(), 2.into()));
    assert_eq!((t["version_during"].clone(), t["version_after_revert"].clone()), (3.into(), 4.into()));
    assert_eq!((rejected["version_before"].clone(), rejected["version_after"].clone()), (4.into(), 4.into()));
    assert_eq!(json(out, "kubelet-diag.json")["accepted_version"], 5);
    assert_eq!(report["worker_config_changes"], 5, "version 6 - 1");
    assert_eq!(report["worker_restarts"], 0);
    // The kubeconfig: a regular file, mode 0600.
    let meta = std::fs::symlink_metadata(out.join("kubeconfig")).expect("kubeconfig");
    assert!(meta.file_type().is_file());
    use std::os::unix::fs::PermissionsExt as _;
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
}

pub(crate) const ALL_PASS: [&str; 9] = [
    "step 1: PASS: exec sh exits 127, port 22 closed, port 50000 open",
    "step 2: PASS: 7 services on the control plane, 5 on the worker",
    "step 3: PASS: Talos v1.13.10, 2 members, worker version 1 then",
    "step 4: PASS: 2 nodes, kubelet v1.36.3, overlaps_host true",
    "step 5: PASS: pool label applied without a reboot (version 1 -> 2) and on the Node",
    "step 6: PASS: canary seen in try mode (version 3), rolled back (version 4), pool kept",
    "step 7: PASS: rejected with the node's text (exactly as labctl predicts); version stayed 4",
    "step 8: PASS: kubelet was Waiting (accepted version 5), now Running/OK and the Node Ready",
    "step 9: PASS: 5 config changes, 0 restarts, machine.nodeLabels rejected, kubelet broke",
];

#[test]
fn lab_run_sim_runs_the_whole_lab_and_passes_the_check() {
    let out = tempfile::tempdir().expect("tempdir");
    let dir = out.path().join("talos-lab");
    let o = labctl(&["lab", "run", "--sim", "--out", dir.to_str().unwrap(), "--try-timeout", "1s"]);
    assert!(o.status.success(), "stderr:\n{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    let tail: Vec<&str> = stdout.lines().rev().take(9).collect::<Vec<_>>().into_iter().rev().collect();
    assert_eq!(tail, ALL_PASS);
    assert_lab_files(&dir, 1);
}

/// `labctl sim up --dir DIR` in the background, stopped when dropped.
pub(crate) struct SimUp {
    child: Child,
    dir: PathBuf,
}

impl SimUp {
    pub(crate) fn start(dir: &Path) -> SimUp {
        SimUp::start_with(dir, &[])
    }

    pub(crate) fn start_with(dir: &Path, extra: &[&str]) -> SimUp {
        let child = Command::new(env!("CARGO_BIN_EXE_labctl"))
            // English whatever the machine's locale: these tests compare English texts.
            .env("LC_ALL", "C")
            .args(["sim", "up", "--dir", dir.to_str().unwrap()])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn labctl sim up");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !dir.join("sim.json").exists() {
            assert!(Instant::now() < deadline, "labctl sim up wrote no sim.json within 60s");
            std::thread::sleep(Duration::from_millis(50));
        }
        SimUp { child, dir: dir.to_path_buf() }
    }

    pub(crate) fn dir(&self) -> &str {
        self.dir.to_str().unwrap()
    }
}

impl Drop for SimUp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn sim_up_then_lab_run_then_lab_check() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    for name in ["talosconfig", "talosconfig-operator", "talosconfig-reader", "pki.json", "kubeconfig", "sim.json"] {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(tmp.path().join("sim").join(name)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{name}");
    }
    let env = talos_sim::SimEnv::read(&tmp.path().join("sim")).expect("sim.json");
    assert_eq!(env.pid, sim.child.id());
    assert_eq!(env.talosconfig, tmp.path().join("sim/talosconfig"));
    assert_eq!(env.kubeconfig, tmp.path().join("sim/kubeconfig"));
    assert_eq!(env.containers.len(), 2);
    let out = tmp.path().join("lab");
    let out_s = out.to_str().unwrap();
    let run = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"]);
    assert!(run.status.success(), "stderr:\n{}", text(&run.stderr));
    assert_lab_files(&out, 1);
    // Step 7 shows the node's answer without talosctl's "patched" line or its trailing blank lines
    // (rejected.txt keeps them), and the run ends with the files it wrote.
    let progress = text(&run.stderr);
    assert!(
        progress.contains(
            "step 7: sent 07-bad.yaml to 10.5.0.3; the node answered:\n1 error occurred:\n\t* 10.5.0.3: rpc error: \
             code = InvalidArgument desc = 1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid \
             machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n== step 8"
        ),
        "{progress}"
    );
    assert!(
        progress.contains(&format!(
            "files in {out_s}: written: noshell.json, services.json, members.json, kubeconfig, cluster.json, \
             05-labels.yaml, patch-out.txt, patch.json, try.json, 07-bad.yaml, rejected.txt, rejected.json, \
             08-kubelet.yaml, kubelet-diag.json, 08-fix.yaml, report.json; kept: none\n"
        )),
        "{progress}"
    );
    let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"]);
    assert_eq!(text(&check.stdout), ALL_PASS.map(|l| format!("{l}\n")).concat());
    assert_eq!(text(&check.stderr), "");
    assert!(check.status.success());
    // The lab asks for a 30 s try: a shorter one passes only when the check is told so.
    let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s]);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        text(&check.stdout).lines().nth(5),
        Some(
            "step 6: FAIL: try.json timeout_sec is 1, but the lab's try uses --timeout=30s (a rehearsal run with \
             another --try-timeout is checked with the same --try-timeout)"
        )
    );
    let check =
        labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s", "--output", "json"]);
    assert!(check.status.success());
    let doc: Value = serde_json::from_slice(&check.stdout).expect("json");
    assert_eq!(doc["pass"], true);
    assert_eq!(doc["steps"].as_array().map(Vec::len), Some(9));
    assert_eq!(
        doc["steps"][6],
        serde_json::json!({"step": 7, "pass": true, "reason": "rejected with the node's text (exactly as labctl predicts); version stayed 4"})
    );

    // Observations are recorded once: a re-run verifies each recorded step and keeps its files byte for byte.
    let recorded = |names: &[&str]| names.iter().map(|n| read(&out, n)).collect::<Vec<_>>();
    let files = ["members.json", "patch.json", "try.json", "rejected.json", "kubelet-diag.json", "report.json"];
    let before = recorded(&files);
    let again = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--from", "5", "--try-timeout", "1s"]);
    assert!(again.status.success(), "stderr:\n{}", text(&again.stderr));
    let kept: Vec<String> = ALL_PASS[4..]
        .iter()
        .zip(["patch.json", "try.json", "rejected.json", "kubelet-diag.json", "report.json"])
        .map(|(line, file)| {
            let (step, reason) = line.split_once(": PASS: ").expect("a PASS line");
            format!("{step}: already recorded in {file}; kept, and it checks: {reason}")
        })
        .collect();
    let stdout = text(&again.stdout);
    assert_eq!(stdout.lines().take(5).collect::<Vec<_>>(), kept);
    assert_eq!(recorded(&files), before);
    assert!(
        text(&again.stderr).contains(&format!(
            "files in {out_s}: written: none; kept: noshell.json, services.json, members.json, kubeconfig, \
             cluster.json, 05-labels.yaml, patch-out.txt, patch.json, try.json, 07-bad.yaml, rejected.txt, \
             rejected.json, 08-kubelet.yaml, kubelet-diag.json, 08-fix.yaml, report.json\n"
        )),
        "{}",
        text(&again.stderr)
    );

    // The grader reads report.json as the lab words it: a line copied from `talosctl logs machined` (with its node
    // prefix) is a line of the log, and a field the lab does not name is no error.
    let mut report = json(&out, "report.json");
    let line = report["apply_log_line"].as_str().expect("a string").to_string();
    report["apply_log_line"] = Value::from(format!("10.5.0.3: {line}"));
    report["note"] = Value::from("written by hand");
    std::fs::write(out.join("report.json"), pretty(&report)).unwrap();
    let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"]);
    assert_eq!(text(&check.stdout), ALL_PASS.map(|l| format!("{l}\n")).concat());

    // A failing check names the step and the reason, and exits 1.
    // Step 6's line of `lab check --try-timeout <check_timeout>` with `timeout_sec` written as `timeout_json`.
    let step6_line = |timeout_json: &str, check_timeout: &str| {
        let file = format!(
            "{{\"timeout_sec\": {timeout_json}, \"version_during\": 3, \"seen_on_node\": true, \
             \"version_after_revert\": 4}}\n"
        );
        std::fs::write(out.join("try.json"), file).unwrap();
        let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", check_timeout]);
        assert_eq!(check.status.code(), Some(1));
        assert_eq!(text(&check.stderr), "labctl: 1 of 9 steps do not pass\n");
        text(&check.stdout).lines().nth(5).unwrap_or_default().to_string()
    };
    let line6 = step6_line("\"1\"", "1s");
    let path = out.join("try.json");
    assert_eq!(
        line6,
        format!(
            "step 6: FAIL: {}: timeout_sec is the string \"1\", where the lab asks for a whole number (line 1, column 19)",
            path.display()
        )
    );
    // "A number" as the lab words it: 1.0 is the whole number 1.
    std::fs::write(
        out.join("try.json"),
        "{\"timeout_sec\": 1.0, \"version_during\": 3, \"seen_on_node\": true, \"version_after_revert\": 4}\n",
    )
    .unwrap();
    let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"]);
    assert_eq!(text(&check.stdout).lines().nth(5), Some(ALL_PASS[5]));

    // A timeout the try did not use is caught by the machined log, which shows the rollback 1 s after the try.
    let line6 = step6_line("5", "5s");
    let seen = |gap: u64| {
        format!(
            "step 6: FAIL: the worker's machined log shows no try-mode apply rolled back 5s later (`apply config \
             request: mode try`, then `rolling back the configuration`; seen: {gap}s)"
        )
    };
    assert!(line6 == seen(1) || line6 == seen(2), "{line6}");

    // Tampered files: each reason names the file, the field and what the lab asks for, in the lab's words.
    let members = read(&out, "members.json");
    let step3 = |file: String| {
        std::fs::write(out.join("members.json"), file).unwrap();
        let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"]);
        text(&check.stdout).lines().nth(2).unwrap_or_default().to_string()
    };
    let file = out.join("members.json").display().to_string();
    let mut m: Value = serde_json::from_str(&members).unwrap();
    m["worker_mc_version"] = Value::from("4");
    let quoted_version = step3(pretty(&m));
    assert_eq!(
        without_position(&quoted_version),
        format!("step 3: FAIL: {file}: worker_mc_version is the string \"4\", where the lab asks for a whole number")
    );
    let mut m: Value = serde_json::from_str(&members).unwrap();
    let first = m["members"].as_object().and_then(|o| o.keys().next().cloned()).expect("a member");
    m["members"][&first]["type"] = Value::from(1);
    let numeric_type = step3(pretty(&m));
    assert_eq!(
        without_position(&numeric_type),
        format!("step 3: FAIL: {file}: members.{first}.type is the number 1, where the lab asks for a string")
    );
    let mut m: Value = serde_json::from_str(&members).unwrap();
    m["members"][&first]["addresses"] = serde_json::json!(["10.9.9.9"]);
    let other_address = step3(pretty(&m));
    assert!(other_address.starts_with("step 3: FAIL: members.json members is {\""), "{other_address}");
    let mut m: Value = serde_json::from_str(&members).unwrap();
    m.as_object_mut().unwrap().remove("talos_version");
    let missing = step3(pretty(&m));
    assert_eq!(
        without_position(&missing),
        format!("step 3: FAIL: {file} has no field talos_version, which the lab asks for")
    );
    let not_json = step3("{\"talos_version\": ".to_string());
    assert_eq!(
        not_json,
        format!("step 3: FAIL: {file} is not valid JSON: EOF while parsing a value (line 1, column 18)")
    );
    // No Rust in any of them.
    for reason in [&quoted_version, &numeric_type, &other_address, &missing, &not_json] {
        for rust in ["u64", "i64", "u16", "struct ", "Some(", "None", "MemberEntry", "invalid type", "expected "] {
            assert!(!reason.contains(rust), "{rust:?} in {reason}");
        }
    }
    std::fs::write(out.join("members.json"), members).unwrap();

    // Recording step 3 again (`--redo 3`) makes members.json contradict patch.json, and the check says so.
    let redo = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "3", "--redo", "3"]);
    assert!(redo.status.success(), "stderr:\n{}", text(&redo.stderr));
    let version = json(&out, "members.json")["worker_mc_version"].as_u64().expect("a number");
    assert_eq!(version, 6);
    let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"]);
    assert_eq!(
        text(&check.stdout).lines().nth(4),
        Some(
            "step 5: FAIL: patch.json mc_version_before is 1, below members.json worker_mc_version 6, which an \
             earlier step recorded: the files come from different runs; record step 5 again with `--redo 5`"
        )
    );
    // A recorded step that no longer checks stops `lab run`, with the command to record it again.
    let refused = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "5"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    assert!(
        stderr.ends_with(&format!(
            "labctl: step 5: patch.json is already recorded, but: patch.json mc_version_before is 1, below \
             members.json worker_mc_version 6, which an earlier step recorded: the files come from different runs; \
             record step 5 again with `--redo 5`\nto record step 5 again: labctl lab run --sim-dir {} --out {out_s} --step 5 --redo 5\n",
            sim.dir()
        )),
        "{stderr}"
    );
    // `--redo 6` tries the canary again (it is not "already done"): a new try, rolled back.
    let redo = labctl(&[
        "lab",
        "run",
        "--sim-dir",
        sim.dir(),
        "--out",
        out_s,
        "--step",
        "6",
        "--redo",
        "6",
        "--try-timeout",
        "1s",
    ]);
    assert!(redo.status.success(), "stderr:\n{}", text(&redo.stderr));
    let t = json(&out, "try.json");
    assert_eq!((t["version_during"].clone(), t["version_after_revert"].clone()), (7.into(), 8.into()));
}

/// A reason without its `(line L, column C)`.
fn without_position(reason: &str) -> String {
    match reason.rsplit_once(" (line ") {
        Some((head, tail)) if tail.ends_with(')') => head.to_string(),
        _ => reason.to_string(),
    }
}

#[test]
fn an_unreachable_node_fails_the_step_and_keeps_earlier_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let out = tmp.path().join("lab");
    let out_s = out.to_str().unwrap();
    let run = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "1"]);
    assert!(run.status.success(), "stderr:\n{}", text(&run.stderr));
    let noshell = read(&out, "noshell.json");
    let started = Instant::now();
    let failed =
        labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--from", "2", "--worker", "10.5.0.99"]);
    assert!(started.elapsed() < Duration::from_secs(30), "took {:?}", started.elapsed());
    assert_eq!(failed.status.code(), Some(1));
    insta::assert_snapshot!("unreachable_node", text(&failed.stderr));
    assert_eq!(read(&out, "noshell.json"), noshell);
    assert!(!out.join("services.json").exists());
}

#[test]
fn the_try_timeout_is_whole_seconds() {
    let o = labctl(&["lab", "run", "--sim", "--try-timeout", "1.5s"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("try_timeout_usage", text(&o.stderr));
}
