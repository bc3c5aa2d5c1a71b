//! Bounded waits with a progress line a person can follow: what is awaited, elapsed/limit, and on timeout an error
//! naming the step and what was last observed.

use std::time::{Duration, Instant};

use super::LabError;
use crate::i18n::tr;

/// What a probe saw.
pub enum Poll<T> {
    /// The condition holds.
    Ready(T),
    /// Not yet: what was observed instead (shown on timeout).
    Pending(String),
    /// It can no longer come true: stop waiting with this error.
    Failed(LabError),
}

/// How often a still-waiting line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// A duration for people: Go's text for whole seconds (`30s`, `1m30s`), tenths otherwise (`2.4s`).
pub fn human(d: Duration) -> String {
    if d.subsec_nanos() == 0 { super::go_duration(d) } else { format!("{:.1}s", d.as_secs_f64()) }
}

/// Polls `probe` every `every` until it is ready or `limit` has passed. Progress goes to stderr:
/// `step 6: waiting for <what> (limit 1m0s)`, then `step 6: still waiting for <what> (5.0s/1m0s): <observed>` every
/// five seconds. A probe error counts as "not yet" (it is shown as what was last seen).
pub async fn until<T>(
    step: u8,
    what: &str,
    limit: Duration,
    every: Duration,
    mut probe: impl AsyncFnMut() -> Result<Poll<T>, LabError>,
) -> Result<T, LabError> {
    let start = Instant::now();
    let mut last_progress = start;
    let mut announced = false;
    loop {
        let observed = match probe().await {
            Ok(Poll::Ready(v)) => {
                if announced {
                    eprintln!("{}", tr!("wait-done", step = step, what = what, elapsed = human(start.elapsed())));
                }
                return Ok(v);
            }
            Ok(Poll::Pending(observed)) => observed,
            Ok(Poll::Failed(e)) => return Err(e),
            // A failed read (an API server restarting, a reset connection) is "not yet": retried until the limit.
            Err(e) => tr!("wait-error", message = e.message.as_str()),
        };
        if !announced {
            eprintln!("{}", tr!("wait-waiting", step = step, what = what, limit = human(limit)));
            announced = true;
        }
        let elapsed = start.elapsed();
        if elapsed >= limit {
            return Err(LabError::new(tr!(
                "wait-timed-out",
                step = step,
                what = what,
                limit = human(limit),
                observed = observed
            )));
        }
        if last_progress.elapsed() >= PROGRESS_EVERY {
            last_progress = Instant::now();
            let (elapsed, limit) = (human(round(elapsed)), human(limit));
            eprintln!(
                "{}",
                tr!(
                    "wait-still",
                    step = step,
                    what = what,
                    elapsed = elapsed,
                    limit = limit,
                    observed = observed.as_str()
                )
            );
        }
        tokio::time::sleep(every.min(limit - elapsed)).await;
    }
}

fn round(d: Duration) -> Duration {
    Duration::from_millis(d.as_millis() as u64 / 100 * 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations() {
        assert_eq!(human(Duration::from_secs(30)), "30s");
        assert_eq!(human(Duration::from_secs(90)), "1m30s");
        assert_eq!(human(Duration::from_millis(2400)), "2.4s");
    }

    #[tokio::test]
    async fn ready_after_some_polls() {
        let mut n = 0;
        let got = until(6, "a thing", Duration::from_secs(5), Duration::from_millis(1), async || {
            n += 1;
            Ok(if n == 3 { Poll::Ready(n) } else { Poll::Pending(format!("n={n}")) })
        })
        .await;
        assert_eq!(got, Ok(3));
    }

    #[tokio::test]
    async fn a_failed_read_is_retried() {
        let mut n = 0;
        let got = until(6, "a thing", Duration::from_secs(5), Duration::from_millis(1), async || {
            n += 1;
            if n == 1 { Err(LabError::new("connection reset")) } else { Ok(Poll::Ready(n)) }
        })
        .await;
        assert_eq!(got, Ok(2));
        let got: Result<(), LabError> =
            until(6, "a thing", Duration::from_millis(20), Duration::from_millis(5), async || {
                Err(LabError::new("connection refused"))
            })
            .await;
        assert_eq!(
            got.map_err(|e| e.message),
            Err("step 6: timed out after 0.0s waiting for a thing; last seen: error: connection refused".into())
        );
    }

    #[tokio::test]
    async fn times_out_naming_the_step_and_the_last_observation() {
        let got: Result<(), LabError> =
            until(8, "the kubelet to be healthy", Duration::from_millis(30), Duration::from_millis(5), async || {
                Ok(Poll::Pending("Waiting/Fail".into()))
            })
            .await;
        assert_eq!(
            got.map_err(|e| e.message),
            Err("step 8: timed out after 0.0s waiting for the kubelet to be healthy; last seen: Waiting/Fail".into())
        );
    }
}
