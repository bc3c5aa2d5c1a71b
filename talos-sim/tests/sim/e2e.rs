//! End-to-end: `talos_client` against `Sim::start()` over real mutual TLS on 127.0.0.1, through
//! the control plane to the worker as in the lab: the lab's patches (versions, the kubelet's
//! crash loop, dry runs, refusals, try-mode rollbacks), and the helpers `e2e_reads` and
//! `e2e_tls` share.

use crate::common;
use common::eventually;

use std::time::Duration;

use talos_client::{
    ApplyMode, ApplyOptions, Client, ClientOptions, Code, ErrorKind, EventType, LogsRequest, MACHINE_CONFIG, Target,
};
use talos_sim::{Sim, SimOptions, Timing};

pub(crate) const WORKER: &str = "10.5.0.3";
pub(crate) const CONTROLPLANE: &str = "10.5.0.2";
pub(crate) const STEP5: &str = include_str!("../../../fixtures/05-labels.yaml");
const STEP6: &str = include_str!("../../../fixtures/06-canary.yaml");
const STEP7: &str = include_str!("../../../fixtures/07-bad.yaml");
const STEP8: &str = include_str!("../../../fixtures/08-kubelet.yaml");
const STEP8_FIX: &str = include_str!("../../../fixtures/08-fix.yaml");

/// The node's step-7 text (docs/validation.md §0), byte for byte.
const STEP7_TEXT: &str = "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n";

pub(crate) fn options() -> ClientOptions {
    ClientOptions { context: None, connect_timeout: Duration::from_secs(2), call_timeout: Duration::from_secs(5) }
}

pub(crate) async fn sim() -> Sim {
    Sim::start_with(SimOptions {
        timing: Timing {
            kubelet_restart: Duration::from_millis(300),
            kubelet_health: Duration::from_millis(200),
            node_monitor_grace: Duration::from_secs(40),
        },
        discovery: true,
    })
    .await
    .expect("sim starts")
}

pub(crate) async fn client(sim: &Sim) -> Client {
    Client::connect(&sim.talosconfig(), options()).await.expect("connects")
}

pub(crate) fn patch(text: &str) -> Vec<talos_config::Patch> {
    talos_config::load_patches([talos_config::PatchSource::new("patch.yaml", text)]).expect("patch loads")
}

async fn versions(c: &Client, node: &str) -> (String, String) {
    let t = Target::node(node);
    let active = c.machine_config(&t, "v1alpha1").await.expect("v1alpha1");
    let persistent = c.machine_config(&t, "persistent").await.expect("persistent");
    (active.version, persistent.version)
}

fn v(a: &str, p: &str) -> (String, String) {
    (a.to_string(), p.to_string())
}

async fn machined_log(c: &Client, node: &str) -> Vec<String> {
    c.logs_lines(&Target::node(node), &LogsRequest::service("machined"))
        .await
        .expect("machined log")
        .into_iter()
        .map(|l| l.line)
        .collect()
}

