//! Step 8, an accepted patch that breaks the kubelet, and its fix: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 8: `max-pod: "150"` in the kubelet's extraArgs, the diagnosis, and the fix.
pub(super) async fn run(s: &Session, force: bool) -> Result<(), LabError> {
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
            let KubeletNow { state, health, last_event } = kubelet_now(s).await?;
            Ok(if state != RUNNING_STATE && last_event.starts_with("Error running") {
                Poll::Ready((state, health))
            } else {
                Poll::Pending(format!("{state}/{health}: {last_event}"))
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
        let KubeletNow { state, health, last_event } = kubelet_now(s).await?;
        Ok(if state == RUNNING_STATE && health == "OK" {
            Poll::Ready(())
        } else {
            Poll::Pending(format!("{state}/{health}: {last_event}"))
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

/// Grades step 8: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
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
            "kubelet-diag.json service_state is {}, not the state of a Talos service that is down (one of {}; a \
             crash-looping kubelet reads Waiting)",
            super::json_text(&f.service_state),
            DOWN_STATES.join(", ")
        )
    })?;
    ensure(f.error_line.contains("unknown flag: --max-pod"), || {
        format!(
            "kubelet-diag.json error_line {} does not state the cause (unknown flag: --max-pod)",
            super::json_text(&f.error_line)
        )
    })?;
    if let Some(r) = recorded::<files::Rejected>(s, names::REJECTED) {
        follows(
            ("kubelet-diag.json accepted_version", f.accepted_version),
            ("rejected.json version_after", r.version_after),
            8,
            true,
        )?;
    }
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
