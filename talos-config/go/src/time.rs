//! Go's `time.Duration` text: `time.ParseDuration` and `Duration.String`, in Go's integer
//! arithmetic, so that a duration reads and prints exactly as in a Go program.

/// Go's `time.ParseDuration`, in Go's integer arithmetic: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`,
/// whole parts as `uint64` with overflow checks, fractions through `leadingFraction` (extra
/// digits beyond `uint64` precision are dropped) and truncated to whole nanoseconds, the total
/// bounded by `1<<63` (reachable only with a `-` sign). `None` where Go returns an error.
pub fn parse_duration(s: &str) -> Option<i64> {
    let mut b = s.as_bytes();
    let mut neg = false;
    if let Some(&c) = b.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        b = &b[1..];
    }
    if b == b"0" {
        return Some(0);
    }
    if b.is_empty() {
        return None;
    }
    let mut d: u64 = 0;
    while !b.is_empty() {
        let (v, rest) = duration_component(b)?;
        b = rest;
        d += v;
        if d > BOUND {
            return None;
        }
    }
    if neg {
        // -Duration(d): 1<<63 wraps to the minimum.
        return Some((d as i64).wrapping_neg());
    }
    i64::try_from(d).ok()
}

/// The bound of a duration's magnitude in Go's `ParseDuration`: `1<<63`.
const BOUND: u64 = 1 << 63;

/// One `[0-9]*(\.[0-9]*)?[a-z]+` component of a duration: its nanoseconds and the rest of the
/// text, or `None` where Go returns an error.
fn duration_component(b: &[u8]) -> Option<(u64, &[u8])> {
    // The next character must be [0-9.].
    if !(b[0] == b'.' || b[0].is_ascii_digit()) {
        return None;
    }
    let (mut v, i) = leading_int(b)?;
    let pre = i > 0;
    let mut b = &b[i..];
    // (\.[0-9]*)?
    let (f, scale, post) = match b.strip_prefix(b".") {
        Some(after_dot) => {
            let (f, scale, digits) = leading_fraction(after_dot);
            b = &after_dot[digits..];
            (f, scale, digits > 0)
        }
        None => (0, 1.0, false),
    };
    if !pre && !post {
        return None;
    }
    // The unit: everything up to the next [0-9.].
    let end = b.iter().position(|&c| c == b'.' || c.is_ascii_digit()).unwrap_or(b.len());
    if end == 0 {
        return None;
    }
    let unit = unit_nanos(&b[..end])?;
    if v > BOUND / unit {
        return None;
    }
    v *= unit;
    if f > 0 {
        // Go: v += uint64(float64(f) * (float64(unit) / scale)), truncating.
        v += (f as f64 * (unit as f64 / scale)) as u64;
        if v > BOUND {
            return None;
        }
    }
    Some((v, &b[end..]))
}

/// Go's `leadingInt`: the value of the leading `[0-9]*` and how many digits it took; overflow
/// is an error.
fn leading_int(b: &[u8]) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        if v > BOUND / 10 {
            return None;
        }
        v = v * 10 + u64::from(b[i] - b'0');
        if v > BOUND {
            return None;
        }
        i += 1;
    }
    Some((v, i))
}

/// Go's `leadingFraction`: the leading `[0-9]*` after a `.` as a value, its scale (`10` to the
/// digits kept) and how many digits it took; it stops accumulating precision on overflow.
fn leading_fraction(b: &[u8]) -> (u64, f64, usize) {
    let (mut f, mut scale) = (0u64, 1f64);
    let mut i = 0;
    let mut overflow = false;
    while i < b.len() && b[i].is_ascii_digit() {
        if !overflow {
            if f > (BOUND - 1) / 10 {
                overflow = true;
            } else {
                let y = f * 10 + u64::from(b[i] - b'0');
                if y > BOUND {
                    overflow = true;
                } else {
                    f = y;
                    scale *= 10.0;
                }
            }
        }
        i += 1;
    }
    (f, scale, i)
}

/// The nanoseconds in one of Go's duration units, `None` for an unknown unit.
fn unit_nanos(unit: &[u8]) -> Option<u64> {
    Some(match unit {
        b"ns" => 1,
        // `µs` (U+00B5 micro sign) and `μs` (U+03BC Greek mu).
        b"us" | [0xc2, 0xb5, b's'] | [0xce, 0xbc, b's'] => 1_000,
        b"ms" => 1_000_000,
        b"s" => 1_000_000_000,
        b"m" => 60_000_000_000,
        b"h" => 3_600_000_000_000,
        _ => return None,
    })
}

