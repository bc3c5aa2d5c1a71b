//! `talos_config::labels`: the upstream `pkg/machinery/labels/validate_test.go` table (docs/validation.md §11.4),
//! the harness-verified worked examples (docs/validation.md §5.6), edge cases, and a property test against an
//! independent implementation of the Kubernetes rules.

use std::collections::BTreeMap;

use proptest::prelude::*;
use talos_config::labels::{
    LabelError, validate_annotations, validate_dns1123_subdomain, validate_label_value, validate_labels,
    validate_qualified_name, validate_taints,
};
use talos_config::testing::Issue;
use talos_config::testing::render_list;

fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
    entries.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The inner go-multierror text Talos prints for these errors (`ErrorOrNil`: none → `None`).
fn rendered(errors: &[LabelError]) -> Option<String> {
    if errors.is_empty() {
        return None;
    }
    let issues: Vec<Issue> = errors.iter().map(|e| Issue::new(e.message.clone(), None)).collect();
    Some(render_list(&issues))
}

fn messages(errors: &[LabelError]) -> Vec<&str> {
    errors.iter().map(|e| e.message.as_str()).collect()
}

fn keys(errors: &[LabelError]) -> Vec<&str> {
    errors.iter().map(|e| e.key.as_str()).collect()
}

// ---------------------------------------------------------------------------------------------
// §11.4 TestValidate

#[test]
fn upstream_validate_empty() {
    assert_eq!(validate_labels(&BTreeMap::new()), []);
}

#[test]
fn upstream_validate_valid() {
    let labels = map(&[("talos.dev/label", "value"), ("foo", "bar"), ("kubernetes.io/hostname", "hostname1")]);
    assert_eq!(validate_labels(&labels), []);
}

#[test]
fn upstream_validate_invalid() {
    let a64 = "a".repeat(64);
    let labels = map(&[
        ("345@.345/label", "value"),
        ("foo_", "bar"),
        ("/foo", "bar"),
        ("a/b/c", "bar"),
        ("kubernetes.io/hostname", "hostname1_"),
        (&a64, "bar"),
        ("bar", &a64),
    ]);
    let errors = validate_labels(&labels);
    let expected = format!(
        "7 errors occurred:\n\
         \t* prefix cannot be empty: \"/foo\"\n\
         \t* prefix \"345@.345\" is invalid: domain doesn't match required format: \"345@.345\"\n\
         \t* invalid format: too many slashes: \"a/b/c\"\n\
         \t* name is too long: \"{a64}\" (limit is 63)\n\
         \t* label value length exceeds limit of 63: \"{a64}\"\n\
         \t* name \"foo_\" is invalid\n\
         \t* label value \"hostname1_\" is invalid\n\n"
    );
    assert_eq!(rendered(&errors).as_deref(), Some(expected.as_str()));
    assert_eq!(
        keys(&errors),
        ["/foo", "345@.345/label", "a/b/c", a64.as_str(), "bar", "foo_", "kubernetes.io/hostname"]
    );
}

// ---------------------------------------------------------------------------------------------
// §11.4 TestValidateAnnotations

#[test]
fn upstream_annotations_empty() {
    assert_eq!(validate_annotations(&BTreeMap::new()), []);
}

#[test]
fn upstream_annotations_valid() {
    let annotations = map(&[
        ("talos.dev/foo", "bar:baz"),
        (
            "image.sha",
            "sha256:4e6d2b5f0f0a1a6b3b1c3c8e2a7e9f1d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7",
        ),
    ]);
    assert_eq!(validate_annotations(&annotations), []);
}

#[test]
fn upstream_annotations_invalid() {
    let annotations = map(&[
        ("foo_", "bar"),
        ("/foo", "bar"),
        ("a/b/c", "bar"),
        ("kubernetes.io/hostname", "hostname1_"),
        ("talos.dev/owned-annotations", "a"),
    ]);
    let errors = validate_annotations(&annotations);
    assert_eq!(
        rendered(&errors).as_deref(),
        Some(
            "4 errors occurred:\n\
             \t* prefix cannot be empty: \"/foo\"\n\
             \t* invalid format: too many slashes: \"a/b/c\"\n\
             \t* name \"foo_\" is invalid\n\
             \t* annotation \"talos.dev/owned-annotations\" is reserved\n\n"
        )
    );
    assert_eq!(keys(&errors), ["/foo", "a/b/c", "foo_", "talos.dev/owned-annotations"]);
}

// ---------------------------------------------------------------------------------------------
// §11.4 TestValidateTaints

