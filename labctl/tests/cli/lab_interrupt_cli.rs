//! Interrupted runs: Ctrl-C or SIGTERM during a wait, or at any step, exits with the signal's
//! code, keeps the files written so far and prints the command that goes on; that command
//! finishes the lab (awaiting the try the interrupted run applied rather than applying it again).

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::lab_cli::{ALL_PASS, SimUp, assert_lab_files, labctl, read, text};

/// Ctrl-C during step 6's wait for the rollback: exit 130, a line naming the step, the files kept, and the command
/// to go on. Run at once, that command waits for the try the interrupted run applied (it does not apply it again)
/// and finishes the lab with nine PASS and every earlier file unchanged; a pending try labctl did not apply is still
/// refused.
#[test]
fn an_interrupted_try_is_awaited_when_the_run_goes_on() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let out = tmp.path().join("lab");
    let out_s = out.to_str().unwrap();
    let (code, rest) = interrupt_at(
        &["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "12s"],
        "step 6: waiting for the try-mode rollback",
        Duration::ZERO,
        "-INT",
    );
    assert_eq!(code, Some(130), "{rest}");
    const EARLIER: [&str; 8] = [
        "noshell.json",
        "services.json",
        "members.json",
        "kubeconfig",
        "cluster.json",
        "05-labels.yaml",
        "patch-out.txt",
        "patch.json",
    ];
    let before: Vec<String> = EARLIER.iter().map(|n| read(&out, n)).collect();
    let tail: Vec<&str> = rest.lines().rev().take(2).collect::<Vec<_>>().into_iter().rev().collect();
    let resume = format!("to go on: labctl lab run --sim-dir {} --out {out_s} --try-timeout 12s --from 6", sim.dir());
    assert_eq!(
        tail,
        [
            format!(
                "labctl: interrupted (Ctrl-C) during step 6 (a label in try mode that reverts by itself); the lab files in \
                 {out_s} are kept whole: {}",
                EARLIER.join(", ")
            ),
            resume.clone(),
        ]
    );
    let args: Vec<String> = resume.trim_start_matches("to go on: labctl ").split(' ').map(String::from).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Without labctl's record of the try, the pending rollback is someone else's: refused as before.
    let state = out.join(".labctl-state.json");
    let recorded = std::fs::read_to_string(&state).expect("state");
    let mut forgotten: serde_json::Value = serde_json::from_str(&recorded).expect("state JSON");
    forgotten.as_object_mut().expect("an object").remove("tries");
    std::fs::write(&state, forgotten.to_string()).expect("write state");
    let refused = labctl(&args);
    assert_eq!(refused.status.code(), Some(1));
    let refusal = text(&refused.stderr);
    assert!(refusal.contains("a try-mode rollback is pending on 10.5.0.3 (applied at "), "{refusal}");
    assert!(refusal.contains(" UTC by another client: the rollback is due after its --timeout"), "{refusal}");
    assert!(
        refusal.ends_with(&format!("or apply anyway and cancel the rollback: labctl {} --force\n", args.join(" "))),
        "{refusal}"
    );
    // With it, `lab run` again at once (the whole run: steps 1-5 are kept) waits for that try's rollback and
    // records the step.
    std::fs::write(&state, &recorded).expect("restore state");
    let go_on = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "12s"]);
    let stderr = text(&go_on.stderr);
    assert!(go_on.status.success(), "stdout:\n{}\nstderr:\n{stderr}", text(&go_on.stdout));
    let resumed = stderr.lines().find(|l| l.starts_with("step 6: the try labctl applied at ")).expect(&stderr);
    assert!(
        resumed.ends_with(
            " UTC is still pending (the run was interrupted): waiting for its rollback instead of applying it again"
        ),
        "{resumed}"
    );
    let stdout = text(&go_on.stdout);
    let verdict: Vec<&str> = stdout.lines().rev().take(9).collect::<Vec<_>>().into_iter().rev().collect();
    for (i, line) in verdict.iter().enumerate() {
        assert!(line.starts_with(&format!("step {}: PASS: ", i + 1)), "{stdout}");
    }
    let try_line = stdout.lines().find(|l| l.starts_with("step 6: try mode for 12s: version ")).expect(&stdout);
    assert!(try_line.ends_with("canary seen on the Node, rolled back to version 4; pool label kept"), "{try_line}");
    let after: Vec<String> = EARLIER.iter().map(|n| read(&out, n)).collect();
    assert_eq!(after, before);
}

