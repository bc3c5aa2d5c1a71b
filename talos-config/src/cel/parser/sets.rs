//! Token sets of CEL's grammar (what may start or follow each rule) and how ANTLR prints
//! them in its messages.

use crate::cel::lexer::display_name;
use crate::cel::lexer::t::*;

/// A set of token types (bit `n` is type `n`; bit 0 is end of input).
pub(super) type Set = u64;

pub(super) const fn bit(kind: u8) -> Set {
    1 << kind
}

pub(super) const fn bits(kinds: &[u8]) -> Set {
    let mut set = 0;
    let mut i = 0;
    while i < kinds.len() {
        set |= bit(kinds[i]);
        i += 1;
    }
    set
}

pub(super) const FIRST_PRIMARY: Set = bits(&[
    LBRACKET, LBRACE, LPAREN, DOT, MINUS, CEL_TRUE, CEL_FALSE, NUL, NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES,
    IDENTIFIER,
]);
pub(super) const FIRST_EXPR: Set = FIRST_PRIMARY | bit(EXCLAM);
pub(super) const FIRST_OPT_EXPR: Set = FIRST_EXPR | bit(QUESTIONMARK);
pub(super) const FIRST_FIELD: Set = bits(&[QUESTIONMARK, IDENTIFIER, ESC_IDENTIFIER]);
pub(super) const FIRST_LITERAL: Set =
    bits(&[MINUS, NUM_INT, NUM_UINT, NUM_FLOAT, STRING, BYTES, CEL_TRUE, CEL_FALSE, NUL]);
pub(super) const IDENTS: Set = bits(&[IDENTIFIER, ESC_IDENTIFIER]);
pub(super) const NUMBERS: Set = bits(&[NUM_INT, NUM_FLOAT]);
pub(super) const REL_OPS: Set = bits(&[EQUALS, NOT_EQUALS, IN, LESS, LESS_EQUALS, GREATER_EQUALS, GREATER]);
pub(super) const MUL_OPS: Set = bits(&[STAR, SLASH, PERCENT]);
pub(super) const ADD_OPS: Set = bits(&[PLUS, MINUS]);
pub(super) const MEMBER_OPS: Set = bits(&[DOT, LBRACKET]);

/// What may follow a point within its rule: tokens, and whether the rule may end there.
#[derive(Clone, Copy)]
pub(super) struct Follow {
    pub(super) set: Set,
    pub(super) end: bool,
}

pub(super) const fn then(set: Set) -> Follow {
    Follow { set, end: false }
}

pub(super) const fn then_or_end(set: Set) -> Follow {
    Follow { set, end: true }
}

pub(super) const END: Follow = then_or_end(0);

/// ANTLR's `escapeWSAndQuote`.
pub(super) fn quote_escaped(text: &str) -> String {
    format!("'{}'", text.replace('\n', "\\n").replace('\r', "\\r").replace('\t', "\\t"))
}

/// ANTLR's way of printing a token set: one name alone, several in braces.
pub(super) fn set_display(set: Set) -> String {
    let names: Vec<&str> = (0..64u8).filter(|&k| set & bit(k) != 0).map(display_name).collect();
    match names.as_slice() {
        [one] => (*one).to_string(),
        _ => format!("{{{}}}", names.join(", ")),
    }
}

/// cel-go rewrites "no viable alternative at input '.true'" (a reserved word after one
/// character) as "mismatched input 'true' expecting IDENTIFIER", where the pattern matches.
pub(super) fn reserved_word_hack(message: String) -> String {
    const PREFIX: &str = "no viable alternative at input '";
    let Some(rest) = message.strip_prefix(PREFIX) else { return message };
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if c != '\n' => {
            let after = chars.as_str();
            for word in ["true", "false", "null"] {
                if let Some(tail) = after.strip_prefix(word).and_then(|t| t.strip_prefix('\'')) {
                    return format!("mismatched input '{word}' expecting IDENTIFIER{tail}");
                }
            }
            message
        }
        _ => message,
    }
}
