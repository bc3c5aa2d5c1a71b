//! The nine steps of the lab, each through the Talos API, the container runtime and the Kubernetes API, writing the
//! lab's files. Every change is checked against the cluster first, so a re-run does not apply twice, and no change
//! is applied while a try-mode rollback is pending on the node (unless `--force`).

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use talos_client::{ApplyMode, ApplyOptions, Target};
use talos_config::{PatchSource, load_patches};

use super::env::{self, CONTROLPLANE_CONTAINER, KUBELET_SERVICE, RUNNING_STATE, WORKER_CONTAINER};
use super::files::{self, names};
use super::files::{CANARY_LABEL, CANARY_VALUE, POOL_LABEL, POOL_VALUE};
use super::machined_log;
use super::session::Session;
use super::state::{State, unix_now};
use super::try_guard::{self, Verdict};
use super::wait::{self, Poll};
use super::{LabError, RunArgs};
use talos_client::config::DEFAULT_PORT;

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
    for step in first..=last {
        eprintln!("== step {step}: {}", TITLES[usize::from(step - 1)]);
        run_step(&session, args, step).await.map_err(|e| e.in_step(step))?;
    }
    Ok((session, last))
}

async fn run_step(s: &Session, args: &RunArgs, step: u8) -> Result<(), LabError> {
    match step {
        1 => step1(s).await,
        2 => step2(s).await,
        3 => step3(s).await,
        4 => step4(s).await,
        5 => step5(s, args.force).await,
        6 => step6(s, args.force, args.try_timeout).await,
        7 => step7(s, args.force).await,
        8 => step8(s, args.force).await,
        _ => step9(s).await,
    }
}

fn parse_ip(text: &str, what: &str) -> Result<IpAddr, LabError> {
    text.parse().map_err(|_| LabError::new(format!("{what} {text:?} is not an IP address")))
}

/// Step 1: `docker exec <controlplane> sh`, the node IP, ports 22 and 50000.
pub async fn step1(s: &Session) -> Result<(), LabError> {
    let t = s.env.probe_timeout;
    let exec = s.env.containers.exec(CONTROLPLANE_CONTAINER, &["sh"], Duration::from_secs(30)).await?;
    if !is_no_shell(&exec) {
        return Err(LabError::new(format!(
            "docker exec {CONTROLPLANE_CONTAINER} sh exited {} with {:?}, not the OCI runtime's \"executable file not \
             found\": is the container running (`docker ps`)?",
            exec.exit_code,
            exec.first_line()
        )));
    }
    let inspect = s.env.containers.inspect(CONTROLPLANE_CONTAINER, Duration::from_secs(30)).await?;
    let ip = parse_ip(&inspect.ip, "the container's address")?;
    let port22_open = s.env.ports.probe(ip, 22, t).await;
    let port50000_open = s.env.ports.probe(ip, DEFAULT_PORT, t).await;
    let file = files::NoShell {
        container: CONTROLPLANE_CONTAINER.to_string(),
        node_ip: inspect.ip.clone(),
        exec_sh_exit: exec.exit_code,
        exec_sh_error: exec.first_line(),
        port22_open,
        port50000_open,
    };
    s.out.write_json(names::NOSHELL, &file)?;
    println!(
        "step 1: docker exec {CONTROLPLANE_CONTAINER} sh exited {}: {}; {}:22 {}, {}:{DEFAULT_PORT} {}",
        file.exec_sh_exit,
        file.exec_sh_error,
        file.node_ip,
        open_text(port22_open),
        file.node_ip,
        open_text(port50000_open)
    );
    Ok(())
}

/// `docker exec ... sh` failed because the image has no shell: exit 126 (Docker ≤ 27) or 127, and the OCI runtime's
/// "executable file not found" (matched by substring: the wording varies by engine).
pub fn is_no_shell(exec: &super::env::ExecResult) -> bool {
    (exec.exit_code == 126 || exec.exit_code == 127) && is_oci_no_shell_line(&exec.first_line())
}

/// The OCI runtime's refusal of a missing program, matched on its stable parts (the spec: the prefix and
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

