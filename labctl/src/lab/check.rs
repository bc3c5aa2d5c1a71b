//! `labctl lab check`: recomputes from the live cluster what a grader would and compares it with the lab's files,
//! one pass/fail line per step with the reason.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;
use talos_client::{ApplyMode, ApplyResult, Code, Target};

use super::env::{self, CONTROLPLANE_CONTAINER, KUBELET_SERVICE, RUNNING_STATE, WORKER_CONTAINER};
use super::files::{self, names};
use super::files::{BAD_LABEL, BAD_LABEL_VALUE, CANARY_LABEL, POOL_LABEL, POOL_VALUE};
use super::machined_log;
use super::session::Session;
use super::steps;
use super::{CheckArgs, LabError, Output};
use talos_client::config::DEFAULT_PORT;

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
pub async fn run(args: &CheckArgs) -> Result<(), LabError> {
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

/// Checks every step; step 6 must have used `try_timeout`.
pub async fn check_all(s: &Session, try_timeout: Duration) -> Vec<StepResult> {
    let mut out = Vec::with_capacity(9);
    for step in 1..=9u8 {
        let verdict = match step {
            1 => step1(s).await,
            2 => step2(s).await,
            3 => step3(s).await,
            4 => step4(s).await,
            5 => step5(s).await,
            6 => step6(s, try_timeout).await,
            7 => step7(s).await,
            8 => step8(s).await,
            _ => step9(s).await,
        };
        let (pass, reason) = match verdict {
            Ok(reason) => (true, reason),
            Err(reason) => (false, reason),
        };
        out.push(StepResult { step, pass, reason });
    }
    out
}

/// A check's outcome: what passed, or the first thing that is wrong.
type Verdict = Result<String, String>;

fn lab(e: LabError) -> String {
    e.message
}

fn need<T: serde::de::DeserializeOwned>(s: &Session, name: &str) -> Result<T, String> {
    s.out.read_json::<T>(name).map_err(lab)?.ok_or_else(|| format!("{name} is missing"))
}

fn need_text(s: &Session, name: &str) -> Result<String, String> {
    s.out.read(name).map_err(lab)?.ok_or_else(|| format!("{name} is missing"))
}

fn same<T: PartialEq + std::fmt::Debug>(what: &str, file: &T, live: &T) -> Result<(), String> {
    if file == live { Ok(()) } else { Err(format!("{what} is {file:?}, the cluster says {live:?}")) }
}

fn ensure(cond: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if cond { Ok(()) } else { Err(why()) }
}

async fn step1(s: &Session) -> Verdict {
    let f: files::NoShell = need(s, names::NOSHELL)?;
    let t = Duration::from_secs(30);
    let inspect = s.env.containers.inspect(CONTROLPLANE_CONTAINER, t).await.map_err(lab)?;
    same("noshell.json container", &f.container, &CONTROLPLANE_CONTAINER.to_string())?;
    same("noshell.json node_ip", &f.node_ip, &inspect.ip)?;
    ensure(f.exec_sh_exit == 126 || f.exec_sh_exit == 127, || {
        format!(
            "noshell.json exec_sh_exit is {}: docker exec of a missing shell exits 127 (126 before Docker 28)",
            f.exec_sh_exit
        )
    })?;
    ensure(steps::is_oci_no_shell_line(&f.exec_sh_error), || {
        format!(
            "noshell.json exec_sh_error {:?} is not the OCI runtime's \"executable file not found\" line",
            f.exec_sh_error
        )
    })?;
    ensure(!f.exec_sh_error.contains('\n') && !f.exec_sh_error.contains('\r'), || {
        "noshell.json exec_sh_error is more than one line".to_string()
    })?;
    let ip: std::net::IpAddr =
        f.node_ip.parse().map_err(|_| format!("noshell.json node_ip {:?} is not an IP", f.node_ip))?;
    let p22 = s.env.ports.probe(ip, 22, s.env.probe_timeout).await;
    let p50000 = s.env.ports.probe(ip, DEFAULT_PORT, s.env.probe_timeout).await;
    same("noshell.json port22_open", &f.port22_open, &p22)?;
    same("noshell.json port50000_open", &f.port50000_open, &p50000)?;
    Ok(format!("exec sh exits {}, port 22 {}, port 50000 {}", f.exec_sh_exit, open(p22), open(p50000)))
}

fn open(b: bool) -> &'static str {
    if b { "open" } else { "closed" }
}

