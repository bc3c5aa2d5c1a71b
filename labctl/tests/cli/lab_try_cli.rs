//! Try-mode rollbacks another client caused: no apply while someone else's try is pending (unless
//! `--force`), and a rollback cancelled during step 6 reported once it is overdue.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::lab_cli::{SimUp, json, labctl, text};

#[test]
fn no_apply_while_a_try_rollback_is_pending() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let out = tmp.path().join("lab");
    let out_s = out.to_str().unwrap();
    let run = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "4"]);
    assert!(run.status.success(), "stderr:\n{}", text(&run.stderr));
    // Someone else applies a try with a long timeout (talosctl patch mc --mode=try --timeout=10m).
    let version = as_another_client(&tmp.path().join("sim"), async |client| {
        let patch = talos_config::load_patches([talos_config::PatchSource::new(
            "canary",
            "machine:\n  nodeLabels:\n    lab.talos.dev/canary: \"on\"\n",
        )])
        .unwrap();
        let options = talos_client::ApplyOptions {
            mode: talos_client::ApplyMode::Try,
            dry_run: false,
            try_timeout: Duration::from_secs(600),
        };
        client.patch_machine_config("10.5.0.3", &patch, options).await.unwrap().version_after.unwrap()
    });
    assert_eq!(version, "2");
    let refused = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "5"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    let (head, rest) = stderr.split_once(" UTC by another client").expect(&stderr);
    assert_eq!(
        &head[..head.len() - 8],
        "== step 5: a node label without a reboot\nlabctl: step 5: a try-mode rollback is pending on 10.5.0.3 (applied at "
    );
    let dir = sim.dir();
    assert_eq!(
        rest,
        format!(
            ": the rollback is due after its --timeout (talosctl's default is 1m0s)); applying another change now would \
         cancel the rollback\nwait until the node has rolled back (`talosctl -n NODE logs machined` shows `rolling \
         back the configuration`), then run the step again\n  labctl lab run --sim-dir {dir} --out {out_s} --step 5\nor \
         apply anyway and cancel the rollback: labctl lab run --sim-dir {dir} --out {out_s} --step 5 --force\n"
        )
    );
    assert!(!out.join("patch.json").exists());
    assert!(!out.join("patch-out.txt").exists());
    // Nothing was applied: the worker is still at the try's version.
    let check = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "3"]);
    assert!(check.status.success());
    assert_eq!(json(&out, "members.json")["worker_mc_version"], 2);

    // They then send step 7's bad label as it is: the node rejects it, and machined has cancelled the rollback first
    // (the canary stays). The log cannot tell that from a rejected try-mode request, which leaves the rollback armed:
    // until the try is overdue labctl still refuses, and --force goes on.
    as_another_client(&tmp.path().join("sim"), send_bad_label);
    let refused = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "5"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    assert_eq!(
        without_clock_times(stderr.lines().nth(1).unwrap_or_default()),
        "labctl: step 5: a try-mode rollback may still be pending on 10.5.0.3 (applied at <time> UTC by another \
         client: the rollback is due after its --timeout (talosctl's default is 1m0s)); a request at <time> UTC that \
         applied nothing cancelled it unless that request was in try mode too; applying another change now would \
         cancel it for sure"
    );
    let forced = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "5", "--force"]);
    assert!(forced.status.success(), "stderr:\n{}", text(&forced.stderr));
    let warning = text(&forced.stderr).lines().find(|l| l.starts_with("warning: ")).map(without_clock_times);
    assert_eq!(
        warning.as_deref(),
        Some(
            "warning: a try-mode rollback may still be pending on 10.5.0.3 (applied at <time> UTC by another client: \
             the rollback is due after its --timeout (talosctl's default is 1m0s)); a request at <time> UTC that \
             applied nothing cancelled it unless that request was in try mode too; applying another change now would \
             cancel it for sure (--force: applying anyway)"
        )
    );
    // Step 5's own apply is the certain cancel: from now on labctl says what happened to the try and goes on.
    let again = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "6", "--try-timeout", "1s"]);
    assert_eq!(again.status.code(), Some(1));
    let stderr: Vec<String> = text(&again.stderr).lines().map(without_clock_times).collect();
    assert_eq!(
        stderr,
        [
            "== step 6: a label in try mode that reverts by itself",
            "note: the try-mode apply at <time> UTC on 10.5.0.3 will not be rolled back: another apply request at \
             <time> UTC (even a rejected one or a dry run) cancelled its rollback, so the try's config stays active",
            "labctl: step 6: the worker's config already carries lab.talos.dev/canary, so the try would change \
             nothing (a try whose rollback was cancelled leaves it)",
            "remove lab.talos.dev/canary from the worker (a patch with `$patch: delete`), then run step 6 again",
        ]
    );
    assert_eq!(json(&out, "patch.json")["mc_version_before"], 2);
}

