//! `labctl lab check`: every step's files checked against the live cluster, one verdict per step, rendered as
//! text or JSON.

use super::*;

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
pub async fn check(args: &CheckArgs) -> Result<(), LabError> {
    if args.cluster.sim {
        return Err(LabError::new(tr!("check-sim-refused")).note(tr!("check-sim-refused-hint")));
    }
    let session = Session::open(&args.cluster).await?;
    let results = check_all(&session, args.try_timeout).await;
    match args.output {
        Output::Text => print!("{}", render_text(&results)),
        Output::Json => println!("{}", render_json(&results)),
    }
    let failed = results.iter().filter(|r| !r.pass).count();
    if failed > 0 {
        return Err(LabError::new(tr!("check-failed", failed = failed)));
    }
    Ok(())
}

/// The lines of the text output: `step N: PASS|FAIL: reason`.
pub fn render_text(results: &[StepResult]) -> String {
    results
        .iter()
        .map(|r| {
            let line = if r.pass {
                tr!("check-pass", step = r.step, reason = r.reason.as_str())
            } else {
                tr!("check-fail", step = r.step, reason = r.reason.as_str())
            };
            format!("{line}\n")
        })
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

/// Checks one step; step 6 must have used `try_timeout`.
pub(super) async fn check_step(s: &Session, step: u8, try_timeout: Duration) -> Grade {
    match step {
        1 => step1_no_shell::check(s).await,
        2 => step2_services::check(s).await,
        3 => step3_members::check(s).await,
        4 => step4_kubeconfig::check(s).await,
        5 => step5_label::check(s).await,
        6 => step6_try::check(s, try_timeout).await,
        7 => step7_rejected::check(s).await,
        8 => step8_kubelet::check(s).await,
        _ => step9_report::check(s).await,
    }
}

/// Checks every step; step 6 must have used `try_timeout`.
pub async fn check_all(s: &Session, try_timeout: Duration) -> Vec<StepResult> {
    let mut out = Vec::with_capacity(9);
    for step in 1..=9u8 {
        let verdict = check_step(s, step, try_timeout).await;
        let (pass, reason) = match verdict {
            Ok(reason) => (true, reason),
            Err(reason) => (false, reason),
        };
        out.push(StepResult { step, pass, reason });
    }
    out
}