/// Starts `lab run` with `args`, waits for `marker` on its stderr plus `delay`, sends `signal`, and returns the exit
/// code and the whole stderr.
fn interrupt_at(args: &[&str], marker: &str, delay: Duration, signal: &str) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_labctl"))
        // English whatever the machine's locale: these tests compare English texts.
        .env("LC_ALL", "C")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn labctl");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains(marker) {
        line.clear();
        assert!(stderr.read_line(&mut line).expect("stderr") > 0, "labctl ended before {marker:?}:\n{seen}");
        seen.push_str(&line);
    }
    std::thread::sleep(delay);
    let kill = Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    stderr.read_to_string(&mut seen).expect("stderr");
    (child.wait().expect("wait").code(), seen)
}

/// SIGTERM during step 8's wait for the kubelet: exit 143, and the printed command finishes the lab.
#[test]
fn sigterm_during_a_wait_resumes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let out = tmp.path().join("lab");
    let out_s = out.to_str().unwrap();
    let (code, stderr) = interrupt_at(
        &["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"],
        "step 8: waiting for",
        Duration::from_millis(200),
        "-TERM",
    );
    assert_eq!(code, Some(143), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default().to_string();
    assert_eq!(
        last,
        format!("to go on: labctl lab run --sim-dir {} --out {out_s} --try-timeout 1s --from 8", sim.dir())
    );
    assert!(
        stderr.contains(
            "labctl: interrupted (SIGTERM) during step 8 (an accepted patch that breaks the kubelet, and its fix)"
        ),
        "{stderr}"
    );
    let first: Vec<String> =
        ["members.json", "patch.json", "try.json", "rejected.json"].iter().map(|n| read(&out, n)).collect();
    let go_on = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s", "--from", "8"]);
    assert!(go_on.status.success(), "stdout:\n{}\nstderr:\n{}", text(&go_on.stdout), text(&go_on.stderr));
    let stdout = text(&go_on.stdout);
    let verdict: Vec<&str> = stdout.lines().rev().take(9).collect::<Vec<_>>().into_iter().rev().collect();
    assert_eq!(verdict, ALL_PASS);
    let after: Vec<String> =
        ["members.json", "patch.json", "try.json", "rejected.json"].iter().map(|n| read(&out, n)).collect();
    assert_eq!(after, first);
}

/// Ctrl-C at each step in turn, then the printed command: every run ends with all nine steps passing, and the files
/// of the steps finished before the interrupt are unchanged.
#[test]
fn a_run_interrupted_at_any_step_resumes() {
    const BY_STEP: [&str; 9] = [
        "noshell.json",
        "services.json",
        "members.json",
        "cluster.json",
        "patch.json",
        "try.json",
        "rejected.json",
        "kubelet-diag.json",
        "report.json",
    ];
    for step in 1..=9usize {
        let tmp = tempfile::tempdir().expect("tempdir");
        let sim = SimUp::start(&tmp.path().join("sim"));
        let out = tmp.path().join("lab");
        let out_s = out.to_str().unwrap();
        let (code, stderr) = interrupt_at(
            &["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"],
            &format!("== step {step}:"),
            Duration::from_millis(100),
            "-INT",
        );
        // Step 9 only writes the report: the run may end before the signal lands. Then there is
        // nothing to resume, and the run must have ended as a whole run does.
        if step == 9 && code == Some(0) {
            assert!(stderr.contains("\nfiles in "), "step 9:\n{stderr}");
            assert_lab_files(&out, 1);
            continue;
        }
        assert_eq!(code, Some(130), "step {step}:\n{stderr}");
        let resume = stderr.lines().last().unwrap_or_default().to_string();
        let interrupted: usize = resume.rsplit(' ').next().and_then(|n| n.parse().ok()).expect(&resume);
        assert!(interrupted >= step, "{resume}");
        let finished: Vec<(&str, String)> = BY_STEP[..interrupted - 1].iter().map(|n| (*n, read(&out, n))).collect();
        let args: Vec<String> = resume.trim_start_matches("to go on: labctl ").split(' ').map(String::from).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // A try the interrupted run applied is awaited, not refused.
        let go_on = labctl(&args);
        assert!(
            go_on.status.success(),
            "step {step}:\nstdout:\n{}\nstderr:\n{}",
            text(&go_on.stdout),
            text(&go_on.stderr)
        );
        let stdout = text(&go_on.stdout);
        let verdict: Vec<&str> = stdout.lines().rev().take(9).collect::<Vec<_>>().into_iter().rev().collect();
        for (i, line) in verdict.iter().enumerate() {
            assert!(line.starts_with(&format!("step {}: PASS: ", i + 1)), "step {step}:\n{stdout}");
        }
        for (name, before) in finished {
            assert_eq!(read(&out, name), before, "step {step}: {name} changed");
        }
    }
}
