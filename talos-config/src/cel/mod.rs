//! CEL expressions parsed as cel-go parses them (Talos's disk, link and volume selectors, the OOM
//! handler's trigger and cgroup scoring): the errors `env.Parse` reports, worded and placed as
//! cel-go prints them (`ERROR: <input>:1:6: Syntax error: ...` with the source line and a
//! caret), so that validation can say what a node would say about an expression that does not
//! parse.

mod lexer;
mod parser;

use parser::{RefKind, Reported};

/// cel-go's limit on an expression's size, in characters.
const MAX_CODE_POINTS: usize = 100_000;

/// cel-go's limit on the errors it prints.
const MAX_ERRORS_SHOWN: usize = 100;

/// What Talos's `env.Parse` and `env.Check` report for `expr` in an environment declaring
/// `env`, as `issues.Err()` prints it, or `None` when both accept it.
///
/// Parsing is cel-go's in full: its lexer and grammar with ANTLR's error recovery, the limits
/// (250 nested rules, 30 recoveries, 100 errors, 100,000 characters) and what its visitor
/// refuses (reserved words as names, out-of-range literals, escapes naming no character,
/// misused macros, the optional syntax `?`, quoted field names). Of the checker, only
/// references to undeclared variables (comprehension variables are bound in their macro);
/// types, fields and functions are not checked (KNOWN_GAPS.md). The cel-go release is
/// `release`'s: from v1.14 (cel-go v0.31) a quoted field name (`` disk.`dev_path` ``) is accepted.
pub(crate) fn check(expr: &str, env: &Declarations<'_>, release: crate::Release) -> Option<String> {
    let chars: Vec<char> = expr.chars().collect();
    let errors = if chars.len() > MAX_CODE_POINTS {
        vec![Reported {
            at: None,
            message: format!(
                "expression code point size exceeds limit: size: {}, limit {MAX_CODE_POINTS}",
                chars.len()
            ),
        }]
    } else {
        let (tokens, lexer_errors) = lexer::tokenize(&chars);
        let lexer_errors = lexer_errors
            .into_iter()
            .map(|e| {
                let message = format!("Syntax error: token recognition error at: '{}'", e.text);
                (e.made, Reported { at: Some((e.line, e.column)), message })
            })
            .collect();
        let rules = release.rules();
        let dialect = parser::Dialect {
            ident_escapes: rules.cel_ident_escapes,
            optional: env.optional_types,
            macro_target_once: rules.cel_macro_target_once,
        };
        let parsed = parser::parse(&chars, &tokens, lexer_errors, dialect);
        if parsed.errors.is_empty() { undeclared(&parsed.references, env) } else { parsed.errors }
    };
    (!errors.is_empty()).then(|| display(expr, errors))
}

/// The names cel-go's standard environment declares: type names as values, and functions.
const STANDARD_IDENTS: [&str; 10] =
    ["bool", "bytes", "double", "int", "list", "map", "null_type", "string", "type", "uint"];
const STANDARD_FUNCTIONS: [&str; 25] = [
    "bool",
    "bytes",
    "contains",
    "double",
    "duration",
    "dyn",
    "endsWith",
    "getDate",
    "getDayOfMonth",
    "getDayOfWeek",
    "getDayOfYear",
    "getFullYear",
    "getHours",
    "getMilliseconds",
    "getMinutes",
    "getMonth",
    "getSeconds",
    "int",
    "matches",
    "size",
    "startsWith",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// A CEL environment's declarations beyond cel-go's standard ones: its variables and its
/// functions.
pub(crate) struct Declarations<'a> {
    pub variables: &'a [&'a str],
    pub functions: &'a [&'a str],
    /// Whether the size constants are declared (Talos's `celUnitMultipliersConstants`).
    pub size_units: bool,
    /// Whether the environment has optional types (`cel.OptionalTypes()`): the `?` syntax, the
    /// `optMap`/`optFlatMap` macros and the optional values' functions.
    pub optional_types: bool,
}

/// The functions `cel.OptionalTypes()` declares that are called by their own name (the
/// `optional.` ones are resolved by the parser).
const OPTIONAL_FUNCTIONS: [&str; 7] = ["first", "hasValue", "last", "or", "orValue", "unwrapOpt", "value"];

/// Talos's size constants (`kB` with a small k; no `B`, no `KB`).
const SIZE_UNITS: [&str; 12] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "kB", "MB", "GB", "TB", "PB", "EB"];

/// The checker's errors for names no declaration gives (a leading `.` names the root scope):
/// variables, message types, functions.
fn undeclared(references: &[parser::Reference], env: &Declarations<'_>) -> Vec<Reported> {
    let known = |reference: &parser::Reference| {
        let name = reference.name.strip_prefix('.').unwrap_or(&reference.name);
        match reference.kind {
            RefKind::Variable => {
                env.variables.contains(&name)
                    || STANDARD_IDENTS.contains(&name)
                    || (env.size_units && SIZE_UNITS.contains(&name))
            }
            RefKind::MessageType => false,
            RefKind::Function => {
                env.functions.contains(&name)
                    || STANDARD_FUNCTIONS.contains(&name)
                    || (env.optional_types && OPTIONAL_FUNCTIONS.contains(&name))
            }
        }
    };
    references
        .iter()
        .filter(|r| !r.bound && !known(r))
        .map(|r| Reported {
            at: Some(r.at),
            message: format!("undeclared reference to '{}' (in container '')", r.name),
        })
        .collect()
}

/// cel-go's `Errors.ToDisplayString`: the first 100 errors reported, sorted by position (those
/// without one first), each with its source line and a caret; a count of the rest.
fn display(expr: &str, mut errors: Vec<Reported>) -> String {
    let total = errors.len();
    errors.truncate(MAX_ERRORS_SHOWN);
    errors.sort_by_key(|e| e.at.map_or((-1, -1), |(line, column)| (line as i64, column as i64)));
    let lines: Vec<&str> = expr.split('\n').collect();
    let mut out: Vec<String> = errors.iter().map(|e| one(&lines, expr.is_empty(), e)).collect();
    if total > MAX_ERRORS_SHOWN {
        out.push(format!("{} more errors were truncated", total - MAX_ERRORS_SHOWN));
    }
    out.join("\n")
}

/// Snippets longer than this (in bytes) are left out, as cel-go does.
const MAX_SNIPPET: usize = 16384;

fn one(lines: &[&str], empty: bool, error: &Reported) -> String {
    let Some((line, column)) = error.at else {
        return format!("ERROR: <input>:-1:0: {}", error.message);
    };
    let mut text = format!("ERROR: <input>:{line}:{}: {}", column + 1, error.message);
    if let Some(snippet) = lines.get(line - 1).filter(|s| !empty && s.len() <= MAX_SNIPPET) {
        let snippet = snippet.replace('\t', " ");
        let mut caret = String::new();
        let mut chars = snippet.chars();
        for c in chars.by_ref().take(column) {
            caret.push(if c.len_utf8() > 1 { '\u{ff0e}' } else { '.' });
        }
        caret.push(if chars.next().is_some_and(|c| c.len_utf8() > 1) { '\u{ff3e}' } else { '^' });
        text.push_str(&format!("\n | {snippet}\n | {caret}"));
    }
    text
}

#[cfg(test)]
mod tests;