async fn step2(s: &Session) -> Verdict {
    let f: files::Services = need(s, names::SERVICES)?;
    let live = steps::services_now(s).await.map_err(lab)?;
    same("services.json controlplane", &f.controlplane, &live.controlplane)?;
    same("services.json worker", &f.worker, &live.worker)?;
    same("services.json controlplane_only", &f.controlplane_only, &live.controlplane_only)?;
    Ok(format!("{} services on the control plane, {} on the worker", f.controlplane.len(), f.worker.len()))
}

async fn step3(s: &Session) -> Verdict {
    let f: files::Members = need(s, names::MEMBERS)?;
    let (tag, members) = steps::members_now(s).await.map_err(lab)?;
    same("members.json talos_version", &f.talos_version, &tag)?;
    same("members.json members", &f.members, &members)?;
    let now = s.worker_config().await.map_err(lab)?.version;
    ensure(f.worker_mc_version >= 1 && f.worker_mc_version <= now, || {
        format!("members.json worker_mc_version {} is not between 1 and the current version {now}", f.worker_mc_version)
    })?;
    Ok(format!("Talos {tag}, {} members, worker version {} then", members.len(), f.worker_mc_version))
}

async fn step4(s: &Session) -> Verdict {
    let path = s.out.path(names::KUBECONFIG);
    let meta = std::fs::symlink_metadata(&path).map_err(|_| format!("{} is missing", names::KUBECONFIG))?;
    ensure(meta.file_type().is_file(), || format!("{} is not a regular file (no symbolic links)", names::KUBECONFIG))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = meta.permissions().mode() & 0o777;
        ensure(mode == 0o600, || {
            format!("{} has mode {mode:04o}, not 0600 (it holds a client key)", names::KUBECONFIG)
        })?;
    }
    let text = need_text(s, names::KUBECONFIG)?;
    fetched_once(&text)?;
    let server = steps::kubeconfig_server(&text).map_err(lab)?;
    let f: files::Cluster = need(s, names::CLUSTER)?;
    same("cluster.json api_server", &f.api_server, &server)?;
    let kube = s.kube().await.map_err(lab)?;
    let nodes = env::list_nodes(&kube).await.map_err(lab)?;
    let mut versions: Vec<String> = nodes.iter().map(|n| n.kubelet_version.clone()).collect();
    versions.sort();
    versions.dedup();
    let live: BTreeMap<String, String> =
        nodes.into_iter().map(|n| (n.name, n.internal_ip.unwrap_or_default())).collect();
    same("cluster.json nodes", &f.nodes, &live)?;
    same("cluster.json kubelet_version", &f.kubelet_version, &versions.join(", "))?;
    let cp = s.machine_config(&s.env.controlplane).await.map_err(lab)?;
    let (pods, services, overlaps) = steps::subnets(&cp.bytes).map_err(lab)?;
    same("cluster.json pod_subnets", &f.pod_subnets, &pods)?;
    same("cluster.json service_subnets", &f.service_subnets, &services)?;
    same("cluster.json overlaps_host", &f.overlaps_host, &overlaps)?;
    Ok(format!("{} nodes, kubelet {}, overlaps_host {}", f.nodes.len(), f.kubelet_version, f.overlaps_host))
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
        ensure(patch.iter().all(|p| matches!(p, talos_config::Patch::Strategic(_))), || {
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

async fn step5(s: &Session) -> Verdict {
    let (base_labels, _) = on_pristine(s, &[])?;
    let (labels, _) = on_pristine(s, &[names::LABELS_PATCH])?;
    let want: BTreeMap<String, String> = [(POOL_LABEL.to_string(), POOL_VALUE.to_string())].into();
    same("what 05-labels.yaml adds to machine.nodeLabels", &added(&base_labels, &labels), &want)?;
    let worker = s.env.worker.clone();
    let out = need_text(s, names::PATCH_OUT)?;
    // talosctl's lines: the patched line, the node's warnings (if any), the mode details.
    let warnings: Vec<String> = out.lines().filter_map(|l| l.strip_prefix("WARNING: ")).map(str::to_string).collect();
    let expected = super::talosctl::applied(
        &worker,
        &ApplyResult {
            node: worker.clone(),
            mode: Some(ApplyMode::NoReboot),
            details: "Applied configuration without a reboot".into(),
            warnings,
        },
    );
    same("patch-out.txt", &out, &expected)?;
    let f: files::Patch = need(s, names::PATCH)?;
    same("patch.json node", &f.node, &worker)?;
    ensure(f.mc_version_after == f.mc_version_before + 1, || {
        format!("patch.json versions {} -> {} do not differ by one apply", f.mc_version_before, f.mc_version_after)
    })?;
    let inspect = s.env.containers.inspect(WORKER_CONTAINER, Duration::from_secs(30)).await.map_err(lab)?;
    same(
        "patch.json container_started_at (the worker container must not restart)",
        &f.container_started_at,
        &inspect.started_at,
    )?;
    let config = s.worker_config().await.map_err(lab)?;
    ensure(config.node_labels().get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE), || {
        "the worker's config lacks lab.talos.dev/pool=blue".to_string()
    })?;
    let kube = s.kube().await.map_err(lab)?;
    let node = s.node_by_ip(&kube, &worker).await.map_err(lab)?;
    ensure(node.labels.get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE), || {
        format!("the Node {} lacks lab.talos.dev/pool=blue", node.name)
    })?;
    Ok(format!(
        "pool label applied without a reboot (version {} -> {}) and on the Node",
        f.mc_version_before, f.mc_version_after
    ))
}

