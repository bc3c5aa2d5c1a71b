//! Reading a node's machined log (what `talosctl logs machined` shows): Go log times, the try-mode applies and
//! rollbacks, and the gRPC access lines of `ApplyConfiguration`. Talos exposes no pending-rollback resource; this log
//! is its only record.

/// The start of machined's line for an accepted apply; the mode follows (`try`, `no_reboot`, `staged`, ...).
pub const APPLY_REQUEST: &str = "apply config request: mode ";
/// machined's line when a try-mode timer fires.
const ROLLBACK: &str = "rolling back the configuration";
/// The start of machined's line when that rollback fails.
const ROLLBACK_FAILED: &str = "config rollback failed";

/// What a node's machined log says about its last try-mode apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryInLog {
    /// No rollback is waiting: there was no try, or it was rolled back.
    Settled,
    /// A try-mode apply logged at `applied_at` (Unix seconds, the node's clock) whose rollback is still to come.
    Pending {
        /// When the try was applied.
        applied_at: u64,
    },
    /// A try-mode apply followed by another request, which cancels the rollback: machined cancels it for every
    /// non-try request before it checks it, so the try's config stays.
    Cancelled {
        /// When the try was applied.
        applied_at: u64,
        /// When the other request came.
        request_at: u64,
        /// An accepted apply followed (`apply config request: mode no_reboot`, ...). Otherwise only its access line
        /// did: a rejected request or a dry run, which cancels the rollback if it was not in try mode itself (the
        /// access line does not say).
        certain: bool,
    },
}

/// Reads the `[talos]` apply and rollback lines and the gRPC access lines of ApplyConfiguration from a machined log.
pub fn try_in_log<'a>(lines: impl IntoIterator<Item = &'a str>) -> TryInLog {
    let mut state = TryInLog::Settled;
    // Whether the pending try's own access line has been seen (it follows its `apply config request` line).
    let mut own_access_seen = false;
    for line in lines {
        if let Some((ts, msg)) = timed(line, "[talos] ") {
            if let Some(mode) = msg.strip_prefix(APPLY_REQUEST) {
                state = match (mode, state) {
                    ("try", _) => TryInLog::Pending { applied_at: ts },
                    (_, TryInLog::Pending { applied_at }) => {
                        TryInLog::Cancelled { applied_at, request_at: ts, certain: true }
                    }
                    (_, TryInLog::Cancelled { applied_at, request_at, .. }) => {
                        TryInLog::Cancelled { applied_at, request_at, certain: true }
                    }
                    (_, TryInLog::Settled) => TryInLog::Settled,
                };
                own_access_seen = false;
            } else if msg == ROLLBACK || msg.starts_with(ROLLBACK_FAILED) {
                state = TryInLog::Settled;
            }
        } else if let Some((ts, msg)) = timed(line, "machined ") {
            if !is_apply_request_that_reached_the_handler(msg) {
                continue;
            }
            match state {
                TryInLog::Pending { .. } if !own_access_seen => own_access_seen = true,
                TryInLog::Pending { applied_at } => {
                    state = TryInLog::Cancelled { applied_at, request_at: ts, certain: false }
                }
                _ => {}
            }
        }
    }
    state
}

/// Seconds from each try-mode apply to the rollback that followed it (no other apply in between).
pub fn try_rollback_gaps<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<u64> {
    let mut gaps = Vec::new();
    let mut try_at = None;
    for line in lines {
        let Some((ts, msg)) = timed(line, "[talos] ") else { continue };
        if let Some(mode) = msg.strip_prefix(APPLY_REQUEST) {
            try_at = (mode == "try").then_some(ts);
        } else if msg == ROLLBACK
            && let Some(applied) = try_at.take()
        {
            gaps.push(ts.saturating_sub(applied));
        }
    }
    gaps
}

/// Whether the log still reaches back to a try-mode apply.
pub fn has_try_apply<'a>(lines: impl IntoIterator<Item = &'a str>) -> bool {
    lines
        .into_iter()
        .any(|l| timed(l, "[talos] ").is_some_and(|(_, msg)| msg.strip_prefix(APPLY_REQUEST) == Some("try")))
}

/// The time and the message of a Go std-log line with this prefix.
fn timed<'a>(line: &'a str, prefix: &str) -> Option<(u64, &'a str)> {
    let rest = line.strip_prefix(prefix)?;
    Some((parse_log_time(rest.get(..19)?)?, rest.get(20..)?))
}

/// `<Code> [/machine.MachineService/ApplyConfiguration] ...`, except the codes given before the handler runs
/// (authorization, a concurrent apply).
fn is_apply_request_that_reached_the_handler(access: &str) -> bool {
    let Some((code, rest)) = access.split_once(' ') else { return false };
    rest.starts_with("[/machine.MachineService/ApplyConfiguration] ")
        && !matches!(code, "PermissionDenied" | "Unauthenticated" | "FailedPrecondition")
}

