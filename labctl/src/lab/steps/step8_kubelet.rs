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
        println!("{}", tr!("s8-already-done", file = names::KUBELET_DIAG));
    } else {
        s.guard_pending_try(&worker, force).await?;
        let accepted_version = if has_flag {
            println!("{}", tr!("s8-flag-there"));
            current.version
        } else {
            let patch = patch_of(names::KUBELET_PATCH, files::KUBELET_PATCH_TEXT)?;
            apply_patch_to(s, None, &patch, ApplyOptions::mode(ApplyMode::NoReboot)).await?.version_after
        };
        let (service_state, _) = wait::until(8, &tr!("s8-wait-fail"), KUBELET_FAIL_LIMIT, POLL, async || {
            let KubeletNow { state, health, last_event } = kubelet_now(s).await?;
            Ok(if state != RUNNING_STATE && last_event.starts_with("Error running") {
                Poll::Ready((state, health))
            } else {
                Poll::Pending(format!("{state}/{health}: {last_event}"))
            })
        })
        .await?;
        let lines = s.log_lines(&worker, KUBELET_SERVICE, 200).await?;
        let error_line = error_line(&lines).ok_or_else(|| LabError::new(tr!("s8-log-empty")))?;
        let file = files::KubeletDiag { accepted_version, service_state, error_line };
        s.out.write_json(names::KUBELET_DIAG, &file)?;
        println!(
            "{}",
            tr!(
                "s8-diagnosed",
                version = file.accepted_version,
                state = file.service_state.as_str(),
                error = file.error_line.as_str()
            )
        );
        s.out.write(names::FIX_PATCH, files::FIX_PATCH_TEXT.as_bytes())?;
        let fix = patch_of(names::FIX_PATCH, files::FIX_PATCH_TEXT)?;
        let fixed = apply_patch_to(s, None, &fix, ApplyOptions::mode(ApplyMode::NoReboot)).await?;
        println!("{}", tr!("s8-fixed", file = names::FIX_PATCH, version = fixed.version_after));
    }
    if !s.out.exists(names::FIX_PATCH) {
        s.out.write(names::FIX_PATCH, files::FIX_PATCH_TEXT.as_bytes())?;
    }
    wait::until(8, &tr!("s8-wait-healthy"), RECOVER_LIMIT, POLL, async || {
        let KubeletNow { state, health, last_event } = kubelet_now(s).await?;
        Ok(if state == RUNNING_STATE && health == "OK" {
            Poll::Ready(())
        } else {
            Poll::Pending(format!("{state}/{health}: {last_event}"))
        })
    })
    .await?;
    let kube = s.kube().await?;
    wait::until(8, &tr!("s8-wait-ready"), RECOVER_LIMIT, POLL, async || {
        let node = s.node_by_ip(&kube, &worker).await?;
        Ok(if node.ready { Poll::Ready(()) } else { Poll::Pending(tr!("s8-not-ready", node = node.name)) })
    })
    .await?;
    println!("{}", tr!("s8-recovered"));
    Ok(())
}

/// Grades step 8: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let (_, base_args) = on_pristine(s, &[])?;
    let (_, args) = on_pristine(s, &[names::KUBELET_PATCH])?;
    let want: BTreeMap<String, Vec<String>> = [("max-pod".to_string(), vec!["150".to_string()])].into();
    same(&tr!("s8-check-args-added", file = names::KUBELET_PATCH), &added(&base_args, &args), &want)?;
    let (_, fixed) = on_pristine(s, &[names::KUBELET_PATCH, names::FIX_PATCH])?;
    same(&tr!("s8-check-args-fixed", patch = names::KUBELET_PATCH, fix = names::FIX_PATCH), &fixed, &base_args)?;
    let fix = need_text(s, names::FIX_PATCH)?;
    ensure(fix.contains("$patch: delete"), || tr!("s8-check-fix-no-delete", file = names::FIX_PATCH))?;
    let f: files::KubeletDiag = need(s, names::KUBELET_DIAG)?;
    ensure(DOWN_STATES.contains(&f.service_state.as_str()), || {
        tr!("s8-check-state", state = super::json_text(&f.service_state), states = DOWN_STATES.join(", "))
    })?;
    // The kubelet's words for the flag it does not know.
    let cause = "unknown flag: --max-pod";
    ensure(f.error_line.contains(cause), || {
        tr!("s8-check-no-cause", line = super::json_text(&f.error_line), cause = cause)
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
        tr!("s8-check-accepted-version", accepted = f.accepted_version, current = config.version)
    })?;
    ensure(!config.kubelet_extra_args().contains_key("max-pod"), || tr!("s8-check-flag-left"))?;
    let svc = s.env.talos.service(&Target::node(&s.env.worker), KUBELET_SERVICE).await.map_err(|e| e.to_string())?;
    ensure(svc.state == RUNNING_STATE && svc.health_text() == "OK", || {
        tr!("s8-check-kubelet", state = svc.state.as_str(), health = svc.health_text())
    })?;
    let kube = s.kube().await.map_err(lab)?;
    let node = s.node_by_ip(&kube, &s.env.worker).await.map_err(lab)?;
    ensure(node.ready, || tr!("s8-check-node-not-ready", node = node.name.as_str()))?;
    Ok(tr!("s8-check-pass", state = f.service_state.as_str(), version = f.accepted_version))
}
