//! Running the lab: the steps of a range in order, each skipped when its files are already recorded, and what an
//! interrupt (Ctrl-C, SIGTERM) leaves: the files so far and the command that resumes.

use super::*;

/// `labctl lab run`: performs the steps asked for; returns the session and the last step performed (the caller verifies a run
/// that reached step 9).
pub async fn run(args: &RunArgs) -> Result<(Session, u8), LabError> {
    let session = Session::open(&args.cluster).await?;
    session.claim_out_dir(args.force).await?;
    let (first, last) = match (args.step, args.from) {
        (Some(n), _) => (n, n),
        (None, Some(n)) => (n, 9),
        (None, None) => (1, 9),
    };
    if let Some(sim) = &session.sim {
        eprintln!(
            "{}",
            tr!(
                "run-sim-cluster",
                controlplane = sim.controlplane.endpoint.to_string(),
                worker = sim.worker.endpoint.to_string()
            )
        );
    }
    let before = file_times(&session);
    for step in first..=last {
        eprintln!("{}", tr!("run-step-header", step = step, title = title(step)));
        if keep_recorded(&session, args, step).await? {
            continue;
        }
        tokio::select! {
            done = run_step(&session, args, step) => {
                done.map_err(|e| e.in_step(step))?;
                let mut state = State::load(&session.out)?;
                let completed = state.completed.get_or_insert_with(Vec::new);
                if !completed.contains(&step) {
                    completed.push(step);
                    completed.sort_unstable();
                }
                state.save(&session.out)?;
            }
            signal = interrupted() => return Err(interruption(&session, step, signal)),
        }
    }
    eprintln!("{}", files_summary(&session, &before));
    Ok((session, last))
}

/// When each lab file was last modified (`None`: absent).
pub(super) fn file_times(s: &Session) -> Vec<Option<std::time::SystemTime>> {
    ALL_FILES.iter().map(|name| std::fs::metadata(s.out.path(name)).and_then(|m| m.modified()).ok()).collect()
}

/// `files in DIR: written: a, b; kept: c` (the files this run wrote, and those it found and left alone).
pub(super) fn files_summary(s: &Session, before: &[Option<std::time::SystemTime>]) -> String {
    let now = file_times(s);
    let (mut written, mut kept) = (Vec::new(), Vec::new());
    for ((name, then), now) in ALL_FILES.iter().zip(before).zip(&now) {
        match (then, now) {
            (_, None) => {}
            (Some(a), Some(b)) if a == b => kept.push(*name),
            _ => written.push(*name),
        }
    }
    let list = |v: &[&str]| if v.is_empty() { tr!("run-files-none") } else { v.join(", ") };
    tr!("run-files", dir = s.out.dir().display().to_string(), written = list(&written), kept = list(&kept))
}

/// Ctrl-C or SIGTERM: the signal's name and the conventional exit code (128 + its number).
pub(super) async fn interrupted() -> (&'static str, u8) {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => ("Ctrl-C", 130),
        () = term => ("SIGTERM", 143),
    }
}

/// What an interrupted run says: the step, the files in the folder (each written whole: nothing is half-written),
/// and the command that goes on from that step.
pub(super) fn interruption(s: &Session, step: u8, (signal, code): (&str, u8)) -> LabError {
    let kept: Vec<&str> = ALL_FILES.iter().copied().filter(|name| s.out.exists(name)).collect();
    let files = if kept.is_empty() { tr!("run-files-none") } else { kept.join(", ") };
    let mut e = LabError::new(tr!(
        "run-interrupted",
        signal = signal,
        step = step,
        title = title(step),
        dir = s.out.dir().display().to_string(),
        files = files
    ))
    .note(tr!("run-to-go-on", command = resume_command(step)));
    e.exit_code = Some(code);
    e
}

/// Every file a run writes, in step order.
pub(super) const ALL_FILES: [&str; 16] = [
    names::NOSHELL,
    names::SERVICES,
    names::MEMBERS,
    names::KUBECONFIG,
    names::CLUSTER,
    names::LABELS_PATCH,
    names::PATCH_OUT,
    names::PATCH,
    names::TRY,
    names::BAD_PATCH,
    names::REJECTED_OUT,
    names::REJECTED,
    names::KUBELET_PATCH,
    names::KUBELET_DIAG,
    names::FIX_PATCH,
    names::REPORT,
];

/// The file that says a step was recorded (the last one the step writes).
pub(super) const RECORDS: [&str; 9] = [
    names::NOSHELL,
    names::SERVICES,
    names::MEMBERS,
    names::CLUSTER,
    names::PATCH,
    names::TRY,
    names::REJECTED,
    names::KUBELET_DIAG,
    names::REPORT,
];

/// Observations are recorded once: a step whose file is there is verified (as `lab check` does) and kept, unless
/// the learner asks for it again (`--redo N`, `--force`). A recorded step that does not verify stops the run.
pub(super) async fn keep_recorded(s: &Session, args: &RunArgs, step: u8) -> Result<bool, LabError> {
    let record = RECORDS[usize::from(step - 1)];
    // A step interrupted after writing its file is not finished: it runs again (and picks up where it stopped).
    let finished = State::load(&s.out)?.completed.is_none_or(|done| done.contains(&step));
    if args.force || args.redo.contains(&step) || !s.out.exists(record) || !finished {
        return Ok(false);
    }
    match check_step(s, step, args.try_timeout).await {
        Ok(reason) => {
            println!("{}", tr!("run-kept", step = step, file = record, reason = reason));
            Ok(true)
        }
        Err(reason) => Err(LabError::new(tr!("run-recorded-but", step = step, file = record, reason = reason))
            .note(tr!("run-record-again", step = step, command = crate::lab::command_line()))),
    }
}

pub(super) async fn run_step(s: &Session, args: &RunArgs, step: u8) -> Result<(), LabError> {
    match step {
        1 => step1_no_shell::run(s).await,
        2 => step2_services::run(s).await,
        3 => step3_members::run(s).await,
        4 => step4_kubeconfig::run(s).await,
        5 => step5_label::run(s, args.force).await,
        6 => step6_try::run(s, args.force, args.force || args.redo.contains(&6), args.try_timeout).await,
        7 => step7_rejected::run(s, args.force).await,
        8 => step8_kubelet::run(s, args.force).await,
        _ => step9_report::run(s).await,
    }
}
