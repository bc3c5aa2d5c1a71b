//! What the cluster says now, read through the Talos, container and Kubernetes APIs: services, members, the
//! kubeconfig, the kubelet, the worker's restarts. Both running and checking the steps ask these.

use super::*;

pub(super) fn parse_ip(text: &str, what: &str) -> Result<IpAddr, LabError> {
    text.parse().map_err(|_| LabError::new(tr!("live-not-ip", what = what, value = json_text(text))))
}

/// `docker exec ... sh` failed because the image has no shell: exit 126 (Docker ≤ 27) or 127, and the OCI runtime's
/// "executable file not found" (matched by substring: the wording varies by engine).
pub fn is_no_shell(exec: &crate::lab::env::ExecResult) -> bool {
    (exec.exit_code == 126 || exec.exit_code == 127) && is_oci_no_shell_line(&exec.first_line())
}

/// The OCI runtime's refusal of a missing program, matched on its stable parts (docs/lab.md: the prefix and
/// `executable file not found`; the rest varies with the engine).
pub fn is_oci_no_shell_line(line: &str) -> bool {
    line.starts_with("OCI runtime exec failed") && line.contains("executable file not found")
}

pub(super) async fn service_ids(s: &Session, node: &str) -> Result<Vec<String>, LabError> {
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
        .ok_or_else(|| LabError::new(tr!("live-kubeconfig-no-context", context = json_text(&context_name))))?;
    kc.clusters
        .iter()
        .find(|c| c.name == context.cluster)
        .and_then(|c| c.cluster.as_ref())
        .and_then(|c| c.server.clone())
        .ok_or_else(|| LabError::new(tr!("live-kubeconfig-no-server", cluster = json_text(&context.cluster))))
}

/// `cluster.network.podSubnets`/`serviceSubnets` of a config as written (Talos's defaults when empty) and whether
/// any overlaps the host cluster's ranges.
pub fn subnets(config: &[u8]) -> Result<Subnets, LabError> {
    let config = talos_config::Config::from_bytes(config)
        .map_err(|e| LabError::new(tr!("live-config-unloadable", error = e.to_string())))?;
    let found = talos_config::subnets::subnets_overlap_host(&config, &crate::lab::policy::lab_host_ranges())
        .map_err(|e| LabError::new(tr!("live-subnets", error = e.to_string())))?;
    let v1 = config.get::<talos_config::model::v1alpha1::Config>();
    let network = v1.and_then(|v| v.cluster.as_ref()).and_then(|c| c.network.as_ref());
    // As written; Talos's default (the one the check used) when the list is empty.
    let written = |list: Option<Vec<String>>, checked: &[talos_config::subnets::SubnetCheck]| match list {
        Some(l) if !l.is_empty() => l,
        _ => checked.iter().map(|c| c.subnet.to_string()).collect(),
    };
    let pods = written(network.map(|n| n.pod_subnets.get()), &found.pod_subnets);
    let services = written(network.map(|n| n.service_subnets.get()), &found.service_subnets);
    Ok(Subnets { pods, services, overlaps_host: found.any() })
}

/// The cluster's subnets as step 4 records them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subnets {
    /// `cluster.network.podSubnets` (Talos's default when none is written).
    pub pods: Vec<String>,
    /// `cluster.network.serviceSubnets` (Talos's default when none is written).
    pub services: Vec<String>,
    /// Whether one of them overlaps the lab's host ranges.
    pub overlaps_host: bool,
}

/// The kubeconfig of step 4: the existing file when it reaches this cluster (talosctl would merge a second fetch
/// into it), else fetched once from the control plane and written as a regular file with mode 0600, replacing
/// (never merging into) what was there.
pub(super) async fn kubeconfig_once(s: &Session) -> Result<String, LabError> {
    let path = s.out.path(names::KUBECONFIG);
    if let Some(reason) = existing_kubeconfig_unusable(s).await? {
        if path.symlink_metadata().is_ok() {
            eprintln!("{}", tr!("live-kubeconfig-refetch", path = path.display().to_string(), reason = reason));
        }
    } else {
        println!("{}", tr!("live-kubeconfig-kept", path = path.display().to_string()));
        return s.out.read(names::KUBECONFIG)?.ok_or_else(|| LabError::new(tr!("live-kubeconfig-vanished")));
    }
    let bytes = s.env.talos.kubeconfig(&Target::node(&s.env.controlplane)).await?;
    s.out.write_secret(names::KUBECONFIG, &bytes)?;
    String::from_utf8(bytes).map_err(|_| LabError::new(tr!("live-kubeconfig-not-utf8")))
}

/// Why the kubeconfig in the output directory cannot be reused (`None`: it is a regular file that lists the Nodes).
pub(super) async fn existing_kubeconfig_unusable(s: &Session) -> Result<Option<String>, LabError> {
    let path = s.out.path(names::KUBECONFIG);
    let Ok(meta) = path.symlink_metadata() else { return Ok(Some(tr!("live-kubeconfig-absent"))) };
    if !meta.file_type().is_file() {
        return Ok(Some(tr!("live-kubeconfig-not-regular")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.permissions().mode() & 0o777 != 0o600 {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).map_err(|e| {
                LabError::new(tr!("live-cannot-chmod", path = path.display().to_string(), error = e.to_string()))
            })?;
            eprintln!("{}", tr!("live-kubeconfig-chmod", path = path.display().to_string()));
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
    Ok(reached.err().map(|e| tr!("live-kubeconfig-elsewhere", error = e.message)))
}

/// The kubelet service of the worker.
pub(super) async fn kubelet_now(s: &Session) -> Result<KubeletNow, LabError> {
    let svc = s.env.talos.service(&Target::node(&s.env.worker), KUBELET_SERVICE).await?;
    let last_event = svc.events.last().map(|e| e.msg.clone()).unwrap_or_default();
    Ok(KubeletNow { state: svc.state.clone(), health: svc.health_text(), last_event })
}

/// The worker's kubelet service as `talosctl service kubelet` shows it.
pub(super) struct KubeletNow {
    /// `Running`, `Waiting`, ...
    pub(super) state: String,
    /// `OK`, `Fail`, `?`.
    pub(super) health: &'static str,
    /// The last event's message.
    pub(super) last_event: String,
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
        .ok_or_else(|| LabError::new(tr!("live-bad-patch-missing", file = names::BAD_PATCH)))?;
    let patch = patch_of(names::BAD_PATCH, &text)?;
    let config = s.worker_config().await?;
    let merged = talos_config::apply_patches(&config.bytes, &patch)
        .map_err(|e| LabError::new(format!("{}: {e}", names::BAD_PATCH)))?;
    let rejection = rejection_of(s, &merged)
        .await?
        .ok_or_else(|| LabError::new(tr!("live-bad-patch-passes", file = names::BAD_PATCH)))?;
    let diagnostics = rejection.validation.as_ref().map(|v| v.diagnostics()).unwrap_or_default();
    // The lab asks for the form `machine.x`: the section, not the label key the error names.
    diagnostics.iter().find_map(|d| d.field()).map(section_of).ok_or_else(|| {
        LabError::new(tr!("live-rejection-no-field", file = names::BAD_PATCH, message = rejection.message.as_str()))
    })
}

/// The first two keys of a validation path (`machine.nodeLabels["a b"]` -> `machine.nodeLabels`).
pub(super) fn section_of(path: &talos_config::FieldPath) -> String {
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
        use crate::lab::env::ExecResult;
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