/// Step 2: the service lists.
pub async fn step2(s: &Session) -> Result<(), LabError> {
    let file = services_now(s).await?;
    s.out.write_json(names::SERVICES, &file)?;
    println!(
        "step 2: control plane runs {}; worker runs {}; only on the control plane: {}",
        file.controlplane.join(", "),
        file.worker.join(", "),
        file.controlplane_only.join(", ")
    );
    Ok(())
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

/// Step 3: members, the Talos tag and the worker's MachineConfig version.
pub async fn step3(s: &Session) -> Result<(), LabError> {
    let (talos_version, members) = members_now(s).await?;
    let worker_mc_version = s.worker_config().await?.version;
    let file = files::Members { talos_version, members, worker_mc_version };
    s.out.write_json(names::MEMBERS, &file)?;
    println!(
        "step 3: Talos {}; members {}; worker MachineConfig version {}",
        file.talos_version,
        file.members.keys().cloned().collect::<Vec<_>>().join(", "),
        file.worker_mc_version
    );
    Ok(())
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
        .ok_or_else(|| LabError::new(format!("kubeconfig: no context {context_name:?}")))?;
    kc.clusters
        .iter()
        .find(|c| c.name == context.cluster)
        .and_then(|c| c.cluster.as_ref())
        .and_then(|c| c.server.clone())
        .ok_or_else(|| LabError::new(format!("kubeconfig: cluster {:?} has no server", context.cluster)))
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
    let written = |list: Option<Vec<String>>, default: &str| match list {
        Some(l) if !l.is_empty() => l,
        _ => vec![default.to_string()],
    };
    let pods = written(network.map(|n| n.pod_subnets.get()), talos_config::subnets::DEFAULT_POD_SUBNET);
    let services = written(network.map(|n| n.service_subnets.get()), talos_config::subnets::DEFAULT_SERVICE_SUBNET);
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

/// Step 4: the kubeconfig, the Nodes and the subnets.
pub async fn step4(s: &Session) -> Result<(), LabError> {
    let text = kubeconfig_once(s).await?;
    let api_server = kubeconfig_server(&text)?;
    let kube = s.kube().await?;
    let nodes = env::list_nodes(&kube).await?;
    let mut versions: Vec<String> = nodes.iter().map(|n| n.kubelet_version.clone()).collect();
    versions.sort();
    versions.dedup();
    let kubelet_version = versions.join(", ");
    let nodes = nodes.into_iter().map(|n| (n.name, n.internal_ip.unwrap_or_default())).collect();
    let cp = s.machine_config(&s.env.controlplane).await?;
    let (pod_subnets, service_subnets, overlaps_host) = subnets(&cp.bytes)?;
    let file = files::Cluster { api_server, nodes, kubelet_version, pod_subnets, service_subnets, overlaps_host };
    s.out.write_json(names::CLUSTER, &file)?;
    println!(
        "step 4: API server {}; kubelet {}; pods {} and services {} {} the host cluster's ranges",
        file.api_server,
        file.kubelet_version,
        file.pod_subnets.join(","),
        file.service_subnets.join(","),
        if file.overlaps_host { "overlap" } else { "do not overlap" }
    );
    Ok(())
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
            Poll::Pending(format!("{key} is {:?} on {}", node.labels.get(key), node.name))
        })
    })
    .await
}

/// Step 5: the pool label, applied with `--mode=no-reboot`.
pub async fn step5(s: &Session, force: bool) -> Result<(), LabError> {
    s.out.write(names::LABELS_PATCH, files::LABELS_PATCH_TEXT.as_bytes())?;
    let patch = patch_of(names::LABELS_PATCH, files::LABELS_PATCH_TEXT)?;
    let worker = s.env.worker.clone();
    let before = s.worker_config().await?;
    if before.node_labels().get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE) {
        if s.out.exists(names::PATCH) && s.out.exists(names::PATCH_OUT) {
            println!("step 5: the worker already carries lab.talos.dev/pool=blue: not applied again");
            let kube = s.kube().await?;
            wait_label(s, &kube, 5, POOL_LABEL, POOL_VALUE, true, LABEL_LIMIT).await?;
            return Ok(());
        }
        return Err(LabError::new(format!(
            "the worker already carries lab.talos.dev/pool=blue, but {} or {} is missing: labctl does not apply a \
             change twice",
            names::PATCH,
            names::PATCH_OUT
        ))
        .note("to redo step 5, remove the label from the worker (a patch with `$patch: delete`), then run it again"));
    }
    s.guard_pending_try(&worker, force).await?;
    let inspect = s.env.containers.inspect(WORKER_CONTAINER, Duration::from_secs(30)).await?;
    let mut state = State::load(&s.out)?;
    state.restart_baseline = Some(super::state::RestartBaseline {
        container: WORKER_CONTAINER.to_string(),
        restart_count: inspect.restart_count,
        started_at: inspect.started_at.clone(),
    });
    state.save(&s.out)?;
    let outcome = apply_patch(s, names::PATCH_OUT, &patch, ApplyOptions::mode(ApplyMode::NoReboot)).await?;
    let file = files::Patch {
        node: worker.clone(),
        mc_version_before: before.version,
        mc_version_after: outcome.version_after,
        container_started_at: inspect.started_at,
    };
    s.out.write_json(names::PATCH, &file)?;
    println!(
        "step 5: applied {} to {worker} without a reboot: MachineConfig version {} -> {}",
        names::LABELS_PATCH,
        file.mc_version_before,
        file.mc_version_after
    );
    let kube = s.kube().await?;
    wait_label(s, &kube, 5, POOL_LABEL, POOL_VALUE, true, LABEL_LIMIT).await?;
    println!("step 5: lab.talos.dev/pool=blue is on the worker's Node");
    Ok(())
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

