//! The nine steps of the lab, one module each holding the step's run and its check; this module sequences them
//! (run a range, check all), holds the helpers they share and renders the check's verdicts.
//!
//! Running goes through the Talos API, the container runtime and the Kubernetes API, writing the lab's files.
//! Every change is checked against the cluster first, so a re-run does not apply twice, and no change is applied
//! while a try-mode rollback is pending on the node (unless `--force`).

mod step1_no_shell;
mod step2_services;
mod step3_members;
mod step4_kubeconfig;
mod step5_label;
mod step6_try;
mod step7_rejected;
mod step8_kubelet;
mod step9_report;

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use serde::Serialize;
use talos_client::config::DEFAULT_PORT;
use talos_client::{ApplyMode, ApplyOptions, ApplyResult, Code, Target};
use talos_config::{PatchSource, load_patches};

use super::env::{self, CONTROLPLANE_CONTAINER, KUBELET_SERVICE, RUNNING_STATE, WORKER_CONTAINER};
use super::files::{self, names};
use super::files::{BAD_LABEL, BAD_LABEL_VALUE, CANARY_LABEL, CANARY_VALUE, POOL_LABEL, POOL_VALUE};
use super::machined_log;
use super::session::Session;
use super::state::{State, unix_now};
use super::try_guard::{self, Verdict};
use super::wait::{self, Poll};
use super::{CheckArgs, LabError, Output, RunArgs, go_duration, state, talosctl};

/// What each step does, for the progress header.
pub const TITLES: [&str; 9] = [
    "no shell, no SSH: docker exec sh and the ports",
    "the services running instead of a shell",
    "the cluster's members and the worker's MachineConfig version",
    "the kubeconfig through the API, the Nodes and the subnets",
    "a node label without a reboot",
    "a label in try mode that reverts by itself",
    "a patch that validation rejects",
    "an accepted patch that breaks the kubelet, and its fix",
    "the report",
];

/// How long to wait for a label to show up on (or leave) the Node.
const LABEL_LIMIT: Duration = Duration::from_secs(60);
/// How long the kubelet may take to show its failure after the bad flag is applied.
const KUBELET_FAIL_LIMIT: Duration = Duration::from_secs(60);
/// How long the kubelet and the Node may take to recover after the fix.
const RECOVER_LIMIT: Duration = Duration::from_secs(180);
/// Poll interval of the waits.
const POLL: Duration = Duration::from_millis(250);
/// What to do about a canary label a cancelled try left behind.
const REMOVE_CANARY: &str =
    "remove lab.talos.dev/canary from the worker (a patch with `$patch: delete`), then run step 6 again";

/// The summary of report.json.
pub const SUMMARY: &str = "Talos has no shell and no SSH: every read and every change in this lab went through the \
authenticated gRPC API on port 50000. The machine config is a versioned resource, so each change is visible and \
countable; validation blocked the malformed label before anything changed, but it could not know that the kubelet \
rejects --max-pod, so that accepted change broke a service and was found and undone through the API alone.";

/// `labctl lab run`: performs the steps asked for; returns the session and the last step performed (the caller verifies a run
/// that reached step 9).
pub async fn run(args: &RunArgs) -> Result<(Session, u8), LabError> {
    let session = Session::open(&args.cluster).await?;
    session.claim_out_dir(args.force).await?;
    let (first, last) = match (args.step, args.from) {
        (Some(n), _) => (n, n),
        (None, Some(n)) => (n, 9),
        (None, None) => (1, 9),
    };
    if let Some(sim) = &session.sim {
        eprintln!(
            "simulated cluster: control plane {} and worker {} on 127.0.0.1 (a test double, see talos-sim/README.md)",
            sim.controlplane.endpoint, sim.worker.endpoint
        );
    }
    let before = file_times(&session);
    for step in first..=last {
        eprintln!("== step {step}: {}", TITLES[usize::from(step - 1)]);
        if keep_recorded(&session, args, step).await? {
            continue;
        }
        tokio::select! {
            done = run_step(&session, args, step) => {
                done.map_err(|e| e.in_step(step))?;
                let mut state = State::load(&session.out)?;
                let completed = state.completed.get_or_insert_with(Vec::new);
                if !completed.contains(&step) {
                    completed.push(step);
                    completed.sort_unstable();
                }
                state.save(&session.out)?;
            }
            signal = interrupted() => return Err(interruption(&session, step, signal)),
        }
    }
    eprintln!("{}", files_summary(&session, &before));
    Ok((session, last))
}