async fn step6(s: &Session, try_timeout: Duration) -> Verdict {
    let f: files::Try = need(s, names::TRY)?;
    ensure(f.timeout_sec == try_timeout.as_secs(), || {
        format!(
            "try.json timeout_sec is {}, but the lab's try uses --timeout={} (a rehearsal run with another \
             --try-timeout is checked with the same --try-timeout)",
            f.timeout_sec,
            super::go_duration(try_timeout)
        )
    })?;
    // The log is the evidence that the try really used that timeout, as far back as the node still keeps it (a
    // restarted node starts a new log). The rollback is never early, and late by a second or two at most.
    let log = worker_machined_log(s).await?;
    let lines = || log.iter().map(String::as_str);
    let log_note = if machined_log::has_try_apply(lines()) {
        let gaps = machined_log::try_rollback_gaps(lines());
        ensure(gaps.iter().any(|&gap| (f.timeout_sec..=f.timeout_sec + 2).contains(&gap)), || {
            format!(
                "the worker's machined log shows no try-mode apply rolled back {}s later (`apply config request: \
                 mode try`, then `rolling back the configuration`; seen: {})",
                f.timeout_sec,
                if gaps.is_empty() { "none rolled back".to_string() } else { format!("{gaps:?} s") }
            )
        })?;
        ""
    } else {
        " (the machined log no longer reaches back to the try)"
    };
    ensure(f.seen_on_node, || "try.json seen_on_node is false: the canary label was not seen on the Node".to_string())?;
    ensure(f.version_after_revert == f.version_during + 1, || {
        format!(
            "try.json version_after_revert {} is not version_during {} + 1 (the rollback is one new version)",
            f.version_after_revert, f.version_during
        )
    })?;
    if let Some(p) = s.out.read_json::<files::Patch>(names::PATCH).map_err(lab)? {
        ensure(f.version_during > p.mc_version_after, || {
            format!("try.json version_during {} is not after step 5's version {}", f.version_during, p.mc_version_after)
        })?;
    }
    let config = s.worker_config().await.map_err(lab)?;
    ensure(!config.node_labels().contains_key(CANARY_LABEL), || {
        "the worker's config still carries lab.talos.dev/canary: the try has not rolled back".to_string()
    })?;
    let kube = s.kube().await.map_err(lab)?;
    let node = s.node_by_ip(&kube, &s.env.worker).await.map_err(lab)?;
    ensure(!node.labels.contains_key(CANARY_LABEL), || format!("the Node {} still has the canary label", node.name))?;
    ensure(node.labels.get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE), || {
        format!("the Node {} lost the pool label of step 5", node.name)
    })?;
    Ok(format!(
        "canary seen in try mode (version {}), rolled back (version {}), pool kept{log_note}",
        f.version_during, f.version_after_revert
    ))
}