#[test]
fn upstream_taints_empty() {
    assert_eq!(validate_taints(&BTreeMap::new()), []);
}

#[test]
fn upstream_taints_valid() {
    assert_eq!(validate_taints(&map(&[("foor", "bar:NoExecute"), ("doo", "NoExecute")])), []);
}

#[test]
fn upstream_taints_invalid() {
    let a64 = "a".repeat(64);
    let taints = map(&[
        (&a64, "bar"),
        ("bar", &a64),
        ("foo", "bar:NoExecute:NoSchedule"),
        ("loo", "bar:"),
        ("zoo", "bar:NoExocute"),
        ("koo", "key"),
    ]);
    let errors = validate_taints(&taints);
    let expected = format!(
        "6 errors occurred:\n\
         \t* name is too long: \"{a64}\" (limit is 63)\n\
         \t* invalid taint effect: \"{a64}\"\n\
         \t* invalid taint effect: \"NoExecute:NoSchedule\"\n\
         \t* invalid taint effect: \"key\"\n\
         \t* invalid taint effect: \"\"\n\
         \t* invalid taint effect: \"NoExocute\"\n\n"
    );
    assert_eq!(rendered(&errors).as_deref(), Some(expected.as_str()));
    assert_eq!(keys(&errors), [a64.as_str(), "bar", "foo", "koo", "loo", "zoo"]);
}

// ---------------------------------------------------------------------------------------------
// §5.6 worked examples (harness-verified)

#[test]
fn worked_team_name() {
    let errors = validate_labels(&map(&[("lab.talos.dev/team name", "platform")]));
    assert_eq!(rendered(&errors).as_deref(), Some("1 error occurred:\n\t* name \"team name\" is invalid\n\n"));
    assert_eq!(
        errors,
        [LabelError { key: "lab.talos.dev/team name".into(), message: "name \"team name\" is invalid".into() }]
    );
}

#[test]
fn worked_team_name_and_value() {
    let errors = validate_labels(&map(&[("lab.talos.dev/team name", "platform"), ("ok", "x y")]));
    assert_eq!(
        rendered(&errors).as_deref(),
        Some("2 errors occurred:\n\t* name \"team name\" is invalid\n\t* label value \"x y\" is invalid\n\n")
    );
}

#[test]
fn worked_uppercase_prefix() {
    let errors = validate_labels(&map(&[("Lab.Talos.dev/x", "a")]));
    assert_eq!(
        rendered(&errors).as_deref(),
        Some(
            "1 error occurred:\n\t* prefix \"Lab.Talos.dev\" is invalid: domain doesn't match required format: \"Lab.Talos.dev\"\n\n"
        )
    );
}

#[test]
fn worked_empty_name() {
    let errors = validate_labels(&map(&[("talos.dev/", "a")]));
    assert_eq!(rendered(&errors).as_deref(), Some("1 error occurred:\n\t* name cannot be empty: \"talos.dev/\"\n\n"));
}

#[test]
fn worked_name_too_long() {
    let key = format!("a.b/{}", "n".repeat(64));
    let errors = validate_labels(&map(&[(&key, "v")]));
    assert_eq!(
        rendered(&errors),
        Some(format!("1 error occurred:\n\t* name is too long: \"a.b/{}\" (limit is 63)\n\n", "n".repeat(64)))
    );
}

#[test]
fn worked_prefix_too_long() {
    let prefix = "p".repeat(254);
    let errors = validate_labels(&map(&[(&format!("{prefix}/x"), "v")]));
    assert_eq!(
        rendered(&errors),
        Some(format!(
            "1 error occurred:\n\t* prefix \"{prefix}\" is invalid: domain name length exceeds limit of 253: \"{prefix}\"\n\n"
        ))
    );
}

#[test]
fn worked_five_errors() {
    let errors = validate_labels(&map(&[("-abc", ""), ("abc-", "-v"), ("a_b.c", "v_"), ("x", ""), ("team name", "x")]));
    assert_eq!(
        rendered(&errors).as_deref(),
        Some(
            "5 errors occurred:\n\
             \t* name \"-abc\" is invalid\n\
             \t* label value \"v_\" is invalid\n\
             \t* name \"abc-\" is invalid\n\
             \t* label value \"-v\" is invalid\n\
             \t* name \"team name\" is invalid\n\n"
        )
    );
    assert_eq!(keys(&errors), ["-abc", "a_b.c", "abc-", "abc-", "team name"]);
}