/// When each lab file was last modified (`None`: absent).
fn file_times(s: &Session) -> Vec<Option<std::time::SystemTime>> {
    ALL_FILES.iter().map(|name| std::fs::metadata(s.out.path(name)).and_then(|m| m.modified()).ok()).collect()
}

/// `files in DIR: written: a, b; kept: c` (the files this run wrote, and those it found and left alone).
fn files_summary(s: &Session, before: &[Option<std::time::SystemTime>]) -> String {
    let now = file_times(s);
    let (mut written, mut kept) = (Vec::new(), Vec::new());
    for ((name, then), now) in ALL_FILES.iter().zip(before).zip(&now) {
        match (then, now) {
            (_, None) => {}
            (Some(a), Some(b)) if a == b => kept.push(*name),
            _ => written.push(*name),
        }
    }
    let list = |v: &[&str]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    format!("files in {}: written: {}; kept: {}", s.out.dir().display(), list(&written), list(&kept))
}

/// Ctrl-C or SIGTERM: the signal's name and the conventional exit code (128 + its number).
async fn interrupted() -> (&'static str, u8) {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => ("Ctrl-C", 130),
        () = term => ("SIGTERM", 143),
    }
}

/// What an interrupted run says: the step, the files in the folder (each written whole: nothing is half-written),
/// and the command that goes on from that step.
fn interruption(s: &Session, step: u8, (signal, code): (&str, u8)) -> LabError {
    let kept: Vec<&str> = ALL_FILES.iter().copied().filter(|name| s.out.exists(name)).collect();
    let files = if kept.is_empty() { "none".to_string() } else { kept.join(", ") };
    let mut e = LabError::new(format!(
        "interrupted ({signal}) during step {step} ({}); the lab files in {} are kept whole: {files}",
        TITLES[usize::from(step - 1)],
        s.out.dir().display()
    ))
    .note(format!("to go on: {}", resume_command(step)));
    e.exit_code = Some(code);
    e
}

/// Every file a run writes, in step order.
const ALL_FILES: [&str; 16] = [
    names::NOSHELL,
    names::SERVICES,
    names::MEMBERS,
    names::KUBECONFIG,
    names::CLUSTER,
    names::LABELS_PATCH,
    names::PATCH_OUT,
    names::PATCH,
    names::TRY,
    names::BAD_PATCH,
    names::REJECTED_OUT,
    names::REJECTED,
    names::KUBELET_PATCH,
    names::KUBELET_DIAG,
    names::FIX_PATCH,
    names::REPORT,
];

/// The command line with `--from STEP` in place of any `--step`/`--from`.
fn resume_command(step: u8) -> String {
    let line = super::command_line();
    let mut words: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "--step" | "--from" => {
                words.drain(i..(i + 2).min(words.len()));
            }
            w if w.starts_with("--step=") || w.starts_with("--from=") => {
                words.remove(i);
            }
            _ => i += 1,
        }
    }
    format!("{} --from {step}", words.join(" "))
}

/// The file that says a step was recorded (the last one the step writes).
const RECORDS: [&str; 9] = [
    names::NOSHELL,
    names::SERVICES,
    names::MEMBERS,
    names::CLUSTER,
    names::PATCH,
    names::TRY,
    names::REJECTED,
    names::KUBELET_DIAG,
    names::REPORT,
];

/// Observations are recorded once: a step whose file is there is verified (as `lab check` does) and kept, unless
/// the learner asks for it again (`--redo N`, `--force`). A recorded step that does not verify stops the run.
async fn keep_recorded(s: &Session, args: &RunArgs, step: u8) -> Result<bool, LabError> {
    let record = RECORDS[usize::from(step - 1)];
    // A step interrupted after writing its file is not finished: it runs again (and picks up where it stopped).
    let finished = State::load(&s.out)?.completed.is_none_or(|done| done.contains(&step));
    if args.force || args.redo.contains(&step) || !s.out.exists(record) || !finished {
        return Ok(false);
    }
    match check_step(s, step, args.try_timeout).await {
        Ok(reason) => {
            println!("step {step}: already recorded in {record}; kept, and it checks: {reason}");
            Ok(true)
        }
        Err(reason) => Err(LabError::new(format!("step {step}: {record} is already recorded, but: {reason}"))
            .note(format!("to record step {step} again: {} --redo {step}", super::command_line()))),
    }
}

