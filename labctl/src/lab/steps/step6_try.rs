//! Step 6, a label in try mode that reverts by itself: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 6: the canary label in try mode, seen on the Node, then rolled back. A run interrupted
/// during the try's window resumes it: the try labctl applied is awaited, not applied again.
/// `again` (`--redo 6`, `--force`): record the step anew even when try.json says it was done.
pub(super) async fn run(s: &Session, force: bool, again: bool, timeout: Duration) -> Result<(), LabError> {
    let worker = s.env.worker.clone();
    let current = s.worker_config().await?;
    if let Some(done) = already_done(s, &current).filter(|_| !again) {
        println!(
            "{}",
            tr!("s6-already-done", file = names::TRY, during = done.version_during, after = done.version_after_revert)
        );
        return Ok(());
    }
    if current.node_labels().get(POOL_LABEL).is_none_or(|v| v != POOL_VALUE) {
        return Err(
            LabError::new(tr!("s6-needs-pool", label = pool_label())).note(format!("  {}", super::resume_command(5)))
        );
    }
    if let Some(pending) = own_pending_try(s, &worker, &current).await? {
        eprintln!("{}", tr!("s6-resume-pending", time = machined_log::clock(pending.applied_at_unix)));
        let kube = s.kube().await?;
        return observe(s, &kube, &pending).await;
    }
    s.guard_pending_try(&worker, force).await?;
    if current.node_labels().contains_key(CANARY_LABEL) {
        return Err(LabError::new(tr!("s6-canary-left", label = CANARY_LABEL)).note(REMOVE_CANARY));
    }
    // The Kubernetes client first: a try applied without one would be left pending.
    let kube = s.kube().await?;
    let pending = apply_try(s, &worker, timeout).await?;
    observe(s, &kube, &pending).await
}

/// A try-mode apply whose rollback is awaited.
struct PendingTry {
    /// The worker's MachineConfig version during the try.
    version_during: u64,
    /// The try's timeout.
    timeout: Duration,
    /// When it was applied, in Unix seconds and on this process's clock.
    applied_at_unix: u64,
    applied_at: std::time::Instant,
}

/// Done before on this cluster: try.json's versions are in the worker's past and no canary is left.
fn already_done(s: &Session, current: &crate::lab::session::WorkerConfig) -> Option<files::Try> {
    s.out
        .read_json::<files::Try>(names::TRY)
        .ok()
        .flatten()
        .filter(|t| t.version_after_revert <= current.version && !current.node_labels().contains_key(CANARY_LABEL))
}

/// The try an interrupted run of labctl applied, when its rollback is still pending: the worker's
/// log shows a pending try, labctl's state recorded a try on the worker at that time, and the
/// active config carries the canary. A pending try someone else applied is not this (the guard
/// refuses it).
async fn own_pending_try(
    s: &Session,
    worker: &str,
    current: &crate::lab::session::WorkerConfig,
) -> Result<Option<PendingTry>, LabError> {
    if !current.node_labels().contains_key(CANARY_LABEL) {
        return Ok(None);
    }
    let machined_log::TryInLog::Pending { applied_at } = s.try_state(worker).await? else { return Ok(None) };
    let Some(timeout_sec) = State::load(&s.out)?.try_timeout_near(worker, applied_at) else { return Ok(None) };
    let ago = Duration::from_secs(unix_now().saturating_sub(applied_at));
    Ok(Some(PendingTry {
        version_during: current.version,
        timeout: Duration::from_secs(timeout_sec),
        applied_at_unix: applied_at,
        applied_at: std::time::Instant::now().checked_sub(ago).unwrap_or_else(std::time::Instant::now),
    }))
}

/// Applies the canary in try mode (recorded in labctl's state first, so that an interrupted run
/// knows the try as its own).
async fn apply_try(s: &Session, worker: &str, timeout: Duration) -> Result<PendingTry, LabError> {
    let patch = patch_of("canary", files::CANARY_PATCH_TEXT)?;
    let mut state = State::load(&s.out)?;
    state.record_try(worker, timeout);
    state.save(&s.out)?;
    let options = ApplyOptions { mode: ApplyMode::Try, dry_run: false, try_timeout: timeout };
    let applied_at_unix = unix_now();
    let applied = apply_patch_to(s, None, &patch, options).await?;
    Ok(PendingTry {
        version_during: applied.version_after,
        timeout,
        applied_at_unix,
        applied_at: std::time::Instant::now(),
    })
}