#[test]
fn worked_reserved_prefix_accepted_value_rejected() {
    let errors = validate_labels(&map(&[("kubernetes.io/role", "a b")]));
    assert_eq!(rendered(&errors).as_deref(), Some("1 error occurred:\n\t* label value \"a b\" is invalid\n\n"));
}

#[test]
fn worked_annotations() {
    let errors = validate_annotations(&map(&[("talos.dev/owned-labels", "x"), ("a b", "anything")]));
    assert_eq!(
        rendered(&errors).as_deref(),
        Some(
            "2 errors occurred:\n\t* name \"a b\" is invalid\n\t* annotation \"talos.dev/owned-labels\" is reserved\n\n"
        )
    );
}

#[test]
fn worked_taints() {
    let errors = validate_taints(&map(&[
        ("t1", "NoSchedule"),
        ("t2", "v:NoExecute"),
        ("t3", "value"),
        ("bad key", "x"),
        ("t4", "a b:NoSchedule"),
    ]));
    assert_eq!(
        rendered(&errors).as_deref(),
        Some(
            "3 errors occurred:\n\t* name \"bad key\" is invalid\n\t* invalid taint effect: \"value\"\n\t* label value \"a b\" is invalid\n\n"
        )
    );
    assert_eq!(keys(&errors), ["bad key", "t3", "t4"]);
}

// ---------------------------------------------------------------------------------------------
// Edge cases beyond the tables

#[test]
fn reserved_label_prefixes_are_accepted() {
    let labels = map(&[
        ("kubernetes.io/hostname", "n1"),
        ("node-role.kubernetes.io/control-plane", ""),
        ("talos.dev/x", "y"),
        ("extensions.talos.dev/gvisor", "1.0.0"),
    ]);
    assert_eq!(validate_labels(&labels), []);
}

#[test]
fn yaml_scalars_as_values() {
    // YAML null / 1 / true decode to "", "1", "true": all valid values.
    assert_eq!(validate_labels(&map(&[("a", ""), ("b", "1"), ("c", "true")])), []);
}

#[test]
fn key_and_value_errors_for_one_key() {
    let errors = validate_labels(&map(&[("a b", "c d")]));
    assert_eq!(messages(&errors), ["name \"a b\" is invalid", "label value \"c d\" is invalid"]);
    assert_eq!(keys(&errors), ["a b", "a b"]);
}

#[test]
fn qualified_name_boundaries() {
    assert_eq!(validate_qualified_name(&"a".repeat(63)), Ok(()));
    assert_eq!(validate_qualified_name(&format!("{}/{}", "p".repeat(253), "a".repeat(63))), Ok(()));
    assert_eq!(validate_qualified_name(""), Err("name cannot be empty: \"\"".into()));
    assert_eq!(validate_qualified_name("/"), Err("prefix cannot be empty: \"/\"".into()));
    assert_eq!(validate_qualified_name("//"), Err("invalid format: too many slashes: \"//\"".into()));
    assert_eq!(validate_qualified_name("a"), Ok(()));
    assert_eq!(validate_qualified_name("A_b.C-9"), Ok(()));
    assert_eq!(validate_qualified_name("_a"), Err("name \"_a\" is invalid".into()));
    assert_eq!(validate_qualified_name("a."), Err("name \"a.\" is invalid".into()));
    // The name length is checked before its format, and quotes the whole key.
    let long_bad = format!("x/{}", " ".repeat(64));
    assert_eq!(validate_qualified_name(&long_bad), Err(format!("name is too long: \"{long_bad}\" (limit is 63)")));
    // A prefix error is the only error, even when the name is bad too.
    assert_eq!(
        validate_qualified_name("a..b/ "),
        Err("prefix \"a..b\" is invalid: domain doesn't match required format: \"a..b\"".into())
    );
    // Go's `$` is end of text: a trailing newline does not match.
    assert_eq!(validate_qualified_name("abc\n"), Err("name \"abc\\n\" is invalid".into()));
    // Non-ASCII is quoted as printable, control characters escaped.
    assert_eq!(validate_qualified_name("é"), Err("name \"é\" is invalid".into()));
    assert_eq!(validate_qualified_name("a\u{1}b"), Err("name \"a\\x01b\" is invalid".into()));
}

#[test]
fn dns1123_subdomain_shapes() {
    for ok in ["a", "0", "a-b", "a--b", "a.b.c", "1.2.3.4", "x-1.y-2"] {
        assert_eq!(validate_dns1123_subdomain(ok), Ok(()), "{ok}");
    }
    for bad in ["", "-a", "a-", ".a", "a.", "a..b", "a_b", "A", "a.-b", "a b"] {
        assert_eq!(
            validate_dns1123_subdomain(bad),
            Err(format!("domain doesn't match required format: \"{bad}\"")),
            "{bad:?}"
        );
    }
    assert_eq!(validate_dns1123_subdomain(&"a".repeat(253)), Ok(()));
}