async fn run_step(s: &Session, args: &RunArgs, step: u8) -> Result<(), LabError> {
    match step {
        1 => step1_no_shell::run(s).await,
        2 => step2_services::run(s).await,
        3 => step3_members::run(s).await,
        4 => step4_kubeconfig::run(s).await,
        5 => step5_label::run(s, args.force).await,
        6 => step6_try::run(s, args.force, args.try_timeout).await,
        7 => step7_rejected::run(s, args.force).await,
        8 => step8_kubelet::run(s, args.force).await,
        _ => step9_report::run(s).await,
    }
}

fn parse_ip(text: &str, what: &str) -> Result<IpAddr, LabError> {
    text.parse().map_err(|_| LabError::new(format!("{what} {} is not an IP address", json_text(text))))
}

/// `docker exec ... sh` failed because the image has no shell: exit 126 (Docker ≤ 27) or 127, and the OCI runtime's
/// "executable file not found" (matched by substring: the wording varies by engine).
pub fn is_no_shell(exec: &super::env::ExecResult) -> bool {
    (exec.exit_code == 126 || exec.exit_code == 127) && is_oci_no_shell_line(&exec.first_line())
}

/// The OCI runtime's refusal of a missing program, matched on its stable parts (docs/lab.md: the prefix and
/// `executable file not found`; the rest varies with the engine).
pub fn is_oci_no_shell_line(line: &str) -> bool {
    line.starts_with("OCI runtime exec failed") && line.contains("executable file not found")
}

fn open_text(open: bool) -> &'static str {
    if open { "open" } else { "closed" }
}