/// Go's `time.Duration.String`.
pub fn format_duration(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let neg = nanos < 0;
    let u = nanos.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        // Sub-second: a single unit with a fraction.
        let (unit, scale) = if u < 1_000 {
            ("ns", 1)
        } else if u < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        out.push_str(&fraction(u, scale));
        out.push_str(unit);
    } else {
        let hours = u / 3_600_000_000_000;
        let minutes = (u / 60_000_000_000) % 60;
        let secs = u % 60_000_000_000;
        if hours > 0 {
            out.push_str(&format!("{hours}h"));
        }
        if hours > 0 || minutes > 0 {
            out.push_str(&format!("{minutes}m"));
        }
        out.push_str(&fraction(secs, 1_000_000_000));
        out.push('s');
    }
    if neg { format!("-{out}") } else { out }
}

/// `value / scale` with the fraction's trailing zeros removed.
fn fraction(value: u64, scale: u64) -> String {
    let whole = value / scale;
    let frac = value % scale;
    if frac == 0 {
        return whole.to_string();
    }
    let width = scale.ilog10() as usize;
    let digits = format!("{frac:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// The proleptic Gregorian date (year, month 1-12, day 1-31) of a count of days since
/// 1970-01-01 (Howard Hinnant's `civil_from_days`), as Go's `time` computes it.
///
/// ```
/// assert_eq!(talos_go::time::civil_from_days(0), (1970, 1, 1));
/// assert_eq!(talos_go::time::civil_from_days(20_791), (2026, 12, 4));
/// assert_eq!(talos_go::time::civil_from_days(-1), (1969, 12, 31));
/// ```
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_like_go() {
        let cases = [
            (0, "0s"),
            (1, "1ns"),
            (1_500, "1.5µs"),
            (2_000_000, "2ms"),
            (1_000_000_000, "1s"),
            (60_000_000_000, "1m0s"),
            (90_000_000_000, "1m30s"),
            (3_600_000_000_000, "1h0m0s"),
            (87600 * 3_600_000_000_000, "87600h0m0s"),
            (-30_000_000_000, "-30s"),
            (1_250_000_000, "1.25s"),
        ];
        for (nanos, text) in cases {
            assert_eq!(format_duration(nanos), text);
        }
    }

    #[test]
    fn durations_parse_like_go() {
        assert_eq!(parse_duration("1m0s"), Some(60_000_000_000));
        assert_eq!(parse_duration("1h30m"), Some(5_400_000_000_000));
        assert_eq!(parse_duration("300ms"), Some(300_000_000));
        assert_eq!(parse_duration("-1.5h"), Some(-5_400_000_000_000));
        assert_eq!(parse_duration("0"), Some(0));
        assert_eq!(parse_duration("10"), None);
        assert_eq!(parse_duration(""), None);
        assert_eq!(parse_duration("1x"), None);
    }

    #[test]
    fn durations_parse_and_print_exactly_like_go() {
        // (input, nanoseconds, Go's Duration.String), or None where ParseDuration fails.
        let cases: [(&str, Option<(i64, &str)>); 30] = [
            ("0", Some((0, "0s"))),
            ("+0", Some((0, "0s"))),
            ("-0", Some((0, "0s"))),
            ("0s", Some((0, "0s"))),
            ("1m0s", Some((60_000_000_000, "1m0s"))),
            ("1h30m", Some((5_400_000_000_000, "1h30m0s"))),
            ("300ms", Some((300_000_000, "300ms"))),
            ("-1.5h", Some((-5_400_000_000_000, "-1h30m0s"))),
            ("1.5µs", Some((1_500, "1.5µs"))),
            ("1.5μs", Some((1_500, "1.5µs"))),
            ("2us", Some((2_000, "2µs"))),
            (".5s", Some((500_000_000, "500ms"))),
            ("5.s", Some((5_000_000_000, "5s"))),
            ("1h1.5m", Some((3_690_000_000_000, "1h1m30s"))),
            ("0.9999999999s", Some((999_999_999, "999.999999ms"))),
            ("9007199254740993ns", Some((9_007_199_254_740_993, "2501h59m59.254740993s"))),
            ("9223372036854775807ns", Some((i64::MAX, "2562047h47m16.854775807s"))),
            ("-9223372036854775808ns", Some((i64::MIN, "-2562047h47m16.854775808s"))),
            ("0.100000000000000000000h", Some((360_000_000_000, "6m0s"))),
            ("0.1234567890123456789012345678901234567890ns", Some((0, "0s"))),
            ("9223372036854775808ns", None),
            ("9223372036854775807ns1ns", None),
            ("2562048h", None),
            ("10", None),
            ("", None),
            ("-", None),
            (".s", None),
            ("1x", None),
            ("3.4.5s", None),
            ("1sm", None),
        ];
        for (text, want) in cases {
            let got = parse_duration(text);
            assert_eq!(got, want.map(|(n, _)| n), "{text}");
            if let Some((n, printed)) = want {
                assert_eq!(format_duration(n), printed, "{text}");
            }
        }
    }
}