#[test]
fn label_value_boundaries() {
    assert_eq!(validate_label_value(&"v".repeat(63)), Ok(()));
    let v64 = "v".repeat(64);
    assert_eq!(validate_label_value(&v64), Err(format!("label value length exceeds limit of 63: \"{v64}\"")));
    // Length is counted in bytes, as Go's len().
    let e32 = "é".repeat(32);
    assert_eq!(validate_label_value(&e32), Err(format!("label value length exceeds limit of 63: \"{e32}\"")));
    assert_eq!(validate_label_value("a/b"), Err("label value \"a/b\" is invalid".into()));
    assert_eq!(validate_label_value("\"q\""), Err("label value \"\\\"q\\\"\" is invalid".into()));
}

#[test]
fn taint_rules() {
    let errors = validate_taints(&map(&[
        ("a", "PreferNoSchedule"),
        ("b", ":NoSchedule"), // empty value before ':' is a valid label value
        ("c", "noschedule"),  // effects are case-sensitive
        ("d", "a b:Bogus"),   // a bad effect hides the bad value
        ("e", "NoSchedule:"), // effect ""
        ("f", &format!("{}:NoExecute", "v".repeat(64))),
        ("g/h/i", "NoSchedule"), // bad key
        ("h/", "junk"),          // bad key: effect not checked
    ]));
    assert_eq!(
        messages(&errors),
        [
            "invalid taint effect: \"noschedule\"".to_string(),
            "invalid taint effect: \"Bogus\"".to_string(),
            "invalid taint effect: \"\"".to_string(),
            format!("label value length exceeds limit of 63: \"{}\"", "v".repeat(64)),
            "invalid format: too many slashes: \"g/h/i\"".to_string(),
            "name cannot be empty: \"h/\"".to_string(),
        ]
    );
    assert_eq!(keys(&errors), ["c", "d", "e", "f", "g/h/i", "h/"]);
}

#[test]
fn annotation_size_limit() {
    // Exactly at the limit: key + value = 262144 bytes.
    let at = map(&[("k", &"v".repeat(262_143))]);
    assert_eq!(validate_annotations(&at), []);
    // Sum over all entries, keys included; the size error comes last, after per-key errors.
    let over = map(&[("a", &"v".repeat(131_071)), ("b", &"v".repeat(131_071)), ("z z", "")]);
    let errors = validate_annotations(&over);
    assert_eq!(
        rendered(&errors).as_deref(),
        Some(
            "2 errors occurred:\n\t* name \"z z\" is invalid\n\t* total annotation size exceeds limit of 262144 bytes\n\n"
        )
    );
    assert_eq!(keys(&errors), ["z z", ""]);
}

#[test]
fn reserved_annotations_all_three() {
    let errors = validate_annotations(&map(&[
        ("talos.dev/owned-annotations", ""),
        ("talos.dev/owned-labels", ""),
        ("talos.dev/owned-taints", ""),
        ("talos.dev/owned-other", ""),
    ]));
    assert_eq!(
        messages(&errors),
        [
            "annotation \"talos.dev/owned-annotations\" is reserved",
            "annotation \"talos.dev/owned-labels\" is reserved",
            "annotation \"talos.dev/owned-taints\" is reserved",
        ]
    );
}

#[test]
fn label_error_displays_message() {
    let e = LabelError { key: "k".into(), message: "label value \"x y\" is invalid".into() };
    assert_eq!(e.to_string(), "label value \"x y\" is invalid");
}

// ---------------------------------------------------------------------------------------------
// Property test: agreement with an independent, literal implementation of the Kubernetes rules.

mod reference {
    //! Written from the Kubernetes rules (apimachinery `validation.go`) with Talos's messages,
    //! character by character, without sharing code with the library.

    fn alnum(c: char) -> bool {
        c.is_ascii_uppercase() || c.is_ascii_lowercase() || c.is_ascii_digit()
    }

    /// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` as a two-state automaton.
    fn qualified(s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        if chars.is_empty() {
            return false;
        }
        for (i, &c) in chars.iter().enumerate() {
            let edge = i == 0 || i == chars.len() - 1;
            let ok = if edge { alnum(c) } else { alnum(c) || c == '-' || c == '_' || c == '.' };
            if !ok {
                return false;
            }
        }
        true
    }

