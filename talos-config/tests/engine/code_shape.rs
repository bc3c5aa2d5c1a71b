//! The outer ring's size limits: no `.rs` file of talos-client, talos-sim or labctl over 500
//! lines, and no non-test function over 80 lines (from its `fn` line to its closing brace) in
//! those crates' sources nor in talos-config's, talos-go's and the derive macro's. The go-yaml
//! port and the generated proto code are outside the rule; so is anything after a `#[cfg(test)]`
//! line. A brace counter over the code with literals and comments blanked out finds the bodies.

use std::path::Path;

use crate::module_graph::{rust_files, workspace_root};

const MAX_FILE_LINES: usize = 500;
const MAX_FN_LINES: usize = 80;

/// Folders whose every `.rs` file must stay within [`MAX_FILE_LINES`].
const FILE_RULE_DIRS: &[&str] = &[
    "talos-client/src",
    "talos-client/tests",
    "talos-sim/src",
    "talos-sim/tests",
    "talos-sim/benches",
    "labctl/src",
    "labctl/tests",
];

/// Folders whose non-test functions must stay within [`MAX_FN_LINES`] (no test folders: a test
/// may be as long as the scenario it plays).
const FN_RULE_DIRS: &[&str] = &[
    "talos-client/src",
    "talos-sim/src",
    "talos-sim/benches",
    "labctl/src",
    "talos-config/src",
    "talos-config/go/src",
    "talos-config/derive/src",
];

/// Generated code, written by a tool rather than read by people.
const EXCLUDED: &[&str] = &["talos-client/src/proto/generated"];