/// `HH:MM:SS` of a Unix time (UTC).
pub fn clock(unix: u64) -> String {
    let s = unix % 86_400;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Unix seconds of a Go log timestamp `2026/08/25 10:15:42` (UTC).
pub fn parse_log_time(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() != 19 || b[4] != b'/' || b[7] != b'/' || b[10] != b' ' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let n = |r: std::ops::Range<usize>| text.get(r).and_then(|s| s.parse::<u64>().ok());
    let (y, mo, d, h, mi, s) = (n(0..4)?, n(5..7)?, n(8..10)?, n(11..13)?, n(14..16)?, n(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 || y < 1970 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if mo <= 2 { (y as i64 - 1, mo as i64 + 9) } else { (y as i64, mo as i64 - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + (h * 3600 + mi * 60 + s) as i64).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRY: &str = "[talos] 2026/08/25 10:15:42 apply config request: mode try";
    const OWN: &str =
        "machined 2026/08/25 10:15:42 OK [/machine.MachineService/ApplyConfiguration] 3ms unary Success (a=b)";
    const AT: u64 = 1_787_652_942;

    #[test]
    fn go_log_times() {
        assert_eq!(parse_log_time("1970/01/01 00:00:00"), Some(0));
        assert_eq!(parse_log_time("2026/08/25 10:15:42"), Some(AT));
        assert_eq!(parse_log_time("2026/13/25 10:15:42"), None);
        assert_eq!(parse_log_time("2026-08-25 10:15:42"), None);
        assert_eq!(clock(AT), "10:15:42");
    }

    #[test]
    fn a_try_is_pending_until_its_rollback() {
        assert_eq!(try_in_log([TRY, OWN]), TryInLog::Pending { applied_at: AT });
        let rollback = "[talos] 2026/08/25 10:16:12 rolling back the configuration";
        assert_eq!(try_in_log([TRY, OWN, rollback]), TryInLog::Settled);
        let other = "[talos] 2026/08/25 10:10:00 apply config request: mode no_reboot";
        assert_eq!(try_in_log([other, TRY, OWN]), TryInLog::Pending { applied_at: AT });
        assert_eq!(try_in_log([other]), TryInLog::Settled);
        assert_eq!(try_in_log([]), TryInLog::Settled);
    }

    #[test]
    fn a_later_accepted_apply_certainly_cancelled_the_rollback() {
        let confirm = "[talos] 2026/08/25 10:16:00 apply config request: mode no_reboot";
        let cancelled = TryInLog::Cancelled { applied_at: AT, request_at: AT + 18, certain: true };
        assert_eq!(try_in_log([TRY, OWN, confirm]), cancelled);
        let staged = "[talos] 2026/08/25 10:16:00 apply config request: mode staged";
        assert_eq!(try_in_log([TRY, OWN, staged]), cancelled);
    }

    #[test]
    fn a_later_request_that_applied_nothing_probably_cancelled_the_rollback() {
        let rejected = "machined 2026/08/25 10:15:50 InvalidArgument [/machine.MachineService/ApplyConfiguration] \
                        1ms unary rpc error: code = InvalidArgument desc = 1 error occurred: (a=b)";
        let dry_run =
            "machined 2026/08/25 10:15:51 OK [/machine.MachineService/ApplyConfiguration] 2ms unary Success (a=b)";
        let maybe = |at| TryInLog::Cancelled { applied_at: AT, request_at: at, certain: false };
        assert_eq!(try_in_log([TRY, OWN, rejected]), maybe(AT + 8));
        assert_eq!(try_in_log([TRY, OWN, dry_run, rejected]), maybe(AT + 9));
        // Refused before machined's handler: nothing was cancelled.
        let busy = "machined 2026/08/25 10:15:50 FailedPrecondition [/machine.MachineService/ApplyConfiguration] \
                    0s unary rpc error: code = FailedPrecondition desc = another apply configuration is already in \
                    progress (a=b)";
        let other_call = "machined 2026/08/25 10:15:50 OK [/machine.MachineService/Version] 1ms unary Success (a=b)";
        assert_eq!(try_in_log([TRY, OWN, busy, other_call]), TryInLog::Pending { applied_at: AT });
        // It was a refused try-mode request after all: the rollback came.
        let rollback = "[talos] 2026/08/25 10:16:12 rolling back the configuration";
        assert_eq!(try_in_log([TRY, OWN, rejected, rollback]), TryInLog::Settled);
        // An accepted apply makes it certain.
        let confirm = "[talos] 2026/08/25 10:16:00 apply config request: mode no_reboot";
        assert_eq!(
            try_in_log([TRY, OWN, rejected, confirm]),
            TryInLog::Cancelled { applied_at: AT, request_at: AT + 8, certain: true }
        );
    }

    #[test]
    fn try_rollback_gaps_pair_each_try_with_its_rollback() {
        let log = [
            TRY,
            OWN,
            "[talos] 2026/08/25 10:16:12 rolling back the configuration",
            "[talos] 2026/08/25 10:17:00 apply config request: mode try",
            "[talos] 2026/08/25 10:17:05 apply config request: mode no_reboot",
            "[talos] 2026/08/25 10:18:00 apply config request: mode try",
            "[talos] 2026/08/25 10:18:06 rolling back the configuration",
            "[talos] 2026/08/25 10:18:07 rolling back the configuration",
        ];
        assert_eq!(try_rollback_gaps(log), [30, 6]);
        assert_eq!(try_rollback_gaps([]), Vec::<u64>::new());
        assert!(has_try_apply(log));
        assert!(!has_try_apply(log[1..3].iter().copied()));
    }
}