    /// RFC 1123 subdomain: labels separated by single dots.
    fn subdomain(s: &str) -> bool {
        // state: 0 = at label start, 1 = inside label after alnum, 2 = inside label after '-'
        let mut state = 0;
        for c in s.chars() {
            let lower_alnum = c.is_ascii_lowercase() || c.is_ascii_digit();
            state = match (state, c) {
                (_, _) if lower_alnum => 1,
                (1 | 2, '-') => 2,
                (1, '.') => 0,
                _ => return false,
            };
        }
        state == 1
    }

    pub fn qualified_name(key: &str) -> Result<(), String> {
        let slashes = key.matches('/').count();
        let name = if slashes > 1 {
            return Err(format!("invalid format: too many slashes: {key:?}"));
        } else if slashes == 1 {
            let (prefix, name) = key.split_at(key.find('/').unwrap());
            let name = &name[1..];
            if prefix.is_empty() {
                return Err(format!("prefix cannot be empty: {key:?}"));
            }
            if prefix.len() > 253 {
                return Err(format!(
                    "prefix {prefix:?} is invalid: domain name length exceeds limit of 253: {prefix:?}"
                ));
            }
            if !subdomain(prefix) {
                return Err(format!("prefix {prefix:?} is invalid: domain doesn't match required format: {prefix:?}"));
            }
            name
        } else {
            key
        };
        if name.is_empty() {
            Err(format!("name cannot be empty: {key:?}"))
        } else if name.len() > 63 {
            Err(format!("name is too long: {key:?} (limit is 63)"))
        } else if !qualified(name) {
            Err(format!("name {name:?} is invalid"))
        } else {
            Ok(())
        }
    }

    pub fn label_value(v: &str) -> Result<(), String> {
        if v.len() > 63 {
            Err(format!("label value length exceeds limit of 63: {v:?}"))
        } else if !v.is_empty() && !qualified(v) {
            Err(format!("label value {v:?} is invalid"))
        } else {
            Ok(())
        }
    }
}

/// Alphabets: the full one from the brief, one that makes valid names likely, one for prefixes.
const FULL: &[char] =
    &['a', 'b', 'z', 'A', 'Z', '0', '9', '-', '_', '.', '/', ' ', 'q', 'Q', '5', '-', '.', '_', 'a', 'm'];
const NAME: &[char] = &['a', 'b', 'z', 'A', 'Z', '0', '9', '-', '_', '.', 'x', 'k', 'Y', '3'];
const DNS: &[char] = &['a', 'b', 'z', '0', '9', '-', '.', 'c', 'd', 'e', 'f', '1', 'k', 'x', 'y'];

fn text(alphabet: &'static [char], len: impl Strategy<Value = usize>) -> impl Strategy<Value = String> {
    len.prop_flat_map(move |n| prop::collection::vec(prop::sample::select(alphabet), n))
        .prop_map(|cs| cs.into_iter().collect())
}

/// Lengths clustered around a limit, plus short ones.
fn around(limit: usize) -> impl Strategy<Value = usize> {
    prop_oneof![0usize..6, (limit - 3)..(limit + 3)]
}

fn name_part() -> impl Strategy<Value = String> {
    prop_oneof![text(NAME, around(63)), text(FULL, around(63))]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        name_part(),
        (prop_oneof![text(DNS, around(253)), text(FULL, 0usize..8)], name_part()).prop_map(|(p, n)| format!("{p}/{n}")),
        text(FULL, 0usize..300),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn qualified_name_agrees_with_reference(key in key()) {
        // The alphabet has no characters where Rust's `{:?}` and Go's `%q` differ.
        prop_assert_eq!(validate_qualified_name(&key), reference::qualified_name(&key));
    }

    #[test]
    fn label_value_agrees_with_reference(value in prop_oneof![name_part(), text(FULL, 0usize..70)]) {
        prop_assert_eq!(validate_label_value(&value), reference::label_value(&value));
    }

    #[test]
    fn labels_map_is_keywise(entries in prop::collection::btree_map(key(), name_part(), 0..8)) {
        let mut expected = Vec::new();
        for (k, v) in &entries {
            if let Err(m) = reference::qualified_name(k) {
                expected.push(LabelError { key: k.clone(), message: m });
            }
            if let Err(m) = reference::label_value(v) {
                expected.push(LabelError { key: k.clone(), message: m });
            }
        }
        prop_assert_eq!(validate_labels(&entries), expected);
    }
}