/// The checked files of `dirs`, as (path relative to the root, text), in a stable order.
fn checked_files(root: &Path, dirs: &[&str]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in dirs {
        let dir = root.join(dir);
        if dir.exists() {
            rust_files(&dir, &mut files);
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|f| f.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"))
        .filter(|rel| !EXCLUDED.iter().any(|e| rel.starts_with(e)))
        .map(|rel| {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap();
            (rel, text)
        })
        .collect()
}

/// How many `expected` in a row start at `chars[at..]`.
fn count_run(chars: &[char], at: usize, expected: char) -> usize {
    chars[at..].iter().take_while(|&&c| c == expected).count()
}

/// Where a raw string starting at `at` (`r"`, `r#"`, `br##"`...) ends, if one starts there.
fn raw_string_end(chars: &[char], at: usize) -> Option<usize> {
    let start = at + usize::from(chars[at] == 'b');
    if chars.get(start) != Some(&'r') {
        return None;
    }
    let hashes = count_run(chars, start + 1, '#');
    let quote = start + 1 + hashes;
    if chars.get(quote) != Some(&'"') {
        return None;
    }
    let closing = (quote + 1..chars.len())
        .find(|&i| chars[i] == '"' && count_run(chars, i + 1, '#') >= hashes)
        .unwrap_or(chars.len());
    Some((closing + 1 + hashes).min(chars.len()))
}

/// Where a `"` string starting at `at` ends (just past its closing quote).
fn string_end(chars: &[char], at: usize) -> usize {
    let mut i = at + 1;
    while i < chars.len() && chars[i] != '"' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    (i + 1).min(chars.len())
}

/// Where a char literal starting at `at` ends, or `None` when the quote starts a lifetime.
fn char_literal_end(chars: &[char], at: usize) -> Option<usize> {
    match chars.get(at + 1) {
        Some('\\') => (at + 3..chars.len()).find(|&i| chars[i] == '\'').map(|i| i + 1),
        Some(_) if chars.get(at + 2) == Some(&'\'') => Some(at + 3),
        _ => None,
    }
}

/// Where a `/* */` comment starting at `at` ends; they nest in Rust.
fn block_comment_end(chars: &[char], at: usize) -> usize {
    let (mut i, mut depth) = (at, 0usize);
    while i + 1 < chars.len() {
        match (chars[i], chars[i + 1]) {
            ('/', '*') => (depth, i) = (depth + 1, i + 2),
            ('*', '/') => {
                (depth, i) = (depth - 1, i + 2);
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    chars.len()
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The end of the literal or comment starting at `at`, if one does.
fn skipped_span_end(chars: &[char], at: usize) -> Option<usize> {
    let after_ident = at > 0 && is_ident_char(chars[at - 1]);
    match (chars[at], chars.get(at + 1)) {
        ('/', Some('/')) => Some((at..chars.len()).find(|&i| chars[i] == '\n').unwrap_or(chars.len())),
        ('/', Some('*')) => Some(block_comment_end(chars, at)),
        ('"', _) => Some(string_end(chars, at)),
        ('\'', _) => char_literal_end(chars, at),
        ('b', Some('\'')) if !after_ident => char_literal_end(chars, at + 1),
        ('b', Some('"')) if !after_ident => Some(string_end(chars, at + 1)),
        ('r' | 'b', _) if !after_ident => raw_string_end(chars, at),
        _ => None,
    }
}

/// The code with every string, char literal and comment replaced by spaces (newlines kept, so
/// line numbers still hold).
fn code_only(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    let mut code = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        match skipped_span_end(&chars, i) {
            Some(end) => {
                code.extend(chars[i..end].iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
                i = end;
            }
            None => {
                code.push(chars[i]);
                i += 1;
            }
        }
    }
    code
}

/// The code before the first `#[cfg(test)]` line: what follows is tests.
fn before_tests(code: &[char]) -> &[char] {
    let mut line_start = 0;
    for (i, &c) in code.iter().enumerate() {
        if c == '\n' {
            let line: String = code[line_start..i].iter().collect();
            if line.trim_start().starts_with("#[cfg(test)]") {
                return &code[..line_start];
            }
            line_start = i + 1;
        }
    }
    code
}

/// A function found in a file: its name, its `fn` line (1-based) and its length in lines.
#[derive(Debug, PartialEq)]
struct FnSpan {
    name: String,
    line: usize,
    lines: usize,
}

/// The index of the `{` opening the body of a fn whose signature starts at `at`, or `None` for
/// a fn without one (a trait method's `;`). Brackets are counted so `[u8; 4]` is no end.
fn body_start(code: &[char], at: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &c) in code.iter().enumerate().skip(at) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => return Some(i),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The index of the `}` matching the `{` at `open`.
fn matching_brace(code: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The name of a fn whose `fn` keyword is at `at`, when it is one (not a `fn(..)` pointer type).
fn fn_name_at(code: &[char], at: usize) -> Option<String> {
    let keyword = code.get(at..at + 2)? == ['f', 'n'];
    let starts_token = at == 0 || !is_ident_char(code[at - 1]);
    let spaced = code.get(at + 2).is_some_and(|c| c.is_whitespace());
    if !(keyword && starts_token && spaced) {
        return None;
    }
    let name: String =
        code[at + 2..].iter().skip_while(|c| c.is_whitespace()).take_while(|&&c| is_ident_char(c)).collect();
    (!name.is_empty()).then_some(name)
}

/// Every function with a body in `text` before its tests, nested ones included.
fn functions(text: &str) -> Vec<FnSpan> {
    let code = code_only(text);
    let code = before_tests(&code);
    let line_of = |i: usize| code[..i].iter().filter(|&&c| c == '\n').count() + 1;
    let mut found = Vec::new();
    for at in 0..code.len() {
        let Some(name) = fn_name_at(code, at) else { continue };
        let Some(open) = body_start(code, at) else { continue };
        let Some(close) = matching_brace(code, open) else { continue };
        let line = line_of(at);
        found.push(FnSpan { name, line, lines: line_of(close) - line + 1 });
    }
    found
}

#[test]
fn the_counter_finds_bodies_past_literals_and_comments() {
    let sample = r##"
trait T {
    fn declared(&self, x: [u8; 4]);
}
fn outer<'a>(s: &'a str) -> usize {
    let brace = '{';
    let quote = '"';
    let bytes = b"{";
    let text = "}}} { \" }";
    let raw = r#"}"{"#;
    // } a comment
    /* } /* nested { */ */
    fn inner() {
        let _ = b'}';
    }
    s.len()
}
#[cfg(test)]
fn after_tests() {
}
"##;
    let found = functions(sample);
    assert_eq!(
        found,
        vec![FnSpan { name: "outer".into(), line: 5, lines: 13 }, FnSpan { name: "inner".into(), line: 13, lines: 3 }]
    );
}

#[test]
fn files_stay_within_500_lines() {
    let root = workspace_root();
    let offenders: Vec<String> = checked_files(&root, FILE_RULE_DIRS)
        .into_iter()
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines > MAX_FILE_LINES)
        .map(|(path, lines)| format!("{path}: {lines} lines"))
        .collect();
    assert!(
        offenders.is_empty(),
        "files over {MAX_FILE_LINES} lines (split each by concern):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn functions_stay_within_80_lines() {
    let root = workspace_root();
    let mut offenders = Vec::new();
    for (path, text) in checked_files(&root, FN_RULE_DIRS) {
        for f in functions(&text).into_iter().filter(|f| f.lines > MAX_FN_LINES) {
            offenders.push(format!("{path}:{}: fn {}: {} lines", f.line, f.name, f.lines));
        }
    }
    assert!(
        offenders.is_empty(),
        "functions over {MAX_FN_LINES} lines (break each into named parts):\n{}",
        offenders.join("\n")
    );
}
