//! Step 5, a node label without a reboot: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 5: the pool label, applied with `--mode=no-reboot`.
pub(super) async fn run(s: &Session, force: bool) -> Result<(), LabError> {
    s.out.write(names::LABELS_PATCH, files::LABELS_PATCH_TEXT.as_bytes())?;
    let patch = patch_of(names::LABELS_PATCH, files::LABELS_PATCH_TEXT)?;
    let worker = s.env.worker.clone();
    let before = s.worker_config().await?;
    let pool = pool_label();
    if before.node_labels().get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE) {
        if s.out.exists(names::PATCH) && s.out.exists(names::PATCH_OUT) {
            println!("{}", tr!("s5-already-done", label = pool.as_str()));
            let kube = s.kube().await?;
            wait_label(s, &kube, 5, POOL_LABEL, POOL_VALUE, true, LABEL_LIMIT).await?;
            return Ok(());
        }
        return Err(LabError::new(tr!(
            "s5-half-done",
            label = pool.as_str(),
            patch = names::PATCH,
            patch_out = names::PATCH_OUT
        ))
        .note(tr!("s5-redo-note")));
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
        "{}",
        tr!(
            "s5-applied",
            file = names::LABELS_PATCH,
            worker = worker.as_str(),
            before = file.mc_version_before,
            after = file.mc_version_after
        )
    );
    let kube = s.kube().await?;
    wait_label(s, &kube, 5, POOL_LABEL, POOL_VALUE, true, LABEL_LIMIT).await?;
    println!("{}", tr!("s5-on-node", label = pool));
    Ok(())
}

/// Grades step 5: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let (base_labels, _) = on_pristine(s, &[])?;
    let (labels, _) = on_pristine(s, &[names::LABELS_PATCH])?;
    let want: BTreeMap<String, String> = [(POOL_LABEL.to_string(), POOL_VALUE.to_string())].into();
    same(&tr!("labels-added", file = names::LABELS_PATCH), &added(&base_labels, &labels), &want)?;
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
        tr!("s5-check-one-apply", before = f.mc_version_before, after = f.mc_version_after)
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
    same(&tr!("s5-check-started-at"), &f.container_started_at, &inspect.started_at)?;
    let config = s.worker_config().await.map_err(lab)?;
    let pool = pool_label();
    ensure(config.node_labels().get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE), || {
        tr!("s5-check-config-lacks", label = pool.as_str())
    })?;
    let kube = s.kube().await.map_err(lab)?;
    let node = s.node_by_ip(&kube, &worker).await.map_err(lab)?;
    ensure(node.labels.get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE), || {
        tr!("s5-check-node-lacks", node = node.name.as_str(), label = pool.as_str())
    })?;
    Ok(tr!("s5-check-pass", before = f.mc_version_before, after = f.mc_version_after))
}
