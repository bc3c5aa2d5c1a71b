//! Small helpers: UTC calendar fields, Go's log timestamp and duration formats.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Calendar fields of a UTC instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utc {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub micros: u32,
}

impl From<SystemTime> for Utc {
    fn from(t: SystemTime) -> Utc {
        let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
        let secs = d.as_secs() as i64;
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (year, month, day) = talos_go::time::civil_from_days(days);
        Utc {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
            micros: d.subsec_micros(),
        }
    }
}

/// Go's std logger date and time (`2006/01/02 15:04:05`), in UTC.
pub fn go_log_time(t: SystemTime) -> String {
    let u = Utc::from(t);
    format!("{:04}/{:02}/{:02} {:02}:{:02}:{:02}", u.year, u.month, u.day, u.hour, u.minute, u.second)
}

/// Go's `time.Duration.String()` (`1m0s`, `1.5s`, `500ms`): the model's Go duration does it.
pub fn go_duration(d: Duration) -> String {
    talos_config::model::Duration::from(d).to_string()
}

/// RFC 3339 in UTC with whole seconds (`2026-12-02T17:25:49Z`), as Kubernetes writes times.
pub fn rfc3339(t: SystemTime) -> String {
    let u = Utc::from(t);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", u.year, u.month, u.day, u.hour, u.minute, u.second)
}

/// RFC 3339 in UTC with nanoseconds (`2026-12-02T17:25:49.123456789Z`), as Docker's `State.StartedAt`.
pub fn rfc3339_nanos(t: SystemTime) -> String {
    let u = Utc::from(t);
    let nanos = t.duration_since(UNIX_EPOCH).unwrap_or_default().subsec_nanos();
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{nanos:09}Z", u.year, u.month, u.day, u.hour, u.minute, u.second)
}

/// 64 bits derived from `parts` with SipHash under fixed keys: stable for the same input.
pub fn stable_hash(parts: &[&str]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    parts.hash(&mut h);
    h.finish()
}

/// 64 bits that differ between processes and between calls (std's randomly keyed hasher).
pub fn random_u64(salt: &str) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    salt.hash(&mut h);
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_nanos().hash(&mut h);
    h.finish()
}

/// A UUID-shaped (version 4 layout) string from two 64-bit values.
pub fn uuid_from(a: u64, b: u64) -> String {
    let a = (a & !0xf000) | 0x4000;
    let b = (b & !(0xc << 60)) | (0x8 << 60);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

/// A protobuf timestamp.
pub fn timestamp(t: SystemTime) -> Option<prost_types::Timestamp> {
    let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    Some(prost_types::Timestamp { seconds: d.as_secs() as i64, nanos: d.subsec_nanos() as i32 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(go_duration(Duration::from_secs(60)), "1m0s");
        assert_eq!(go_duration(Duration::from_secs(30)), "30s");
        assert_eq!(go_duration(Duration::from_millis(1500)), "1.5s");
        assert_eq!(go_duration(Duration::from_millis(500)), "500ms");
        assert_eq!(go_duration(Duration::from_secs(3601)), "1h0m1s");
    }

    #[test]
    fn times() {
        let t = UNIX_EPOCH + Duration::from_secs(1_787_653_207);
        assert_eq!(go_log_time(t), "2026/08/25 10:20:07");
    }
}
