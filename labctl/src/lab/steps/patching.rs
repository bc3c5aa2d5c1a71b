//! Changing the worker: patches applied as `talosctl patch mc` does (after labctl's local check), the wait for a
//! label on the Node, and the node's refusal predicted.

use super::*;

pub(super) fn patch_of(name: &str, text: &str) -> Result<Vec<talos_config::Patch>, LabError> {
    load_patches([PatchSource::new(format!("@{name}"), text)]).map_err(|e| LabError::new(format!("{name}: {e}")))
}

/// Waits until the worker's Node has (`true`) or lacks (`false`) `key=value`.
pub(super) async fn wait_label(
    s: &Session,
    kube: &kube::Client,
    step: u8,
    key: &str,
    value: &str,
    present: bool,
    limit: Duration,
) -> Result<bool, LabError> {
    let what = if present {
        tr!("patch-wait-label-on", key = key, value = value)
    } else {
        tr!("patch-wait-label-off", key = key)
    };
    wait::until(step, &what, limit, POLL, async || {
        let node = s.node_by_ip(kube, &s.env.worker).await?;
        let has = node.labels.get(key).is_some_and(|v| v == value);
        Ok(if has == present {
            Poll::Ready(true)
        } else {
            Poll::Pending(match node.labels.get(key) {
                Some(v) => tr!("patch-label-is", key = key, value = json_text(v), node = node.name.as_str()),
                None => tr!("patch-label-absent", key = key, node = node.name.as_str()),
            })
        })
    })
    .await
}

/// An applied patch.
pub(super) struct Applied {
    /// The worker's MachineConfig version once the patch is in.
    pub(super) version_after: u64,
}

/// `talosctl patch mc` of the worker: applies (after labctl's local check), saves what talosctl would print to
/// `out_file` when given, and reads the version after.
pub(super) async fn apply_patch_to(
    s: &Session,
    out_file: Option<&str>,
    patches: &[talos_config::Patch],
    options: ApplyOptions,
) -> Result<Applied, LabError> {
    let worker = s.env.worker.clone();
    match s.env.talos.patch_machine_config(&worker, patches, options).await {
        Ok(outcome) => {
            let apply = outcome.apply.ok_or_else(|| LabError::new(tr!("patch-changes-nothing")))?;
            let text = crate::lab::talosctl::applied(&worker, &apply);
            eprint!("{text}");
            if let Some(name) = out_file {
                s.out.write(name, text.as_bytes())?;
            }
            let version_after = outcome
                .version_after
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| LabError::new(tr!("patch-version-unknown")))?;
            Ok(Applied { version_after })
        }
        Err(e) if e.kind() == talos_client::ErrorKind::OutcomeUnknown => {
            Err(outcome_read_back(s, patches, &e, out_file).await)
        }
        Err(e) => {
            let answered =
                matches!(e.kind(), talos_client::ErrorKind::Status | talos_client::ErrorKind::ApplyInProgress);
            if let (Some(name), true) = (out_file, answered) {
                s.out.write(name, crate::lab::talosctl::failed(&worker, &e).as_bytes())?;
            }
            Err(LabError::new(tr!("patch-apply-failed", worker = worker.as_str(), error = e.to_string())))
        }
    }
}

/// After a patch was sent and its answer never came, before anything else: whether the worker's active config holds
/// the patch (merging it again changes nothing), and its version. A step whose file records the node's answer
/// (`out_file`) cannot record a change that is in without it: it is undone, then the step runs again.
async fn outcome_read_back(
    s: &Session,
    patches: &[talos_config::Patch],
    lost: &talos_client::Error,
    out_file: Option<&str>,
) -> LabError {
    let worker = &s.env.worker;
    let now = match s.worker_config().await {
        Ok(now) => now,
        Err(read) => {
            return LabError::new(tr!("patch-read-back-failed", error = lost.to_string(), read_error = read.message));
        }
    };
    let holds = talos_config::apply_patches(&now.bytes, patches).is_ok_and(|merged| merged == now.bytes);
    let worker = worker.as_str();
    let message = if holds {
        tr!("patch-lost-applied", worker = worker, version = now.version)
    } else {
        tr!("patch-lost-not-applied", worker = worker, version = now.version)
    };
    let command = crate::lab::command_line();
    let note = match (holds, out_file) {
        (true, Some(file)) => tr!("patch-lost-undo", file = file, command = command),
        _ => tr!("patch-lost-go-on", command = command),
    };
    LabError::new(message).note(note)
}

pub(super) async fn apply_patch(
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
        .map_err(|e| LabError::new(tr!("patch-platform-mode", error = e.to_string())))?;
    Ok(talos_config::node::check_apply(config, mode, true).err())
}
