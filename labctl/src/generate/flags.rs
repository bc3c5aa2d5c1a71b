//! Command-line flags read as talosctl's flag library (pflag) reads them, so that `labctl gen`
//! takes every argument list `talosctl gen` takes, with the same error texts: `--name value`,
//! `--name=value`, `-n value`, `-nvalue`, `-n=value`, bare booleans and `--name=false`,
//! comma-separated lists (CSV, quotes allowed) and repeatable flags, `--` ending the flags.

use std::collections::BTreeMap;

/// Go's `%q`.
pub(crate) use talos_go::quote as go_quote;

/// How a flag takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `true` when given bare; `--name=value` parses a boolean.
    Bool,
    /// One value; the last one given wins.
    String,
    /// Comma-separated values, each use adding to the list (the default replaced at first use).
    Slice,
    /// One value per use, commas kept.
    Array,
    /// A Talos release (`v1.12.11`, `v1.12`): one value, checked when given.
    Release,
}

/// One flag a command takes.
#[derive(Clone, Copy)]
pub(crate) struct Spec {
    pub long: &'static str,
    pub short: Option<char>,
    pub kind: Kind,
}

/// The flags given, by long name, and the positional arguments.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    values: BTreeMap<&'static str, Vec<String>>,
    pub positional: Vec<String>,
    pub help: bool,
}

impl Parsed {
    /// The last value of a single-valued flag.
    pub fn string(&self, long: &str) -> Option<&str> {
        self.values.get(long).and_then(|v| v.last()).map(String::as_str)
    }

    /// A boolean flag: its value when given, else `default`.
    pub fn bool(&self, long: &str, default: bool) -> bool {
        self.string(long).map_or(default, |v| v == "true")
    }

    /// Every value of a list flag, or `None` when it was not given.
    pub fn list(&self, long: &str) -> Option<&[String]> {
        self.values.get(long).map(Vec::as_slice)
    }
}

/// Parses `args` against `specs` (`-h`/`--help` always known). The error is pflag's text.
pub(crate) fn parse(args: &[String], specs: &[Spec]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            parsed.positional.extend(rest.cloned());
            break;
        }
        if let Some(body) = arg.strip_prefix("--").filter(|b| !b.is_empty()) {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            if name == "help" {
                parsed.help = true;
                continue;
            }
            let spec = specs.iter().find(|s| s.long == name).ok_or_else(|| format!("unknown flag: --{name}"))?;
            let value = match (inline, spec.kind) {
                (Some(v), _) => v,
                (None, Kind::Bool) => "true".into(),
                (None, _) => rest.next().cloned().ok_or_else(|| format!("flag needs an argument: --{name}"))?,
            };
            set(&mut parsed, spec, &value)?;
        } else if let Some(shorts) = arg.strip_prefix('-').filter(|s| !s.is_empty() && !s.starts_with('-')) {
            parse_shorts(&mut parsed, shorts, &mut rest, specs)?;
        } else {
            parsed.positional.push(arg.clone());
        }
    }
    Ok(parsed)
}

/// A group of single-letter flags (`-fo FILE`, `-oFILE`, `-o=FILE`).
fn parse_shorts<'a>(
    parsed: &mut Parsed,
    shorts: &str,
    rest: &mut impl Iterator<Item = &'a String>,
    specs: &[Spec],
) -> Result<(), String> {
    for (i, c) in shorts.char_indices() {
        if c == 'h' {
            parsed.help = true;
            continue;
        }
        let spec = specs
            .iter()
            .find(|s| s.short == Some(c))
            .ok_or_else(|| format!("unknown shorthand flag: '{c}' in -{shorts}"))?;
        let after = &shorts[i + c.len_utf8()..];
        let value = if let Some(v) = after.strip_prefix('=') {
            v.to_string()
        } else if spec.kind == Kind::Bool {
            "true".into()
        } else if !after.is_empty() {
            after.to_string()
        } else {
            rest.next().cloned().ok_or_else(|| format!("flag needs an argument: '{c}' in -{shorts}"))?
        };
        set(parsed, spec, &value)?;
        if spec.kind != Kind::Bool || after.starts_with('=') {
            return Ok(());
        }
    }
    Ok(())
}

