//! CEL expressions parsed as cel-go parses them (Talos's disk, link and volume selectors): the
//! errors `env.Parse` reports, worded and placed as cel-go prints them (`ERROR: <input>:1:6:
//! Syntax error: ...` with the source line and a caret), so that validation can say what a
//! node would say about a selector that does not parse.

mod lexer;
mod parser;

use parser::Reported;

/// cel-go's limit on an expression's size, in characters.
const MAX_CODE_POINTS: usize = 100_000;

/// cel-go's limit on the errors it prints.
const MAX_ERRORS_SHOWN: usize = 100;

/// The errors cel-go's parser reports for `expr`, as `issues.Err()` prints them, or `None` when
/// the expression parses.
///
/// Covers what the grammar and cel-go's parser limits refuse: unknown characters, unterminated
/// strings and bad escapes, unbalanced brackets, missing operands, trailing tokens, nesting
/// beyond 250 levels of one rule. Not covered (see KNOWN_GAPS.md): errors cel-go's parser finds
/// after the grammar accepted the text (reserved words used as names, out-of-range literals,
/// macro misuse, the optional syntax `?`).
pub(crate) fn parse_errors(expr: &str) -> Option<String> {
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
        parser::syntax_errors(&chars, &tokens, lexer_errors)
    };
    (!errors.is_empty()).then(|| display(expr, errors))
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