/// What happens during and after the try: the canary on the Node, the rollback (a new version
/// the log calls one), the canary gone and the pool label kept; recorded in try.json.
async fn observe(s: &Session, kube: &kube::Client, pending: &PendingTry) -> Result<(), LabError> {
    let left = pending.timeout.saturating_sub(pending.applied_at.elapsed());
    let seen_on_node = wait_label(s, kube, 6, CANARY_LABEL, CANARY_VALUE, true, left).await.is_ok();
    let reverted = wait_rollback(s, pending).await?;
    wait_label(s, kube, 6, CANARY_LABEL, CANARY_VALUE, false, LABEL_LIMIT).await?;
    let node = s.node_by_ip(kube, &s.env.worker).await?;
    if node.labels.get(POOL_LABEL).is_none_or(|v| v != POOL_VALUE) {
        return Err(LabError::new(tr!("s6-pool-lost")));
    }
    let file = files::Try {
        timeout_sec: pending.timeout.as_secs(),
        version_during: pending.version_during,
        seen_on_node,
        version_after_revert: reverted,
    };
    s.out.write_json(names::TRY, &file)?;
    let (timeout, during, after) =
        (super::go_duration(pending.timeout), file.version_during, file.version_after_revert);
    let line = if seen_on_node {
        tr!("s6-done", timeout = timeout, during = during, after = after)
    } else {
        tr!("s6-done-not-seen", timeout = timeout, during = during, after = after)
    };
    println!("{line}");
    Ok(())
}

/// Waits for the try's rollback: the version after it.
async fn wait_rollback(s: &Session, pending: &PendingTry) -> Result<u64, LabError> {
    let worker = &s.env.worker;
    let timeout = pending.timeout;
    wait::until(
        6,
        &tr!("s6-wait-rollback"),
        timeout.saturating_sub(pending.applied_at.elapsed()) + Duration::from_secs(30),
        POLL,
        async || {
            let v = s.worker_config().await?.version;
            let elapsed = pending.applied_at.elapsed();
            let overdue = elapsed > timeout + Duration::from_secs(try_guard::OVERDUE_GRACE);
            // A new version is the rollback only if the log says so; a rollback that another request cancelled
            // never comes, and the guard knows when that is certain.
            if v != pending.version_during || overdue {
                let state = s.try_state(worker).await?;
                match try_guard::verdict(worker, state, Some(timeout.as_secs()), unix_now()) {
                    Verdict::Proceed if v != pending.version_during => return Ok(Poll::Ready(v)),
                    Verdict::Note(cancelled) => return Ok(Poll::Failed(LabError::new(cancelled).note(REMOVE_CANARY))),
                    _ => {}
                }
            }
            let due = timeout.saturating_sub(elapsed).as_secs();
            Ok(Poll::Pending(tr!("s6-rollback-due", version = v, due = due)))
        },
    )
    .await
}

/// Grades step 6: its files against the live cluster.
pub(super) async fn check(s: &Session, try_timeout: Duration) -> Grade {
    let f: files::Try = need(s, names::TRY)?;
    if let Some(p) = recorded::<files::Patch>(s, names::PATCH) {
        follows(
            ("try.json version_during", f.version_during),
            ("patch.json mc_version_after", p.mc_version_after),
            6,
            true,
        )?;
    }
    ensure(f.timeout_sec == try_timeout.as_secs(), || {
        tr!("s6-check-timeout", recorded = f.timeout_sec, timeout = super::go_duration(try_timeout))
    })?;
    // The log is the evidence that the try really used that timeout, as far back as the node still keeps it (a
    // restarted node starts a new log). The rollback is never early, and late by a second or two at most.
    let log = worker_machined_log(s).await?;
    let lines = || log.iter().map(String::as_str);
    let log_reaches = machined_log::has_try_apply(lines());
    if log_reaches {
        let gaps = machined_log::try_rollback_gaps(lines());
        ensure(gaps.iter().any(|&gap| (f.timeout_sec..=f.timeout_sec + 2).contains(&gap)), || {
            let seen = if gaps.is_empty() {
                tr!("s6-check-none-rolled-back")
            } else {
                gaps.iter().map(|g| format!("{g}s")).collect::<Vec<_>>().join(", ")
            };
            tr!("s6-check-no-rollback-in-log", timeout = f.timeout_sec, seen = seen)
        })?;
    }
    ensure(f.seen_on_node, || tr!("s6-check-not-seen"))?;
    ensure(f.version_after_revert == f.version_during + 1, || {
        tr!("s6-check-revert-version", after = f.version_after_revert, during = f.version_during)
    })?;
    if let Some(p) = s.out.read_json::<files::Patch>(names::PATCH).map_err(lab)? {
        ensure(f.version_during > p.mc_version_after, || {
            tr!("s6-check-after-step5", during = f.version_during, step5 = p.mc_version_after)
        })?;
    }
    let config = s.worker_config().await.map_err(lab)?;
    ensure(!config.node_labels().contains_key(CANARY_LABEL), || tr!("s6-check-config-canary", label = CANARY_LABEL))?;
    let kube = s.kube().await.map_err(lab)?;
    let node = s.node_by_ip(&kube, &s.env.worker).await.map_err(lab)?;
    ensure(!node.labels.contains_key(CANARY_LABEL), || tr!("s6-check-node-canary", node = node.name.as_str()))?;
    ensure(node.labels.get(POOL_LABEL).is_some_and(|v| v == POOL_VALUE), || {
        tr!("s6-check-node-pool", node = node.name.as_str())
    })?;
    Ok(if log_reaches {
        tr!("s6-check-pass", during = f.version_during, after = f.version_after_revert)
    } else {
        tr!("s6-check-pass-log-gone", during = f.version_during, after = f.version_after_revert)
    })
}