/// Step 6: the canary label in try mode, seen on the Node, then rolled back.
pub async fn step6(s: &Session, force: bool, timeout: Duration) -> Result<(), LabError> {
    let worker = s.env.worker.clone();
    let current = s.worker_config().await?;
    // Done before on this cluster: try.json's versions are in the worker's past and no canary is left.
    let done = s
        .out
        .read_json::<files::Try>(names::TRY)
        .ok()
        .flatten()
        .filter(|t| t.version_after_revert <= current.version && !current.node_labels().contains_key(CANARY_LABEL));
    if let Some(done) = done {
        println!(
            "step 6: already done ({} records versions {} -> {}): not applied again; delete it to redo the step",
            names::TRY,
            done.version_during,
            done.version_after_revert
        );
        return Ok(());
    }
    if current.node_labels().get(POOL_LABEL).is_none_or(|v| v != POOL_VALUE) {
        return Err(LabError::new("the worker does not carry lab.talos.dev/pool=blue: run step 5 first"));
    }
    s.guard_pending_try(&worker, force).await?;
    if current.node_labels().contains_key(CANARY_LABEL) {
        return Err(LabError::new(
            "the worker's config already carries lab.talos.dev/canary, so the try would change nothing (a try whose \
             rollback was cancelled leaves it)",
        )
        .note(REMOVE_CANARY));
    }
    let kube = s.kube().await?;
    let patch = patch_of("canary", files::CANARY_PATCH_TEXT)?;
    let mut state = State::load(&s.out)?;
    state.record_try(&worker, timeout);
    state.save(&s.out)?;
    let options = ApplyOptions { mode: ApplyMode::Try, dry_run: false, try_timeout: timeout };
    let applied = apply_patch_to(s, None, &patch, options).await?;
    let applied_at = std::time::Instant::now();
    let version_during = applied.version_after;
    let seen_on_node = wait_label(s, &kube, 6, CANARY_LABEL, CANARY_VALUE, true, timeout).await.is_ok();
    let reverted = wait::until(
        6,
        "the try-mode rollback (a new MachineConfig version)",
        timeout + Duration::from_secs(30),
        POLL,
        async || {
            let v = s.worker_config().await?.version;
            let overdue = applied_at.elapsed() > timeout + Duration::from_secs(try_guard::OVERDUE_GRACE);
            // A new version is the rollback only if the log says so; a rollback that another request cancelled
            // never comes, and the guard knows when that is certain.
            if v != version_during || overdue {
                let state = s.try_state(&worker).await?;
                match try_guard::verdict(&worker, state, Some(timeout.as_secs()), unix_now()) {
                    Verdict::Proceed if v != version_during => return Ok(Poll::Ready(v)),
                    Verdict::Note(cancelled) => return Ok(Poll::Failed(LabError::new(cancelled).note(REMOVE_CANARY))),
                    _ => {}
                }
            }
            let due = timeout.saturating_sub(applied_at.elapsed()).as_secs();
            Ok(Poll::Pending(format!("version {v}, the rollback is due in about {due}s")))
        },
    )
    .await?;
    wait_label(s, &kube, 6, CANARY_LABEL, CANARY_VALUE, false, LABEL_LIMIT).await?;
    let node = s.node_by_ip(&kube, &worker).await?;
    if node.labels.get(POOL_LABEL).is_none_or(|v| v != POOL_VALUE) {
        return Err(LabError::new("after the rollback the pool label of step 5 is missing from the worker's Node"));
    }
    let file =
        files::Try { timeout_sec: timeout.as_secs(), version_during, seen_on_node, version_after_revert: reverted };
    s.out.write_json(names::TRY, &file)?;
    println!(
        "step 6: try mode for {}: version {} during, canary {} on the Node, rolled back to version {}; pool label kept",
        super::go_duration(timeout),
        file.version_during,
        if seen_on_node { "seen" } else { "NOT seen" },
        file.version_after_revert
    );
    Ok(())
}

