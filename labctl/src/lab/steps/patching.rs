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
            let apply = outcome.apply.ok_or_else(|| {
                LabError::new("the patch changes nothing on the worker: nothing was sent (already applied?)")
            })?;
            let text = crate::lab::talosctl::applied(&worker, &apply);
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
        Err(e) if e.kind() == talos_client::ErrorKind::OutcomeUnknown => Err(outcome_read_back(s, patches, &e).await),
        Err(e) => {
            let answered =
                matches!(e.kind(), talos_client::ErrorKind::Status | talos_client::ErrorKind::ApplyInProgress);
            if let (Some(name), true) = (out_file, answered) {
                s.out.write(name, crate::lab::talosctl::failed(&worker, &e).as_bytes())?;
            }
            Err(LabError::new(format!("applying the patch to {worker} failed: {e}")))
        }
    }
}

/// After a connection lost between sending a patch and the node's answer, before anything else: whether the
/// worker's active config holds the patch (merging it again changes nothing), and its version.
async fn outcome_read_back(s: &Session, patches: &[talos_config::Patch], lost: &talos_client::Error) -> LabError {
    let worker = &s.env.worker;
    let now = match s.worker_config().await {
        Ok(now) => now,
        Err(read) => {
            return LabError::new(format!(
                "{lost}; reading the worker's MachineConfig back failed too: {}",
                read.message
            ));
        }
    };
    let holds = talos_config::apply_patches(&now.bytes, patches).is_ok_and(|merged| merged == now.bytes);
    let outcome = if holds { "holds the patch: it was applied" } else { "does not hold the patch: it was not applied" };
    LabError::new(format!(
        "the connection to {worker} was lost after the patch was sent and before the node answered; the worker's \
         MachineConfig, read back now, is version {} and {outcome}",
        now.version
    ))
    .note(format!("run the step again to go on (it checks the cluster first): {}", crate::lab::command_line()))
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
        .map_err(|e| LabError::new(format!("the worker reports an unusable platform mode: {e}")))?;
    Ok(talos_config::node::check_apply(config, mode, true).err())
}