async fn step7(s: &Session) -> Verdict {
    let (base_labels, _) = on_pristine(s, &[])?;
    let (labels, _) = on_pristine(s, &[names::BAD_PATCH])?;
    let want: BTreeMap<String, String> = [(BAD_LABEL.to_string(), BAD_LABEL_VALUE.to_string())].into();
    same("what 07-bad.yaml adds to machine.nodeLabels", &added(&base_labels, &labels), &want)?;
    let text = need_text(s, names::BAD_PATCH)?;
    let patch = talos_config::load_patches([talos_config::PatchSource::new(format!("@{}", names::BAD_PATCH), text)])
        .map_err(|e| e.to_string())?;
    let config = s.worker_config().await.map_err(lab)?;
    let merged = talos_config::apply_patches(&config.bytes, &patch).map_err(|e| e.to_string())?;
    let rejection = steps::rejection_of(s, &merged)
        .await
        .map_err(lab)?
        .ok_or_else(|| "07-bad.yaml merged into the worker's config passes validation".to_string())?;
    let worker = s.env.worker.clone();
    let error = talos_client::Error::Rpc {
        node: Some(worker.clone()),
        code: Code::InvalidArgument,
        message: rejection.message,
    };
    let predicted = super::talosctl::failed(&worker, &error);
    let got = need_text(s, names::REJECTED_OUT)?;
    // The node's own words are the evidence: its text is checked for shape, and compared with labctl's prediction
    // only to say whether they agree.
    let head = format!(
        "{}1 error occurred:\n\t* {worker}: rpc error: code = InvalidArgument desc = ",
        super::talosctl::patched_line(&worker)
    );
    ensure(got.starts_with(&head), || format!("rejected.txt does not start with talosctl's {head:?}"))?;
    ensure(got.contains("name \"team name\" is invalid"), || {
        "rejected.txt does not name the invalid label (name \"team name\" is invalid)".to_string()
    })?;
    let agreement = if got == predicted { "exactly as labctl predicts" } else { "worded unlike labctl's prediction" };
    let f: files::Rejected = need(s, names::REJECTED)?;
    ensure(f.version_before == f.version_after, || {
        format!(
            "rejected.json versions {} -> {} differ: a rejected apply changes nothing",
            f.version_before, f.version_after
        )
    })?;
    ensure(!config.node_labels().contains_key(BAD_LABEL), || {
        "the worker's config carries the invalid label".to_string()
    })?;
    Ok(format!("rejected with the node's text ({agreement}); version stayed {}", f.version_before))
}

/// Talos's service states other than Running (`talosctl service`'s STATE column).
const DOWN_STATES: [&str; 8] =
    ["Waiting", "Preparing", "Starting", "Stopping", "Finished", "Failed", "Initialized", "Skipped"];