/// Sets a flag; a value it refuses is named as pflag names the flag (`-f, --force` when it has
/// a shorthand, however it was given).
fn set(parsed: &mut Parsed, spec: &Spec, value: &str) -> Result<(), String> {
    let shown = match spec.short {
        Some(c) => format!("-{c}, --{}", spec.long),
        None => format!("--{}", spec.long),
    };
    let invalid =
        |reason: String| format!("invalid argument {} for {} flag: {reason}", go_quote(value), go_quote(&shown));
    let values = parsed.values.entry(spec.long).or_default();
    match spec.kind {
        Kind::Bool => {
            let b = parse_bool(value)
                .ok_or_else(|| invalid(format!("strconv.ParseBool: parsing {}: invalid syntax", go_quote(value))))?;
            *values = vec![b.to_string()];
        }
        Kind::String => *values = vec![value.to_string()],
        Kind::Release => {
            value.parse::<talos_config::Release>().map_err(|e| invalid(e.to_string()))?;
            *values = vec![value.to_string()];
        }
        Kind::Slice => values.extend(read_csv(value).map_err(invalid)?),
        Kind::Array => values.push(value.to_string()),
    }
    Ok(())
}

/// Go's `strconv.ParseBool`.
fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// One CSV record as Go's `encoding/csv` reads it (what pflag splits list values with): fields
/// split at commas, a field in double quotes may hold commas and `""` for a quote; an empty
/// value is no field at all.
fn read_csv(text: &str) -> Result<Vec<String>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut fields = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => {
                        return Err("parse error on line 1, column 0: extraneous or missing \" in quoted-field".into());
                    }
                }
            }
            if !matches!(chars.peek(), None | Some(',')) {
                return Err("parse error on line 1, column 0: extraneous or missing \" in quoted-field".into());
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                field.push(c);
                chars.next();
            }
        }
        fields.push(field);
        if chars.next().is_none() {
            return Ok(fields);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[Spec] = &[
        Spec { long: "output", short: Some('o'), kind: Kind::String },
        Spec { long: "force", short: Some('f'), kind: Kind::Bool },
        Spec { long: "types", short: Some('t'), kind: Kind::Slice },
        Spec { long: "patch", short: None, kind: Kind::Array },
    ];

    fn parse_words(words: &[&str]) -> Result<Parsed, String> {
        parse(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>(), SPECS)
    }

    #[test]
    fn every_form_pflag_takes() {
        let p = parse_words(&["a", "-fo=x", "--types", "w,\"c,p\"", "-tq", "--patch", "a,b", "--", "-b"]).unwrap();
        assert_eq!(p.positional, ["a", "-b"]);
        assert_eq!(p.string("output"), Some("x"));
        assert!(p.bool("force", false));
        assert_eq!(p.list("types").unwrap(), ["w", "c,p", "q"]);
        assert_eq!(p.list("patch").unwrap(), ["a,b"]);
        let p = parse_words(&["-ox", "--force=false", "--output=y", "--types="]).unwrap();
        assert_eq!((p.string("output"), p.bool("force", true)), (Some("y"), false));
        assert_eq!(p.list("types").unwrap(), [] as [String; 0]);
    }

    #[test]
    fn errors_are_pflags_texts() {
        let cases: &[(&[&str], &str)] = &[
            (&["--bogus"], "unknown flag: --bogus"),
            (&["-x"], "unknown shorthand flag: 'x' in -x"),
            (&["-fx"], "unknown shorthand flag: 'x' in -fx"),
            (&["--output"], "flag needs an argument: --output"),
            (&["-o"], "flag needs an argument: 'o' in -o"),
            (
                &["--force=maybe"],
                "invalid argument \"maybe\" for \"-f, --force\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
            ),
            (
                &["-f=no"],
                "invalid argument \"no\" for \"-f, --force\" flag: strconv.ParseBool: parsing \"no\": invalid syntax",
            ),
        ];
        for (words, want) in cases {
            assert_eq!(parse_words(words).unwrap_err(), *want, "{words:?}");
        }
    }
}
