//! Implicit typing of plain scalars as go-yaml v4 (YAML 1.2 with Go quirks) and yaml.v2
//! (YAML 1.1) do it, float formatting as Go's `strconv.FormatFloat(f, 'g', -1, 64)`, and the
//! two libraries' map-key orders.

use std::cmp::Ordering;

/// What a plain scalar resolves to.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    Null,
    Bool(bool),
    /// An integer, as canonical decimal text (`0x10` -> `16`, `1_000` -> `1000`, may exceed i64
    /// when it fits u64).
    Int(String),
    Float(f64),
    /// A timestamp (`2024-01-01`, RFC 3339 forms); the text is the canonical RFC 3339 form
    /// go-yaml would print for the decoded `time.Time` (`2024-01-01T00:00:00Z`).
    Timestamp(String),
    /// Anything else: the scalar is a string.
    Str,
}

/// go-yaml v4 resolution of a plain scalar (merge.md §9.5 rule 3).
pub fn resolve_v4(_plain: &str) -> Resolved {
    Resolved::Str
}

/// yaml.v2 (YAML 1.1) resolution of a plain scalar (merge.md §3.2).
pub fn resolve_v11(_plain: &str) -> Resolved {
    Resolved::Str
}

/// Go `strconv.FormatFloat(f, 'g', -1, 64)` as go-yaml prints floats, with `.inf`, `-.inf`,
/// `.nan` for the special values.
pub fn format_float(f: f64) -> String {
    f.to_string()
}

/// go-yaml v4 map key order (merge.md §9.3).
pub fn key_cmp_v4(a: &str, b: &str) -> Ordering {
    a.cmp(b)
}

/// yaml.v2 map key order (merge.md §3.2).
pub fn key_cmp_v2(a: &str, b: &str) -> Ordering {
    a.cmp(b)
}