async fn step8(s: &Session) -> Verdict {
    let (_, base_args) = on_pristine(s, &[])?;
    let (_, args) = on_pristine(s, &[names::KUBELET_PATCH])?;
    let want: BTreeMap<String, Vec<String>> = [("max-pod".to_string(), vec!["150".to_string()])].into();
    same("what 08-kubelet.yaml adds to machine.kubelet.extraArgs", &added(&base_args, &args), &want)?;
    let (_, fixed) = on_pristine(s, &[names::KUBELET_PATCH, names::FIX_PATCH])?;
    same("machine.kubelet.extraArgs after 08-kubelet.yaml and 08-fix.yaml", &fixed, &base_args)?;
    let fix = need_text(s, names::FIX_PATCH)?;
    ensure(fix.contains("$patch: delete"), || "08-fix.yaml does not use $patch: delete".to_string())?;
    let f: files::KubeletDiag = need(s, names::KUBELET_DIAG)?;
    ensure(DOWN_STATES.contains(&f.service_state.as_str()), || {
        format!(
            "kubelet-diag.json service_state is {:?}, not the state of a Talos service that is down (one of {}; a \
             crash-looping kubelet reads Waiting)",
            f.service_state,
            DOWN_STATES.join(", ")
        )
    })?;
    ensure(f.error_line.contains("unknown flag: --max-pod"), || {
        format!("kubelet-diag.json error_line {:?} does not state the cause (unknown flag: --max-pod)", f.error_line)
    })?;
    let config = s.worker_config().await.map_err(lab)?;
    ensure(f.accepted_version >= 2 && f.accepted_version < config.version, || {
        format!(
            "kubelet-diag.json accepted_version {} is not before the fix (current version {})",
            f.accepted_version, config.version
        )
    })?;
    ensure(!config.kubelet_extra_args().contains_key("max-pod"), || {
        "the worker's config still carries max-pod".to_string()
    })?;
    let svc = s.env.talos.service(&Target::node(&s.env.worker), KUBELET_SERVICE).await.map_err(|e| e.to_string())?;
    ensure(svc.state == RUNNING_STATE && svc.health_text() == "OK", || {
        format!("the kubelet is {}/{}, not Running/OK", svc.state, svc.health_text())
    })?;
    let kube = s.kube().await.map_err(lab)?;
    let node = s.node_by_ip(&kube, &s.env.worker).await.map_err(lab)?;
    ensure(node.ready, || format!("the Node {} is not Ready", node.name))?;
    Ok(format!(
        "kubelet was {} (accepted version {}), now Running/OK and the Node Ready",
        f.service_state, f.accepted_version
    ))
}

async fn step9(s: &Session) -> Verdict {
    let f: files::Report = need(s, names::REPORT)?;
    let noshell: files::NoShell = need(s, names::NOSHELL)?;
    same("report.json shell_in_node", &f.shell_in_node, &(noshell.exec_sh_exit == 0))?;
    let ip: std::net::IpAddr = noshell.node_ip.parse().map_err(|_| "noshell.json node_ip is not an IP".to_string())?;
    same("report.json ssh_port_open", &f.ssh_port_open, &s.env.ports.probe(ip, 22, s.env.probe_timeout).await)?;
    same("report.json api_port", &f.api_port, &DEFAULT_PORT)?;
    let version = s.worker_config().await.map_err(lab)?.version;
    same("report.json worker_config_changes", &f.worker_config_changes, &version.saturating_sub(1))?;
    same("report.json worker_restarts", &f.worker_restarts, &steps::worker_restarts(s).await.map_err(lab)?)?;
    same("report.json rejected_field", &f.rejected_field, &"machine.nodeLabels".to_string())?;
    same("report.json rejected_field", &f.rejected_field, &steps::rejected_field(s).await.map_err(lab)?)?;
    same("report.json broken_service", &f.broken_service, &KUBELET_SERVICE.to_string())?;
    // The crash loop stays in the kubelet's events (up to 64); a restarted node no longer shows it.
    if let Some(live) = steps::broken_service(s).await.map_err(lab)? {
        same("report.json broken_service", &f.broken_service, &live)?;
    }
    let is_apply_line = f.apply_log_line.contains(machined_log::APPLY_REQUEST)
        || f.apply_log_line.contains(" OK [/machine.MachineService/ApplyConfiguration] ");
    ensure(is_apply_line, || {
        format!("report.json apply_log_line {:?} is not a configuration-apply line", f.apply_log_line)
    })?;
    // `talosctl logs machined` prefixes each line with the node.
    let worker_prefix = format!("{}: ", s.env.worker);
    let line = f.apply_log_line.strip_prefix(&worker_prefix).unwrap_or(&f.apply_log_line);
    ensure(worker_machined_log(s).await?.iter().any(|l| l == line), || {
        "report.json apply_log_line is not a line of the worker's machined log".to_string()
    })?;
    ensure(f.summary.chars().count() >= 80, || {
        format!("report.json summary has {} characters, fewer than 80", f.summary.chars().count())
    })?;
    Ok(format!(
        "{} config changes, {} restarts, {} rejected, {} broke",
        f.worker_config_changes, f.worker_restarts, f.rejected_field, f.broken_service
    ))
}

/// The worker's machined log, as far back as the node keeps it.
async fn worker_machined_log(s: &Session) -> Result<Vec<String>, String> {
    s.log_lines(&s.env.worker, "machined", 100_000).await.map_err(lab)
}

#[cfg(test)]
mod tests {
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