async fn service_ids(s: &Session, node: &str) -> Result<Vec<String>, LabError> {
    let mut ids: Vec<String> =
        s.env.talos.service_list(&Target::node(node)).await?.into_iter().map(|svc| svc.id).collect();
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// The services of both nodes.
pub async fn services_now(s: &Session) -> Result<files::Services, LabError> {
    let controlplane = service_ids(s, &s.env.controlplane).await?;
    let worker = service_ids(s, &s.env.worker).await?;
    let controlplane_only = controlplane.iter().filter(|id| !worker.contains(id)).cloned().collect();
    Ok(files::Services { controlplane, worker, controlplane_only })
}

/// The members as the control plane lists them, and its Talos tag.
pub async fn members_now(s: &Session) -> Result<(String, BTreeMap<String, files::MemberEntry>), LabError> {
    let cp = Target::node(&s.env.controlplane);
    let tag = s.env.talos.version(&cp).await?.tag;
    let members = s
        .env
        .talos
        .members(&cp)
        .await?
        .into_iter()
        .map(|m| {
            let addresses = m.addresses.iter().map(ToString::to_string).collect();
            (m.hostname, files::MemberEntry { machine_type: m.machine_type, addresses })
        })
        .collect();
    Ok((tag, members))
}

/// The server of a kubeconfig's current context.
pub fn kubeconfig_server(text: &str) -> Result<String, LabError> {
    let kc = kube::config::Kubeconfig::from_yaml(text).map_err(|e| LabError::new(format!("kubeconfig: {e}")))?;
    let context_name = kc.current_context.clone().unwrap_or_default();
    let context = kc
        .contexts
        .iter()
        .find(|c| c.name == context_name)
        .and_then(|c| c.context.as_ref())
        .ok_or_else(|| LabError::new(format!("kubeconfig: no context {}", json_text(&context_name))))?;
    kc.clusters
        .iter()
        .find(|c| c.name == context.cluster)
        .and_then(|c| c.cluster.as_ref())
        .and_then(|c| c.server.clone())
        .ok_or_else(|| LabError::new(format!("kubeconfig: cluster {} has no server", json_text(&context.cluster))))
}

/// `cluster.network.podSubnets`/`serviceSubnets` of a config as written (Talos's defaults when empty) and whether
/// any overlaps the host cluster's ranges.
pub fn subnets(config: &[u8]) -> Result<(Vec<String>, Vec<String>, bool), LabError> {
    let config = talos_config::Config::from_bytes(config)
        .map_err(|e| LabError::new(format!("the control plane's machine config does not load: {e}")))?;
    let found = talos_config::subnets::subnets_overlap_host(&config, &super::policy::lab_host_ranges())
        .map_err(|e| LabError::new(format!("the control plane's subnets: {e}")))?;
    let v1 = config.get::<talos_config::model::v1alpha1::Config>();
    let network = v1.and_then(|v| v.cluster.as_ref()).and_then(|c| c.network.as_ref());
    // As written; Talos's default (the one the check used) when the list is empty.
    let written = |list: Option<Vec<String>>, checked: &[talos_config::subnets::SubnetCheck]| match list {
        Some(l) if !l.is_empty() => l,
        _ => checked.iter().map(|c| c.subnet.to_string()).collect(),
    };
    let pods = written(network.map(|n| n.pod_subnets.get()), &found.pod_subnets);
    let services = written(network.map(|n| n.service_subnets.get()), &found.service_subnets);
    Ok((pods, services, found.any()))
}

/// The kubeconfig of step 4: the existing file when it reaches this cluster (talosctl would merge a second fetch
/// into it), else fetched once from the control plane and written as a regular file with mode 0600, replacing
/// (never merging into) what was there.
async fn kubeconfig_once(s: &Session) -> Result<String, LabError> {
    let path = s.out.path(names::KUBECONFIG);
    if let Some(reason) = existing_kubeconfig_unusable(s).await? {
        if path.symlink_metadata().is_ok() {
            eprintln!("step 4: fetching the kubeconfig again, replacing {}: {reason}", path.display());
        }
    } else {
        println!("step 4: {} reaches the cluster: not fetched again", path.display());
        return s.out.read(names::KUBECONFIG)?.ok_or_else(|| LabError::new("the kubeconfig vanished"));
    }
    let bytes = s.env.talos.kubeconfig(&Target::node(&s.env.controlplane)).await?;
    s.out.write_secret(names::KUBECONFIG, &bytes)?;
    String::from_utf8(bytes).map_err(|_| LabError::new("the kubeconfig from the control plane is not UTF-8"))
}

/// Why the kubeconfig in the output directory cannot be reused (`None`: it is a regular file that lists the Nodes).
async fn existing_kubeconfig_unusable(s: &Session) -> Result<Option<String>, LabError> {
    let path = s.out.path(names::KUBECONFIG);
    let Ok(meta) = path.symlink_metadata() else { return Ok(Some("it does not exist".into())) };
    if !meta.file_type().is_file() {
        return Ok(Some("it is not a regular file".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.permissions().mode() & 0o777 != 0o600 {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                .map_err(|e| LabError::new(format!("cannot make {} private (mode 0600): {e}", path.display())))?;
            eprintln!("step 4: {} holds a client key: its mode is now 0600", path.display());
        }
    }
    let text = s.out.read(names::KUBECONFIG)?.unwrap_or_default();
    if let Err(e) = kubeconfig_server(&text) {
        return Ok(Some(e.message));
    }
    let reached = match s.kube().await {
        Ok(kube) => env::list_nodes(&kube).await.map(|_| ()),
        Err(e) => Err(e),
    };
    Ok(reached.err().map(|e| format!("it does not reach this cluster ({e})")))
}

fn patch_of(name: &str, text: &str) -> Result<Vec<talos_config::Patch>, LabError> {
    load_patches([PatchSource::new(format!("@{name}"), text)]).map_err(|e| LabError::new(format!("{name}: {e}")))
}

/// Waits until the worker's Node has (`true`) or lacks (`false`) `key=value`.
async fn wait_label(
    s: &Session,
    kube: &kube::Client,
    step: u8,
    key: &str,
    value: &str,
    present: bool,
    limit: Duration,
) -> Result<bool, LabError> {
    let what = if present {
        format!("label {key}={value} on the worker's Node")
    } else {
        format!("label {key} to leave the worker's Node")
    };
    wait::until(step, &what, limit, POLL, async || {
        let node = s.node_by_ip(kube, &s.env.worker).await?;
        let has = node.labels.get(key).is_some_and(|v| v == value);
        Ok(if has == present {
            Poll::Ready(true)
        } else {
            Poll::Pending(match node.labels.get(key) {
                Some(v) => format!("{key} is {} on {}", json_text(v), node.name),
                None => format!("{key} is not on {}", node.name),
            })
        })
    })
    .await
}

/// An applied patch.
struct Applied {
    version_after: u64,
}

/// `talosctl patch mc` of the worker: applies (after labctl's local check), saves what talosctl would print to
/// `out_file` when given, and reads the version after.
async fn apply_patch_to(
    s: &Session,
    out_file: Option<&str>,
    patches: &[talos_config::Patch],
    options: ApplyOptions,
) -> Result<Applied, LabError> {
    let worker = s.env.worker.clone();
    match s.env.talos.patch_machine_config(&worker, patches, options).await {
        Ok(outcome) => {
            let apply = outcome.apply.ok_or_else(|| {
                LabError::new("the patch changes nothing on the worker: nothing was sent (already applied?)")
            })?;
            let text = super::talosctl::applied(&worker, &apply);
            eprint!("{text}");
            if let Some(name) = out_file {
                s.out.write(name, text.as_bytes())?;
            }
            let version_after = outcome
                .version_after
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| LabError::new("the worker's MachineConfig version after the apply is unknown"))?;
            Ok(Applied { version_after })
        }
        Err(e) => {
            if let (Some(name), talos_client::Error::Rpc { .. }) = (out_file, &e) {
                s.out.write(name, super::talosctl::failed(&worker, &e).as_bytes())?;
            }
            Err(LabError::new(format!("applying the patch to {worker} failed: {e}")))
        }
    }
}

async fn apply_patch(
    s: &Session,
    out_file: &str,
    patches: &[talos_config::Patch],
    options: ApplyOptions,
) -> Result<Applied, LabError> {
    apply_patch_to(s, Some(out_file), patches, options).await
}

/// The node's refusal of `config` as labctl's local validation predicts it (`None`: it would be accepted).
pub async fn rejection_of(s: &Session, config: &[u8]) -> Result<Option<talos_config::node::Rejection>, LabError> {
    let version = s.env.talos.version(&Target::node(&s.env.worker)).await?;
    let mode = (version.platform_mode.parse::<talos_config::Mode>())
        .map_err(|e| LabError::new(format!("the worker reports an unusable platform mode: {e}")))?;
    Ok(talos_config::node::check_apply(config, mode, true).err())
}

/// The kubelet service of the worker: `(state, health text, last event)`.
async fn kubelet_now(s: &Session) -> Result<(String, &'static str, String), LabError> {
    let svc = s.env.talos.service(&Target::node(&s.env.worker), KUBELET_SERVICE).await?;
    let last = svc.events.last().map(|e| e.msg.clone()).unwrap_or_default();
    Ok((svc.state.clone(), svc.health_text(), last))
}

/// The kubelet log line stating why it failed: the last klog error line (`E0825 10:20:07.512345 ...`), else the
/// last line.
pub fn error_line(lines: &[String]) -> Option<String> {
    let is_klog_error = |l: &str| {
        let b = l.as_bytes();
        b.len() > 5 && b[0] == b'E' && b[1..5].iter().all(u8::is_ascii_digit)
    };
    lines.iter().rev().find(|l| is_klog_error(l)).or_else(|| lines.iter().rev().find(|l| !l.trim().is_empty())).cloned()
}

/// The service of the worker that crash-looped (its events hold `going to restart forever`).
pub async fn broken_service(s: &Session) -> Result<Option<String>, LabError> {
    let services = s.env.talos.service_list(&Target::node(&s.env.worker)).await?;
    Ok(services
        .into_iter()
        .find(|svc| svc.events.iter().any(|e| e.msg.contains("going to restart forever")))
        .map(|svc| svc.id))
}

/// The worker's machined log line of the last successful configuration apply.
pub async fn apply_log_line(s: &Session) -> Result<Option<String>, LabError> {
    let lines = s.log_lines(&s.env.worker, "machined", 5000).await?;
    Ok(lines.into_iter().rev().find(|l| l.contains(machined_log::APPLY_REQUEST)))
}

/// The configuration path validation caught in step 7: 07-bad.yaml merged into the worker's config, checked as the
/// node checks it.
pub async fn rejected_field(s: &Session) -> Result<String, LabError> {
    let text = s
        .out
        .read(names::BAD_PATCH)?
        .ok_or_else(|| LabError::new(format!("{} is missing: run step 7 first", names::BAD_PATCH)))?;
    let patch = patch_of(names::BAD_PATCH, &text)?;
    let config = s.worker_config().await?;
    let merged = talos_config::apply_patches(&config.bytes, &patch)
        .map_err(|e| LabError::new(format!("{}: {e}", names::BAD_PATCH)))?;
    let rejection = rejection_of(s, &merged).await?.ok_or_else(|| {
        LabError::new(format!("{} merged into the worker's config passes validation", names::BAD_PATCH))
    })?;
    let diagnostics = rejection.validation.as_ref().map(|v| v.diagnostics()).unwrap_or_default();
    // The lab asks for the form `machine.x`: the section, not the label key the error names.
    diagnostics.iter().find_map(|d| d.field()).map(section_of).ok_or_else(|| {
        LabError::new(format!("the rejection of {} names no field: {}", names::BAD_PATCH, rejection.message))
    })
}

/// The first two keys of a validation path (`machine.nodeLabels["a b"]` -> `machine.nodeLabels`).
fn section_of(path: &talos_config::FieldPath) -> String {
    let keys: Vec<&str> = path
        .segments()
        .iter()
        .take(2)
        .map_while(|s| match s {
            talos_config::Segment::Key(k) => Some(k.as_str()),
            talos_config::Segment::Index(_) => None,
        })
        .collect();
    keys.join(".")
}

/// How often the worker container restarted since step 5.
pub async fn worker_restarts(s: &Session) -> Result<u64, LabError> {
    let now = s.env.containers.inspect(WORKER_CONTAINER, Duration::from_secs(30)).await?;
    let state = State::load(&s.out)?;
    // Docker counts only restarts made by a restart policy (the lab's containers have none); a `docker restart` or a
    // stop/start shows only as a new start time: at least one restart then.
    let (count_then, started_then) = match state.restart_baseline {
        Some(b) => (b.restart_count, Some(b.started_at)),
        None => (0, s.out.read_json::<files::Patch>(names::PATCH)?.map(|p| p.container_started_at)),
    };
    Ok(restarts_since(count_then, started_then.as_deref(), now.restart_count, &now.started_at))
}

/// Restarts between two readings of a container: the `RestartCount` difference, at least 1 when the start time
/// changed (a start time unknown then counts as unchanged).
pub fn restarts_since(count_then: u64, started_then: Option<&str>, count_now: u64, started_now: &str) -> u64 {
    let counted = count_now.saturating_sub(count_then);
    match started_then {
        Some(t) if t != started_now => counted.max(1),
        _ => counted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_long_enough() {
        assert!(SUMMARY.chars().count() >= 80, "{}", SUMMARY.len());
    }

    #[test]
    fn the_error_line_is_the_last_klog_error() {
        let lines: Vec<String> = [
            "I0825 10:20:02.000000    2401 server.go:1] starting",
            "E0825 10:20:07.512345    2450 run.go:72] \"command failed\" err=\"failed to parse kubelet flag: unknown flag: --max-pod\"",
            "",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            error_line(&lines).as_deref(),
            Some(
                "E0825 10:20:07.512345    2450 run.go:72] \"command failed\" err=\"failed to parse kubelet flag: \
                 unknown flag: --max-pod\""
            )
        );
        assert_eq!(error_line(&["only".to_string()]).as_deref(), Some("only"));
        assert_eq!(error_line(&[]), None);
    }

    #[test]
    fn restarts_count_a_new_start_time() {
        assert_eq!(restarts_since(0, Some("t1"), 0, "t1"), 0);
        assert_eq!(restarts_since(0, Some("t1"), 0, "t2"), 1, "docker restart: no policy, new start time");
        assert_eq!(restarts_since(1, Some("t1"), 4, "t2"), 3);
        assert_eq!(restarts_since(2, None, 2, "t2"), 0);
    }

    #[test]
    fn no_shell_is_exit_126_or_127_with_the_oci_line() {
        use super::super::env::ExecResult;
        let line = "OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable \
                    file not found in $PATH: unknown\r\n";
        assert!(is_no_shell(&ExecResult { exit_code: 127, output: line.into() }));
        assert!(is_no_shell(&ExecResult { exit_code: 126, output: line.into() }));
        let paused = "Error response from daemon: container abc is paused, unpause the container before exec\n";
        assert!(!is_no_shell(&ExecResult { exit_code: 1, output: paused.into() }));
        assert!(!is_no_shell(&ExecResult { exit_code: 0, output: String::new() }));
    }

    #[test]
    fn kubeconfig_server_of_the_current_context() {
        let text = "apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster:\n    server: https://10.5.0.2:6443\ncontexts:\n- name: admin@a\n  context:\n    cluster: a\n    user: admin@a\ncurrent-context: admin@a\nusers: []\n";
        assert_eq!(kubeconfig_server(text), Ok("https://10.5.0.2:6443".to_string()));
    }
}

/// One step's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepResult {
    /// The step (1-9).
    pub step: u8,
    /// It passes.
    pub pass: bool,
    /// Why (what was found, or the first thing that is wrong).
    pub reason: String,
}

/// `labctl lab check`.
pub async fn check(args: &CheckArgs) -> Result<(), LabError> {
    if args.cluster.sim {
        return Err(LabError::new(
            "`lab check --sim` would check a new simulated cluster, which has none of the lab's changes",
        )
        .note(
            "`labctl lab run --sim` checks its own run at the end; to check a simulated cluster again, start one \
               with `labctl sim up --dir DIR` and use `--sim-dir DIR` with both `lab run` and `lab check`",
        ));
    }
    let session = Session::open(&args.cluster).await?;
    let results = check_all(&session, args.try_timeout).await;
    match args.output {
        Output::Text => print!("{}", render_text(&results)),
        Output::Json => println!("{}", render_json(&results)),
    }
    let failed = results.iter().filter(|r| !r.pass).count();
    if failed > 0 {
        return Err(LabError::new(format!("{failed} of 9 steps do not pass")));
    }
    Ok(())
}

/// The lines of the text output: `step N: PASS|FAIL: reason`.
pub fn render_text(results: &[StepResult]) -> String {
    results
        .iter()
        .map(|r| format!("step {}: {}: {}\n", r.step, if r.pass { "PASS" } else { "FAIL" }, r.reason))
        .collect()
}

/// The JSON output: `{"pass": bool, "steps": [{"step", "pass", "reason"}]}`.
pub fn render_json(results: &[StepResult]) -> String {
    #[derive(Serialize)]
    struct Doc<'a> {
        pass: bool,
        steps: &'a [StepResult],
    }
    let doc = Doc { pass: results.iter().all(|r| r.pass), steps: results };
    serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()))
}