/// Step 7: a label name with a space, sent to the node, which rejects it.
pub async fn step7(s: &Session, force: bool) -> Result<(), LabError> {
    s.out.write(names::BAD_PATCH, files::BAD_PATCH_TEXT.as_bytes())?;
    let patch = patch_of(names::BAD_PATCH, files::BAD_PATCH_TEXT)?;
    let worker = s.env.worker.clone();
    s.guard_pending_try(&worker, force).await?;
    let before = s.worker_config().await?;
    let merged = talos_config::apply_patches(&before.bytes, &patch)
        .map_err(|e| LabError::new(format!("{}: {e}", names::BAD_PATCH)))?;
    let predicted = rejection_of(s, &merged).await?;
    // The lab asks to try the apply: it is sent to the node (labctl's own check would stop it), so that the node's
    // own validation answers.
    let target = Target::node(&worker);
    let answer = s.env.talos.apply_configuration(&target, &merged, ApplyOptions::mode(ApplyMode::NoReboot)).await;
    let after = s.worker_config().await?;
    match answer {
        Ok(result) => {
            s.out.write(names::REJECTED_OUT, super::talosctl::applied(&worker, &result).as_bytes())?;
            Err(LabError::new(format!("the worker ACCEPTED {}: it should have been rejected", names::BAD_PATCH)))
        }
        Err(e) => {
            let text = super::talosctl::failed(&worker, &e);
            eprint!("{text}");
            s.out.write(names::REJECTED_OUT, text.as_bytes())?;
            if e.code() != Some(talos_client::Code::InvalidArgument) {
                return Err(LabError::new(format!(
                    "the apply failed, but not by validation (InvalidArgument): {e}; run the step again"
                )));
            }
            let file = files::Rejected { version_before: before.version, version_after: after.version };
            s.out.write_json(names::REJECTED, &file)?;
            let agreed = match (&predicted, &e) {
                (Some(p), talos_client::Error::Rpc { message, .. }) if &p.message == message => "as",
                _ => "NOT as",
            };
            println!(
                "step 7: rejected by {worker} ({agreed} labctl's local validation predicted); MachineConfig version {} \
                 -> {}",
                file.version_before, file.version_after
            );
            Ok(())
        }
    }
}

