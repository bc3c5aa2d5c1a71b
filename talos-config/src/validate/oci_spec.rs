//! Base runtime spec overrides decoded as Talos decodes them: the value, written as JSON, into
//! the OCI runtime spec's `specs.Spec` with Go's `encoding/json`, which reports the first value
//! whose JSON type the field's Go type cannot take (unknown keys are ignored).

use std::collections::BTreeMap;

use super::oci_spec_fields::{STRINGS_1_2_1, STRINGS_1_3_0, STRUCTS_1_2_1, STRUCTS_1_3_0};
use crate::release::RuntimeSpec;
use crate::value::Any;

/// A runtime-spec version's types.
struct Types {
    structs: &'static [(&'static str, &'static [(&'static str, &'static str)])],
    strings: &'static [&'static str],
}

/// The types of the runtime-spec version a release pins (its rules row says which).
fn types(release: crate::Release) -> Types {
    match release.rules().runtime_spec {
        RuntimeSpec::V1_2_1 => Types { structs: STRUCTS_1_2_1, strings: STRINGS_1_2_1 },
        RuntimeSpec::V1_3_0 => Types { structs: STRUCTS_1_3_0, strings: STRINGS_1_3_0 },
    }
}

/// The first type error of `obj` decoded into `specs.Spec`, with the top-level key it is under.
///
/// The text is Go 1.25's and 1.26's `encoding/json` (what Talos v1.12 to v1.14 are built with):
/// the struct named is the innermost one holding the field, and the path is its JSON field
/// names from the top (no list indexes, no map keys; an embedded struct by its Go name).
pub(crate) fn first_error(obj: &BTreeMap<String, Any>, release: crate::Release) -> Option<(String, String)> {
    let types = types(release);
    obj.iter().find_map(|(key, value)| {
        let mut at = At { path: Vec::new(), holder: "Spec" };
        let (value_kind, go_type) = types.field(value, "Spec", key, &mut at)?;
        let text = format!(
            "failed to unmarshal base runtime spec overrides: json: cannot unmarshal {value_kind} into Go struct field \
             {}.{} of type {go_type}",
            at.holder,
            at.path.join(".")
        );
        Some((text, key.clone()))
    })
}

/// Where `encoding/json` is: the field path and the struct holding the last field.
struct At {
    path: Vec<&'static str>,
    holder: &'static str,
}

/// The JSON type of a value, as Go's error names it.
fn json_kind(value: &Any) -> &'static str {
    match value {
        Any::Null => "null",
        Any::Bool(_) => "bool",
        Any::Int(_) | Any::Float(_) => "number",
        Any::String(_) | Any::Time(_) => "string",
        Any::List(_) => "array",
        Any::Map(_) => "object",
    }
}

/// A number as `json.Marshal` writes it.
fn number_text(value: &Any) -> Option<String> {
    match value {
        Any::Int(text) => Some(text.clone()),
        Any::Float(f) => crate::json6902::json::go_json_float(*f),
        _ => None,
    }
}

/// Go's integer and float kinds: (name, signed or float, bits).
#[derive(Clone, Copy, PartialEq)]
enum Number {
    Int(u32),
    Uint(u32),
    Float(u32),
}

fn number_kind(go: &str) -> Option<Number> {
    Some(match go {
        "int" | "int64" => Number::Int(64),
        "int32" => Number::Int(32),
        "int16" => Number::Int(16),
        "int8" => Number::Int(8),
        "uint" | "uint64" => Number::Uint(64),
        "uint32" | "os.FileMode" => Number::Uint(32),
        "uint16" => Number::Uint(16),
        "uint8" => Number::Uint(8),
        "float64" => Number::Float(64),
        "float32" => Number::Float(32),
        _ => return None,
    })
}

/// Whether `encoding/json` stores the number `text` into a Go number of `kind`
/// (`strconv.ParseInt`/`ParseUint`/`ParseFloat`, then the overflow check).
fn number_fits(text: &str, kind: Number) -> bool {
    match kind {
        Number::Int(bits) => text.parse::<i64>().is_ok_and(|n| {
            let shift = 64 - bits;
            (n << shift) >> shift == n
        }),
        Number::Uint(bits) => text.parse::<u64>().is_ok_and(|n| bits == 64 || n >> bits == 0),
        Number::Float(bits) => {
            text.parse::<f64>().is_ok_and(|f| f.is_finite() && (bits == 64 || f.abs() <= f32::MAX as f64))
        }
    }
}

