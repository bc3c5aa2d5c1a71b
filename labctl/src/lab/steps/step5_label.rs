//! Step 5, a node label without a reboot: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 5: the pool label, applied with `--mode=no-reboot`.
pub(super) async fn run(s: &Session, force: bool) -> Result<(), LabError> {
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

/// Grades step 5: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
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
    if let Some(m) = recorded::<files::Members>(s, names::MEMBERS) {
        follows(
            ("patch.json mc_version_before", f.mc_version_before),
            ("members.json worker_mc_version", m.worker_mc_version),
            5,
            false,
        )?;
    }
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
