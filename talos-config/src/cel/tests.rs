//! The lexer's tokens, the parser's limits and its stack use; the texts are checked against
//! what Talos printed in `tests/engine/cel.rs`.

use super::lexer::{t, tokenize};
use super::{Declarations, check};

const DISK: Declarations<'static> =
    Declarations { variables: &["disk"], functions: &["glob"], size_units: true, optional_types: false };

#[test]
fn a_valid_expression_has_no_errors() {
    let expr = "disk.transport == \"nvme\" && disk.symlinks.exists(s, glob(\"/dev/*\", s)) && type(disk) != int";
    assert_eq!(check(expr, &DISK, crate::Release::DEFAULT), None);
}

/// cel-go refuses a 251st level of one rule; the levels below it parse on a small thread.
#[test]
fn nesting_is_limited_and_needs_no_large_stack() {
    let nested = |levels: usize| format!("{}disk{}", "(".repeat(levels), ")".repeat(levels));
    let (deepest, too_deep) = (nested(249), nested(250));
    let results = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            (check(&deepest, &DISK, crate::Release::DEFAULT), check(&too_deep, &DISK, crate::Release::DEFAULT))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(results.0, None);
    assert_eq!(results.1.as_deref(), Some("ERROR: <input>:-1:0: expression recursion limit exceeded: 250"));
}

#[test]
fn an_expression_of_more_than_100000_characters_is_refused() {
    let expr = format!("disk == {}", "1".repeat(99_993));
    assert_eq!(
        check(&expr, &DISK, crate::Release::DEFAULT).as_deref(),
        Some("ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000")
    );
}

fn kinds(src: &str) -> Vec<(u8, String)> {
    let chars: Vec<char> = src.chars().collect();
    let (tokens, _) = tokenize(&chars);
    tokens.iter().filter(|t| !t.hidden()).map(|t| (t.kind, chars[t.start..t.end].iter().collect())).collect()
}

#[test]
fn longest_match_then_earlier_rule() {
    let got = kinds("in int 1.5e3 1. 0x1fu .5 r'a' b\"x\" `a.b` \"\"\"q\"\"\"");
    let want: Vec<(u8, String)> = vec![
        (t::IN, "in".into()),
        (t::IDENTIFIER, "int".into()),
        (t::NUM_FLOAT, "1.5e3".into()),
        (t::NUM_INT, "1".into()),
        (t::DOT, ".".into()),
        (t::NUM_UINT, "0x1fu".into()),
        (t::NUM_FLOAT, ".5".into()),
        (t::STRING, "r'a'".into()),
        (t::BYTES, "b\"x\"".into()),
        (t::ESC_IDENTIFIER, "`a.b`".into()),
        (t::STRING, "\"\"\"q\"\"\"".into()),
        (t::EOF, String::new()),
    ];
    assert_eq!(got, want);
}

#[test]
fn an_unmatched_character_is_reported_with_what_was_read() {
    let errors_of = |src: &str| -> Vec<(String, usize)> {
        let chars: Vec<char> = src.chars().collect();
        tokenize(&chars).1.iter().map(|e| (e.text.clone(), e.column)).collect()
    };
    assert_eq!(errors_of("\"\\q\""), [("\"\\q".to_string(), 0), ("\"".to_string(), 3)]);
    assert_eq!(errors_of("a # b"), [("#".to_string(), 2)]);
    assert_eq!(errors_of("'ab\ncd'"), [("'ab\n".to_string(), 0), ("'".to_string(), 2)]);
}

proptest::proptest! {
    /// Any text gets an answer (no panic, no overflow): CEL's punctuation, quotes, escapes and
    /// line breaks in any order, and any printable text.
    #[test]
    fn any_text_gets_an_answer(
        expr in "[()\\[\\]{}.,?:!\\-+*/%<>=&|\"'`#a-z0-9_ \\\\\n\t]{0,80}|[ -~\u{e9}\u{3042}]{0,60}",
    ) {
        let first = check(&expr, &DISK, crate::Release::DEFAULT);
        proptest::prop_assert_eq!(first, check(&expr, &DISK, crate::Release::DEFAULT));
    }
}