/// Checks one step; step 6 must have used `try_timeout`.
async fn check_step(s: &Session, step: u8, try_timeout: Duration) -> Grade {
    match step {
        1 => step1_no_shell::check(s).await,
        2 => step2_services::check(s).await,
        3 => step3_members::check(s).await,
        4 => step4_kubeconfig::check(s).await,
        5 => step5_label::check(s).await,
        6 => step6_try::check(s, try_timeout).await,
        7 => step7_rejected::check(s).await,
        8 => step8_kubelet::check(s).await,
        _ => step9_report::check(s).await,
    }
}

/// The lab's files must tell one story: versions only grow, so a version a step recorded is at least (`strictly`:
/// above) the one an earlier step recorded, when that file is there.
fn follows(later: (&str, u64), earlier: (&str, u64), step: u8, strictly: bool) -> Result<(), String> {
    let (later_what, later_value) = later;
    let (earlier_what, earlier_value) = earlier;
    let ok = if strictly { later_value > earlier_value } else { later_value >= earlier_value };
    let relation = if strictly { "not above" } else { "below" };
    ensure(ok, || {
        format!(
            "{later_what} is {later_value}, {relation} {earlier_what} {earlier_value}, which an earlier step \
             recorded: the files come from different runs; record step {step} again with `--redo {step}`"
        )
    })
}