/// Runs `f` with a Talos client of its own on the `labctl sim up` cluster in `sim_dir`: another user's talosctl.
fn as_another_client<T>(sim_dir: &Path, f: impl AsyncFnOnce(&talos_client::Client) -> T) -> T {
    let env = talos_sim::SimEnv::read(sim_dir).expect("sim.json");
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let config = talos_client::Talosconfig::from_file(&env.talosconfig).unwrap();
        let client = talos_client::Client::connect(&config, talos_client::ClientOptions::default()).await.unwrap();
        f(&client).await
    })
}

/// Sends step 7's bad label to the worker as it is (`talosctl apply-config`, no local validation): it is rejected.
async fn send_bad_label(client: &talos_client::Client) {
    let worker = talos_client::Target::node("10.5.0.3");
    let active = client.machine_config(&worker, "v1alpha1").await.unwrap();
    let bad = talos_config::load_patches([talos_config::PatchSource::new(
        "07-bad.yaml",
        "machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n",
    )])
    .unwrap();
    let bad = talos_config::apply_patches(&active.bytes, &bad).unwrap();
    let options = talos_client::ApplyOptions::mode(talos_client::ApplyMode::NoReboot);
    let err = client.apply_configuration(&worker, &bad, options).await.expect_err("rejected");
    assert_eq!(err.code(), Some(talos_client::Code::InvalidArgument));
}

#[test]
fn a_rollback_cancelled_during_step_6_is_reported_once_it_is_overdue() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let out = tmp.path().join("lab");
    let out_s = out.to_str().unwrap();
    for step in ["4", "5"] {
        let run = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", step]);
        assert!(run.status.success(), "stderr:\n{}", text(&run.stderr));
    }
    let step6 = Command::new(env!("CARGO_BIN_EXE_labctl"))
        // English whatever the machine's locale: these tests compare English texts.
        .env("LC_ALL", "C")
        .args(["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--step", "6", "--try-timeout", "6s"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("labctl runs");
    // Once the try is active (version 3), the learner's common mistake: another patch within the window.
    as_another_client(&tmp.path().join("sim"), async |client| {
        let worker = talos_client::Target::node("10.5.0.3");
        let deadline = Instant::now() + Duration::from_secs(30);
        while client.machine_config(&worker, "v1alpha1").await.unwrap().version != "3" {
            assert!(Instant::now() < deadline, "step 6 applied no try within 30s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        send_bad_label(client).await;
    });
    let done = step6.wait_with_output().expect("labctl finishes");
    assert_eq!(done.status.code(), Some(1));
    let stderr = text(&done.stderr);
    let tail: Vec<String> = stderr.lines().rev().take(2).map(without_clock_times).collect();
    assert_eq!(
        tail,
        [
            "remove lab.talos.dev/canary from the worker (a patch with `$patch: delete`), then run step 6 again",
            "labctl: step 6: the try-mode apply at <time> UTC on 10.5.0.3 will not be rolled back: another apply \
             request at <time> UTC (even a rejected one or a dry run) cancelled its rollback, so the try's config \
             stays active",
        ]
    );
    assert!(!out.join("try.json").exists());
}

/// `HH:MM:SS` replaced by `<time>`.
fn without_clock_times(line: &str) -> String {
    let shape = |w: &[u8]| {
        w.len() == 8 && w[2] == b':' && w[5] == b':' && [0, 1, 3, 4, 6, 7].iter().all(|&i| w[i].is_ascii_digit())
    };
    let (b, mut out, mut i) = (line.as_bytes(), String::new(), 0);
    while i < b.len() {
        if b.get(i..i + 8).is_some_and(shape) {
            out.push_str("<time>");
            i += 8;
        } else {
            let c = line[i..].chars().next().unwrap_or_default();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}
