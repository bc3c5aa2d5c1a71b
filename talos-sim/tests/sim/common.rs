//! Helpers shared by the simulator's integration tests.

use std::time::{Duration, Instant};

/// Polls `f` every 50 ms until it returns `Some`, for at most `limit`.
pub async fn eventually<T, F, Fut>(limit: Duration, mut f: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = f().await {
            return Some(v);
        }
        if start.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
