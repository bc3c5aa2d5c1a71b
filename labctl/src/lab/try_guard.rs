//! The guard `labctl lab` puts before every apply: no change while a try-mode rollback is pending on the node. That is
//! the lab's named common mistake: any non-try request cancels the rollback, and the try's config then stays.

use super::LabError;
use super::machined_log::{TryInLog, clock};
use crate::i18n::tr;

/// talosctl's default `--timeout` of a try-mode apply, in seconds (`1m0s`).
pub const TALOSCTL_TRY_TIMEOUT: u64 = 60;

/// How many seconds past its due time a rollback is awaited before its absence proves it was cancelled.
pub const OVERDUE_GRACE: u64 = 3;

/// What to do before an apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing stands in the way.
    Proceed,
    /// Go on, and tell the learner this.
    Note(String),
    /// Do not apply (unless `--force`).
    Refuse(LabError),
}

/// The verdict for `node`, whose machined log says `state`; `timeout_sec` is the try's timeout if labctl recorded
/// it, `now` the time in Unix seconds.
pub fn verdict(node: &str, state: TryInLog, timeout_sec: Option<u64>, now: u64) -> Verdict {
    match state {
        TryInLog::Settled => Verdict::Proceed,
        TryInLog::Pending { applied_at } => {
            Verdict::Refuse(refusal(tr!("guard-pending", node = node, due = due_text(applied_at, timeout_sec, now))))
        }
        TryInLog::Cancelled { applied_at, request_at, certain } => {
            let due = applied_at.saturating_add(timeout_sec.unwrap_or(TALOSCTL_TRY_TIMEOUT));
            if certain || now > due.saturating_add(OVERDUE_GRACE) {
                Verdict::Note(cancelled_text(node, applied_at, request_at))
            } else {
                Verdict::Refuse(refusal(tr!(
                    "guard-maybe-pending",
                    node = node,
                    due = due_text(applied_at, timeout_sec, now),
                    request = clock(request_at)
                )))
            }
        }
    }
}

/// What a cancelled rollback means for the learner.
fn cancelled_text(node: &str, applied_at: u64, request_at: u64) -> String {
    tr!("guard-cancelled", applied = clock(applied_at), node = node, request = clock(request_at))
}

fn refusal(message: String) -> LabError {
    LabError::new(message)
        .note(tr!("guard-wait-rollback"))
        .note(format!("  {}", super::command_line()))
        .note(tr!("guard-apply-anyway", command = super::command_line()))
}

fn due_text(applied_at: u64, timeout_sec: Option<u64>, now: u64) -> String {
    let at = clock(applied_at);
    match timeout_sec {
        Some(t) => {
            let due = applied_at.saturating_add(t);
            let when = if due > now { tr!("guard-due-in", seconds = due - now) } else { tr!("guard-overdue") };
            tr!("guard-due", at = at, timeout = t, due = clock(due), when = when)
        }
        None => tr!("guard-due-other-client", at = at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: u64 = 1_787_652_942; // 10:15:42

    fn refused(v: Verdict) -> String {
        match v {
            Verdict::Refuse(e) => e.message,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_pending_rollback_is_refused_with_its_due_time() {
        let pending = TryInLog::Pending { applied_at: AT };
        assert_eq!(
            refused(verdict("10.5.0.3", pending, Some(30), AT + 10)),
            "a try-mode rollback is pending on 10.5.0.3 (applied at 10:15:42 UTC with a 30s timeout: the rollback is \
             due at 10:16:12 UTC (in 20s)); applying another change now would cancel the rollback"
        );
        assert_eq!(verdict("10.5.0.3", TryInLog::Settled, None, AT), Verdict::Proceed);
    }

    #[test]
    fn a_probable_cancel_is_trusted_only_once_the_rollback_is_overdue() {
        let maybe = TryInLog::Cancelled { applied_at: AT, request_at: AT + 8, certain: false };
        assert_eq!(
            refused(verdict("10.5.0.3", maybe, Some(30), AT + 33)),
            "a try-mode rollback may still be pending on 10.5.0.3 (applied at 10:15:42 UTC with a 30s timeout: the \
             rollback is due at 10:16:12 UTC (overdue)); a request at 10:15:50 UTC that applied nothing cancelled it \
             unless that request was in try mode too; applying another change now would cancel it for sure"
        );
        let note = Verdict::Note(
            "the try-mode apply at 10:15:42 UTC on 10.5.0.3 will not be rolled back: another apply request at \
             10:15:50 UTC (even a rejected one or a dry run) cancelled its rollback, so the try's config stays active"
                .to_string(),
        );
        assert_eq!(verdict("10.5.0.3", maybe, Some(30), AT + 34), note);
        // Another client's try: talosctl's default timeout.
        assert!(matches!(verdict("10.5.0.3", maybe, None, AT + 63), Verdict::Refuse(_)));
        assert_eq!(verdict("10.5.0.3", maybe, None, AT + 64), note);
        // An accepted apply after the try: cancelled, whatever the time.
        let certain = TryInLog::Cancelled { applied_at: AT, request_at: AT + 8, certain: true };
        assert_eq!(verdict("10.5.0.3", certain, Some(30), AT + 9), note);
    }
}