#[tokio::test]
async fn lab_version_bookkeeping_through_the_control_plane() {
    let sim = sim().await;
    let c = client(&sim).await;
    assert_eq!(versions(&c, WORKER).await, v("1", "1"));
    let boot = c.machine_config(&Target::node(WORKER), "v1alpha1").await.expect("config");
    assert_eq!(boot.bytes, talos_sim::WORKER_CONFIG);

    // Step 5: no-reboot, 1 -> 2 for both.
    let out =
        c.patch_machine_config(WORKER, &patch(STEP5), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("step 5");
    assert_eq!(out.version_before, "1");
    assert_eq!(out.version_after.as_deref(), Some("2"));
    let apply = out.apply.expect("applied");
    assert_eq!(apply.node, WORKER);
    assert_eq!(apply.mode, Some(ApplyMode::NoReboot));
    assert_eq!(apply.details, "Applied configuration without a reboot");
    assert_eq!(versions(&c, WORKER).await, v("2", "2"));
    let step5_config = out.config;
    let log = machined_log(&c, WORKER).await;
    assert_eq!(log.iter().filter(|l| l.ends_with(" apply config request: mode no_reboot")).count(), 1);
    assert!(log.iter().any(|l| l.starts_with("[talos] ") && l.contains(" machine configuration persisted to STATE ")));

    // Step 6: try mode. A watch opened before the apply sees the try (3) and then the rollback (4), whenever the
    // timer fires; nothing reads a value the timer may be changing.
    let mut watch = c.watch(&Target::node(WORKER), MACHINE_CONFIG, Some("v1alpha1"), false).await.expect("watch");
    let first = tokio::time::timeout(Duration::from_secs(30), watch.next_event()).await.expect("in time");
    assert_eq!(first.expect("event").expect("ok").resource.and_then(|r| r.version()), Some(2));
    let try_opts = ApplyOptions { mode: ApplyMode::Try, dry_run: false, try_timeout: Duration::from_secs(2) };
    let out = c.patch_machine_config(WORKER, &patch(STEP6), try_opts).await.expect("step 6");
    assert_eq!(
        out.apply.expect("applied").details,
        "Applied configuration without a reboot\nThe config is applied in 'try' mode and will be automatically reverted back in 2s"
    );
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let event = tokio::time::timeout(Duration::from_secs(30), watch.next_event())
            .await
            .expect("the try and its rollback within 30 s")
            .expect("event")
            .expect("ok");
        assert_eq!(event.event_type, EventType::Updated);
        seen.push(event.resource.and_then(|r| r.version()));
    }
    assert_eq!(seen, [Some(3), Some(4)], "applied, then rolled back");
    assert!(!sim.worker.node.rollback_pending());
    assert_eq!(versions(&c, WORKER).await, v("4", "2"), "try mode never touches the persistent config");
    let active = c.machine_config(&Target::node(WORKER), "v1alpha1").await.expect("config");
    assert_eq!(active.bytes, step5_config, "the rollback restores the step-5 content");
    let log = machined_log(&c, WORKER).await;
    assert!(log.iter().any(|l| l.ends_with(" apply config request: mode try")));
    assert!(log.iter().any(|l| l.starts_with("[talos] ") && l.ends_with(" rolling back the configuration")));

    // Step 7: refused locally by patch_machine_config (nothing sent), and by the node with the same text.
    let local = c
        .patch_machine_config(WORKER, &patch(STEP7), ApplyOptions::mode(ApplyMode::NoReboot))
        .await
        .expect_err("step 7 is invalid");
    assert_eq!(local.code(), Some(Code::InvalidArgument));
    assert_eq!(local.message(), STEP7_TEXT);
    let bad = talos_config::apply_patches(&step5_config, &patch(STEP7)).expect("merges");
    let remote = c
        .apply_configuration(&Target::node(WORKER), &bad, ApplyOptions::mode(ApplyMode::NoReboot))
        .await
        .expect_err("the node refuses");
    assert!(
        (remote.kind(), remote.node(), remote.code()) == (ErrorKind::Status, Some(WORKER), Some(Code::InvalidArgument)),
        "{remote:?}"
    );
    assert_eq!(remote.message(), STEP7_TEXT, "byte for byte");
    assert_eq!(remote.to_string(), format!("10.5.0.3: rpc error: code = InvalidArgument desc = {STEP7_TEXT}"));
    assert_eq!(versions(&c, WORKER).await, v("4", "2"), "the rejection changes nothing");
    let log = machined_log(&c, WORKER).await;
    assert_eq!(log.iter().filter(|l| l.contains(" apply config request: ")).count(), 2, "no request line for step 7");
    assert!(
        log.iter().any(|l| l.starts_with("machined ")
            && l.contains(" InvalidArgument [/machine.MachineService/ApplyConfiguration] "))
    );

    // Step 8 and its fix.
    let out =
        c.patch_machine_config(WORKER, &patch(STEP8), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("step 8");
    assert_eq!(out.version_after.as_deref(), Some("5"));
    assert_eq!(versions(&c, WORKER).await, v("5", "3"));
    let out =
        c.patch_machine_config(WORKER, &patch(STEP8_FIX), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("fix");
    assert_eq!(out.version_after.as_deref(), Some("6"));
    assert_eq!(versions(&c, WORKER).await, v("6", "4"));
    assert_eq!(out.config, step5_config, "the fix restores the pre-step-8 shape");
    // The control plane was not touched.
    assert_eq!(versions(&c, CONTROLPLANE).await, v("1", "1"));
}

#[tokio::test]
async fn kubelet_crash_loops_on_unknown_flag_and_recovers() {
    let sim = sim().await;
    let c = client(&sim).await;
    let worker = Target::node(WORKER);
    let kubelet = c.service(&worker, "kubelet").await.expect("kubelet");
    assert_eq!((kubelet.state.as_str(), kubelet.health_text()), ("Running", "OK"));

    c.patch_machine_config(WORKER, &patch(STEP8), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("step 8");
    let waiting = eventually(Duration::from_secs(3), || async {
        let k = c.service(&worker, "kubelet").await.ok()?;
        let restarts = k.events.iter().filter(|e| e.msg.starts_with("Error running Containerd(kubelet)")).count();
        (k.state == "Waiting" && restarts >= 2).then_some(k)
    })
    .await
    .expect("kubelet goes Waiting and restarts");
    assert_eq!(waiting.health_text(), "Fail");
    assert_eq!(waiting.last_health_message, "service not running");
    let newest = &waiting.events_newest_first()[0];
    assert_eq!(newest.state, "Waiting");

    // The kubelet keeps restarting: read the last log line first, then the events, so the event for that line
    // already exists (both are written together).
    let (line, events) = eventually(Duration::from_secs(10), || async {
        let lines = c
            .logs_lines(&worker, &LogsRequest { id: "kubelet".into(), kubernetes: false, follow: false, tail: Some(1) })
            .await
            .ok()?;
        let [line] = lines.as_slice() else { return None };
        assert_eq!(line.node, WORKER);
        let events = c.service(&worker, "kubelet").await.ok()?.events;
        Some((line.line.clone(), events))
    })
    .await
    .expect("the last kubelet log line");
    // E<MMDD> <hh:mm:ss.uuuuuu> <pid, 7 columns> run.go:72] ...
    let (head, tail) = line.split_at(29);
    assert!(head.starts_with('E') && head.as_bytes()[5] == b' ' && head.as_bytes()[21] == b' ', "{line}");
    assert_eq!(&head[14..15], ".");
    assert!(head[22..].trim_start().parse::<u32>().is_ok(), "{line}");
    assert_eq!(tail, " run.go:72] \"command failed\" err=\"failed to parse kubelet flag: unknown flag: --max-pod\"");
    let all = c.logs_lines(&worker, &LogsRequest::service("kubelet")).await.expect("log");
    let quoted = talos_go::quote(&line);
    let expected = format!(
        "Error running Containerd(kubelet), going to restart forever: task \"kubelet\" failed: exit code 1 (last log {quoted})"
    );
    assert!(events.iter().any(|e| e.state == "Waiting" && e.msg == expected), "the event quotes the log line");
    assert!(all.len() >= 2, "one line per restart");

    c.patch_machine_config(WORKER, &patch(STEP8_FIX), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("fix");
    let running = eventually(Duration::from_secs(3), || async {
        let k = c.service(&worker, "kubelet").await.ok()?;
        (k.state == "Running" && k.healthy).then_some(k)
    })
    .await
    .expect("kubelet recovers");
    let recent: Vec<_> = running.events_newest_first().into_iter().take(8).map(|e| (e.state, e.msg)).collect();
    assert_eq!(recent[0], ("Running".to_string(), "Health check successful".to_string()));
    assert!(recent.iter().any(|(s, m)| s == "Stopping" && m == "Aborting restart sequence"), "{recent:?}");
    assert!(recent.iter().any(|(s, m)| s == "Finished" && m == "Service finished successfully"));
    assert!(recent.iter().any(|(s, m)| s == "Waiting" && m.starts_with("Waiting for volumes /var/lib, ")));
    let log = machined_log(&c, WORKER).await;
    assert!(log.iter().any(|l| l.ends_with(" service[kubelet](Running): Health check successful")));
}

#[tokio::test]
async fn dry_run_and_immediate_mode_refusal() {
    let sim = sim().await;
    let c = client(&sim).await;
    let dry = ApplyOptions { mode: ApplyMode::NoReboot, dry_run: true, try_timeout: Duration::from_secs(60) };
    let out = c.patch_machine_config(WORKER, &patch(STEP5), dry).await.expect("dry run");
    assert_eq!(out.version_after, None);
    let details = out.apply.expect("answered").details;
    assert_eq!(
        details,
        "Dry run summary:\nApplied configuration without a reboot (skipped in dry-run).\nConfig diff:\n\n--- a\n+++ b\n@@ -24,6 +24,8 @@\n         hostDNS:\n             enabled: true\n             forwardKubeDNSToHost: true\n+    nodeLabels:\n+        lab.talos.dev/pool: blue\n cluster:\n     id: 4JIwNQhSYzF6ly8gTpy9aTobKtEjsaUv5sw7tWNPiYM=\n     secret: REDACTED\n",
        "the dry-run diff is redacted like the refusal's"
    );
    assert_eq!(versions(&c, WORKER).await, v("1", "1"));

    // A change outside the live-apply list needs a reboot.
    let env = patch("machine:\n  env:\n    FOO: bar\n");
    let err = c
        .patch_machine_config(WORKER, &env, ApplyOptions::mode(ApplyMode::NoReboot))
        .await
        .expect_err("needs a reboot");
    assert_eq!(err.code(), Some(Code::InvalidArgument));
    const ENV_DIFF: &str = "this config change can't be applied in immediate mode\ndiff:\n--- a\n+++ b\n@@ -16,6 +16,8 @@\n     install:\n         wipe: false\n         grubUseUKICmdline: true\n+    env:\n+        FOO: bar\n     features:\n         diskQuotaSupport: true\n         kubePrism:\n";
    assert_eq!(err.message(), ENV_DIFF);
    let err = c.patch_machine_config(WORKER, &env, ApplyOptions::mode(ApplyMode::Try)).await.expect_err("try too");
    assert_eq!(err.code(), Some(Code::InvalidArgument));
    assert_eq!(err.message(), ENV_DIFF);
    assert_eq!(versions(&c, WORKER).await, v("1", "1"));
    let out = c.patch_machine_config(WORKER, &env, ApplyOptions::mode(ApplyMode::Auto)).await.expect("auto");
    let apply = out.apply.expect("applied");
    assert_eq!(apply.mode, Some(ApplyMode::Reboot));
    assert_eq!(apply.details, format!("Applied configuration with a reboot: {ENV_DIFF}"));
    assert!(machined_log(&c, WORKER).await.iter().any(|l| l.ends_with(" apply config request: mode auto(reboot)")));

    // A non-try apply cancels a pending rollback. The try timeout is far beyond the test's run time; the node is
    // asked whether a rollback is pending instead of waiting for a deadline.
    let try_opts = ApplyOptions { mode: ApplyMode::Try, dry_run: false, try_timeout: Duration::from_secs(600) };
    c.patch_machine_config(WORKER, &patch(STEP6), try_opts).await.expect("try");
    assert!(sim.worker.node.rollback_pending(), "the try arms a rollback");
    assert_eq!(versions(&c, WORKER).await, v("3", "2"));
    c.patch_machine_config(WORKER, &patch(STEP5), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("confirm");
    assert!(!sim.worker.node.rollback_pending(), "a later non-try apply cancels the rollback");
    assert_eq!(versions(&c, WORKER).await, v("4", "3"));
    assert!(!machined_log(&c, WORKER).await.iter().any(|l| l.ends_with(" rolling back the configuration")));
}

#[tokio::test]
async fn a_rejected_or_dry_run_apply_also_cancels_a_pending_rollback() {
    let sim = sim().await;
    let c = client(&sim).await;
    let try_opts = ApplyOptions { mode: ApplyMode::Try, dry_run: false, try_timeout: Duration::from_secs(600) };
    // Each try changes something, so that talos-client does not skip it as a no-op.
    let arm = async |n: u8| {
        let change = patch(&format!("machine:\n  nodeLabels:\n    lab.talos.dev/try: \"{n}\"\n"));
        c.patch_machine_config(WORKER, &change, try_opts).await.expect("try");
        assert!(sim.worker.node.rollback_pending(), "the try arms a rollback");
    };

    // Step 7's patch, sent as it is: the node rejects it, and the rollback is gone all the same.
    arm(1).await;
    let active = c.machine_config(&Target::node(WORKER), "v1alpha1").await.expect("active");
    let bad = talos_config::apply_patches(&active.bytes, &patch(STEP7)).expect("merges");
    let err = c
        .apply_configuration(&Target::node(WORKER), &bad, ApplyOptions::mode(ApplyMode::NoReboot))
        .await
        .expect_err("rejected");
    assert_eq!((err.code(), err.message()), (Some(Code::InvalidArgument), STEP7_TEXT.to_string()));
    assert!(!sim.worker.node.rollback_pending(), "a rejected non-try apply cancels the rollback");
    assert_eq!(versions(&c, WORKER).await, v("2", "1"), "the try config stays active, nothing else changed");

    // A dry run (talosctl patch --dry-run) cancels it too.
    arm(2).await;
    let dry = ApplyOptions { mode: ApplyMode::Auto, dry_run: true, try_timeout: Duration::from_secs(60) };
    c.patch_machine_config(WORKER, &patch(STEP5), dry).await.expect("dry run");
    assert!(!sim.worker.node.rollback_pending(), "a dry run cancels the rollback");

    // A rejected try-mode request leaves the rollback armed.
    arm(3).await;
    let err = c.apply_configuration(&Target::node(WORKER), &bad, try_opts).await.expect_err("rejected");
    assert_eq!(err.code(), Some(Code::InvalidArgument));
    assert!(sim.worker.node.rollback_pending(), "a try-mode request does not cancel");
    assert!(!machined_log(&c, WORKER).await.iter().any(|l| l.ends_with(" rolling back the configuration")));
}