/// Checks every step; step 6 must have used `try_timeout`.
pub async fn check_all(s: &Session, try_timeout: Duration) -> Vec<StepResult> {
    let mut out = Vec::with_capacity(9);
    for step in 1..=9u8 {
        let verdict = check_step(s, step, try_timeout).await;
        let (pass, reason) = match verdict {
            Ok(reason) => (true, reason),
            Err(reason) => (false, reason),
        };
        out.push(StepResult { step, pass, reason });
    }
    out
}

/// A check's outcome: what passed, or the first thing that is wrong.
type Grade = Result<String, String>;

fn lab(e: LabError) -> String {
    e.message
}

fn need<T: serde::de::DeserializeOwned>(s: &Session, name: &str) -> Result<T, String> {
    s.out.read_json::<T>(name).map_err(lab)?.ok_or_else(|| format!("{name} is missing"))
}

/// An earlier step's file, when it is there and reads (its own check reports it otherwise).
fn recorded<T: serde::de::DeserializeOwned>(s: &Session, name: &str) -> Option<T> {
    s.out.read_json::<T>(name).ok().flatten()
}

fn need_text(s: &Session, name: &str) -> Result<String, String> {
    s.out.read(name).map_err(lab)?.ok_or_else(|| format!("{name} is missing"))
}