impl Types {
    fn fields(&self, name: &str) -> Option<&'static [(&'static str, &'static str)]> {
        self.structs.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// A struct's fields with the embedded structs' fields promoted: (the embedded structs'
    /// names, JSON name, Go type).
    fn all_fields(&self, name: &str) -> Vec<(Vec<&'static str>, &'static str, &'static str)> {
        let mut out = Vec::new();
        for &(key, ty) in self.fields(name).unwrap_or(&[]) {
            if key.is_empty() {
                for (mut embedded, k, t) in self.all_fields(ty) {
                    embedded.insert(0, ty);
                    out.push((embedded, k, t));
                }
            } else {
                out.push((Vec::new(), key, ty));
            }
        }
        out
    }

    /// The field `key` selects in struct `name`: its name exactly, else ignoring case (as
    /// `encoding/json`), with the embedded structs it is promoted from.
    fn find(&self, name: &str, key: &str) -> Option<(Vec<&'static str>, &'static str, &'static str)> {
        let fields = self.all_fields(name);
        let exact = fields.iter().find(|(_, k, _)| *k == key);
        exact.or_else(|| fields.iter().find(|(_, k, _)| k.eq_ignore_ascii_case(key))).cloned()
    }

    /// Decodes `value` into the field `key` of struct `holder`, if it has one.
    fn field(&self, value: &Any, holder: &'static str, key: &str, at: &mut At) -> Option<(String, String)> {
        let (embedded, name, go) = self.find(holder, key)?;
        let (depth, outer) = (at.path.len(), at.holder);
        at.path.extend(embedded);
        at.path.push(name);
        at.holder = holder;
        let found = self.decode(value, go, at);
        if found.is_none() {
            at.path.truncate(depth);
            at.holder = outer;
        }
        found
    }

    /// A Go type as `reflect.Type.String()` prints it.
    fn display(&self, go: &str) -> String {
        if let Some(elem) = go.strip_prefix('*') {
            return format!("*{}", self.display(elem));
        }
        if let Some(elem) = go.strip_prefix("[]") {
            return format!("[]{}", self.display(elem));
        }
        if let Some(elem) = go.strip_prefix("map[string]") {
            return format!("map[string]{}", self.display(elem));
        }
        match go {
            "os.FileMode" => "fs.FileMode".to_string(),
            _ if self.strings.contains(&go) || self.fields(go).is_some() => format!("specs.{go}"),
            _ => go.to_string(),
        }
    }

    /// Decodes `value` into Go type `go`; the first type error: (the value as Go names it, the
    /// Go type), with `at` where it is.
    fn decode(&self, value: &Any, go: &str, at: &mut At) -> Option<(String, String)> {
        talos_yaml::node::deep(|| self.decode_deep(value, go, at))
    }

    fn decode_deep(&self, value: &Any, go: &str, at: &mut At) -> Option<(String, String)> {
        // A pointer is followed; `null` leaves any value at its zero.
        let go = go.trim_start_matches('*');
        if matches!(value, Any::Null) || go == "interface{}" {
            return None;
        }
        let refused = || Some((json_kind(value).to_string(), self.display(go)));
        if let Some(elem) = go.strip_prefix("[]") {
            let Any::List(items) = value else { return refused() };
            return items.iter().find_map(|item| self.decode(item, elem, at));
        }
        if let Some(elem) = go.strip_prefix("map[string]") {
            let Any::Map(entries) = value else { return refused() };
            return entries.values().find_map(|v| self.decode(v, elem, at));
        }
        if let Some(kind) = number_kind(go) {
            return match number_text(value) {
                Some(text) if number_fits(&text, kind) => None,
                Some(text) => Some((format!("number {text}"), self.display(go))),
                None => refused(),
            };
        }
        let is_text = matches!(value, Any::String(_) | Any::Time(_));
        match go {
            "bool" => (!matches!(value, Any::Bool(_))).then(refused).flatten(),
            _ if go == "string" || self.strings.contains(&go) => (!is_text).then(refused).flatten(),
            _ => {
                // Any other name is a type this table does not hold: nothing to check.
                let holder = self.structs.iter().map(|(n, _)| *n).find(|n| *n == go)?;
                let Any::Map(entries) = value else { return refused() };
                entries.iter().find_map(|(k, v)| self.field(v, holder, k, at))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_fit_as_go_parses_them() {
        assert!(number_fits("4294967295", Number::Uint(32)));
        assert!(!number_fits("4294967296", Number::Uint(32)));
        assert!(!number_fits("-1", Number::Uint(64)));
        assert!(!number_fits("1.5", Number::Int(64)));
        assert!(number_fits("-128", Number::Int(8)));
        assert!(!number_fits("128", Number::Int(8)));
        assert!(number_fits("1e+300", Number::Float(64)));
        assert!(!number_fits("1e+300", Number::Float(32)));
    }
}