/// The node's refusal of `config` as labctl's local validation predicts it (`None`: it would be accepted).
pub async fn rejection_of(s: &Session, config: &[u8]) -> Result<Option<talos_config::node::Rejection>, LabError> {
    let version = s.env.talos.version(&Target::node(&s.env.worker)).await?;
    let mode = talos_config::Mode::parse(&version.platform_mode)
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

/// Step 8: `max-pod: "150"` in the kubelet's extraArgs, the diagnosis, and the fix.
pub async fn step8(s: &Session, force: bool) -> Result<(), LabError> {
    s.out.write(names::KUBELET_PATCH, files::KUBELET_PATCH_TEXT.as_bytes())?;
    let worker = s.env.worker.clone();
    let current = s.worker_config().await?;
    let has_flag = current.kubelet_extra_args().contains_key("max-pod");
    // Done before on this cluster: the diagnosis is in the worker's past and the fix came after it.
    let diag_done = s
        .out
        .read_json::<files::KubeletDiag>(names::KUBELET_DIAG)
        .ok()
        .flatten()
        .is_some_and(|d| d.accepted_version < current.version);
    if !has_flag && diag_done {
        println!("step 8: already done ({} exists, no max-pod on the worker): not applied again", names::KUBELET_DIAG);
    } else {
        s.guard_pending_try(&worker, force).await?;
        let accepted_version = if has_flag {
            println!("step 8: the worker already carries max-pod: not applied again; diagnosing");
            current.version
        } else {
            let patch = patch_of(names::KUBELET_PATCH, files::KUBELET_PATCH_TEXT)?;
            apply_patch_to(s, None, &patch, ApplyOptions::mode(ApplyMode::NoReboot)).await?.version_after
        };
        let (service_state, _) = wait::until(8, "the kubelet to fail", KUBELET_FAIL_LIMIT, POLL, async || {
            let (state, health, last) = kubelet_now(s).await?;
            Ok(if state != RUNNING_STATE && last.starts_with("Error running") {
                Poll::Ready((state, health))
            } else {
                Poll::Pending(format!("{state}/{health}: {last}"))
            })
        })
        .await?;
        let lines = s.log_lines(&worker, KUBELET_SERVICE, 200).await?;
        let error_line = error_line(&lines).ok_or_else(|| LabError::new("the kubelet's log is empty"))?;
        let file = files::KubeletDiag { accepted_version, service_state, error_line };
        s.out.write_json(names::KUBELET_DIAG, &file)?;
        println!(
            "step 8: accepted as version {}; the kubelet is {}: {}",
            file.accepted_version, file.service_state, file.error_line
        );
        s.out.write(names::FIX_PATCH, files::FIX_PATCH_TEXT.as_bytes())?;
        let fix = patch_of(names::FIX_PATCH, files::FIX_PATCH_TEXT)?;
        let fixed = apply_patch_to(s, None, &fix, ApplyOptions::mode(ApplyMode::NoReboot)).await?;
        println!("step 8: applied {}: MachineConfig version {}", names::FIX_PATCH, fixed.version_after);
    }
    if !s.out.exists(names::FIX_PATCH) {
        s.out.write(names::FIX_PATCH, files::FIX_PATCH_TEXT.as_bytes())?;
    }
    wait::until(8, "the kubelet to run healthy", RECOVER_LIMIT, POLL, async || {
        let (state, health, last) = kubelet_now(s).await?;
        Ok(if state == RUNNING_STATE && health == "OK" {
            Poll::Ready(())
        } else {
            Poll::Pending(format!("{state}/{health}: {last}"))
        })
    })
    .await?;
    let kube = s.kube().await?;
    wait::until(8, "the worker's Node to be Ready", RECOVER_LIMIT, POLL, async || {
        let node = s.node_by_ip(&kube, &worker).await?;
        Ok(if node.ready { Poll::Ready(()) } else { Poll::Pending(format!("{} is not Ready", node.name)) })
    })
    .await?;
    println!("step 8: the kubelet runs healthy and the worker's Node is Ready");
    Ok(())
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
    let fields = rejection.validation.as_ref().map(|v| v.fields()).unwrap_or_default();
    fields.iter().find_map(|(path, _)| *path).map(str::to_string).ok_or_else(|| {
        LabError::new(format!("the rejection of {} names no field: {}", names::BAD_PATCH, rejection.message))
    })
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

/// Step 9: the report.
pub async fn step9(s: &Session) -> Result<(), LabError> {
    let noshell = s
        .out
        .read_json::<files::NoShell>(names::NOSHELL)?
        .ok_or_else(|| LabError::new(format!("{} is missing: run step 1 first", names::NOSHELL)))?;
    let version = s.worker_config().await?.version;
    let file = files::Report {
        shell_in_node: noshell.exec_sh_exit == 0,
        ssh_port_open: noshell.port22_open,
        api_port: DEFAULT_PORT,
        worker_config_changes: version.saturating_sub(1),
        worker_restarts: worker_restarts(s).await?,
        rejected_field: rejected_field(s).await?,
        broken_service: broken_service(s)
            .await?
            .ok_or_else(|| LabError::new("no worker service shows a crash loop in its events: run step 8 first"))?,
        apply_log_line: apply_log_line(s)
            .await?
            .ok_or_else(|| LabError::new("the worker's machined log records no configuration apply"))?,
        summary: SUMMARY.to_string(),
    };
    s.out.write_json(names::REPORT, &file)?;
    println!(
        "step 9: {} changes to the worker's config, {} container restarts, validation caught {}, {} broke",
        file.worker_config_changes, file.worker_restarts, file.rejected_field, file.broken_service
    );
    Ok(())
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