fn same<T: PartialEq + Serialize>(what: &str, file: &T, live: &T) -> Result<(), String> {
    if file == live {
        Ok(())
    } else {
        Err(format!("{what} is {}, the cluster says {}", json_text(file), json_text(live)))
    }
}

/// A value as JSON text (strings quoted the way the lab's files write them): what a learner reads in reasons.
pub fn json_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "(not representable)".to_string())
}

fn ensure(cond: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if cond { Ok(()) } else { Err(why()) }
}

fn open(b: bool) -> &'static str {
    if b { "open" } else { "closed" }
}

/// One cluster, one user, one context: a second `talosctl kubeconfig` into the same file merges (`-1` names).
fn fetched_once(text: &str) -> Result<(), String> {
    let kc = kube::config::Kubeconfig::from_yaml(text).map_err(|e| format!("{}: {e}", names::KUBECONFIG))?;
    let counts = [
        ("clusters", kc.clusters.iter().map(|c| c.name.as_str()).collect::<Vec<_>>()),
        ("users", kc.auth_infos.iter().map(|u| u.name.as_str()).collect()),
        ("contexts", kc.contexts.iter().map(|c| c.name.as_str()).collect()),
    ];
    for (what, names_found) in counts {
        ensure(names_found.len() == 1, || {
            format!(
                "{} holds {} {what} ({}): it must hold only the Talos cluster's (a second fetch into the same \
                 file merges; fetch it once, into a new file)",
                names::KUBECONFIG,
                names_found.len(),
                names_found.join(", ")
            )
        })?;
    }
    Ok(())
}

type Labels = BTreeMap<String, String>;
type ExtraArgs = BTreeMap<String, Vec<String>>;

/// The labels and kubelet extraArgs a patch file produces on the pristine worker config.
fn on_pristine(s: &Session, names_in_order: &[&str]) -> Result<(Labels, ExtraArgs), String> {
    let mut bytes = talos_sim::WORKER_CONFIG.to_vec();
    for name in names_in_order {
        let text = need_text(s, name)?;
        let patch = talos_config::load_patches([talos_config::PatchSource::new(format!("@{name}"), text)])
            .map_err(|e| format!("{name}: {e}"))?;
        ensure(patch.iter().all(|p| !p.is_json6902()), || {
            format!("{name} is not a strategic merge patch (a JSON6902 patch is rejected on a multi-document config)")
        })?;
        bytes = talos_config::apply_patches(&bytes, &patch).map_err(|e| format!("{name}: {e}"))?;
    }
    let w = super::session::WorkerConfig { bytes, version: 0 };
    Ok((w.node_labels(), w.kubelet_extra_args()))
}

fn added<K: Ord + Clone, V: PartialEq + Clone>(before: &BTreeMap<K, V>, after: &BTreeMap<K, V>) -> BTreeMap<K, V> {
    after.iter().filter(|(k, v)| before.get(*k) != Some(*v)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// Talos's service states other than Running (`talosctl service`'s STATE column).
const DOWN_STATES: [&str; 8] =
    ["Waiting", "Preparing", "Starting", "Stopping", "Finished", "Failed", "Initialized", "Skipped"];

/// The worker's machined log, as far back as the node keeps it.
async fn worker_machined_log(s: &Session) -> Result<Vec<String>, String> {
    s.log_lines(&s.env.worker, "machined", 100_000).await.map_err(lab)
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn a_kubeconfig_fetched_twice_is_named() {
        let once = "apiVersion: v1\nkind: Config\nclusters:\n- name: talos-default\n  cluster:\n    server: \
                    https://10.5.0.2:6443\nusers:\n- name: admin@talos-default\n  user: {}\ncontexts:\n- name: \
                    admin@talos-default\n  context:\n    cluster: talos-default\n    user: admin@talos-default\n\
                    current-context: admin@talos-default\n";
        assert_eq!(fetched_once(once), Ok(()));
        let twice =
            once.replace("users:", "- name: talos-default-1\n  cluster:\n    server: https://10.5.0.2:6443\nusers:");
        assert_eq!(
            fetched_once(&twice),
            Err("kubeconfig holds 2 clusters (talos-default, talos-default-1): it must hold only the Talos cluster's \
                 (a second fetch into the same file merges; fetch it once, into a new file)"
                .to_string())
        );
    }
}
