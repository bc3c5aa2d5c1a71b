//! The tokenizer: libyaml's scanning algorithm (indentation stack, flow levels) with go-yaml v4
//! rc.4's simple keys (one current key and a stack for outer flow levels, valid on its own line
//! whatever its length), its two-token lookahead, its limits and problem/context texts.
//!
//! With [`Dialect::V4Rc3`] it scans as go-yaml v4.0.0-rc.3 does: an implicit key's `:` must
//! come within 1024 characters of the key's start and a required key that went stale fails at
//! the `:` (yaml.v3's `simpleKeyIsValid`), a `:` in a flow collection is always a value
//! indicator, and tags use libyaml's URI characters (`,` `[` `]` included, `{` `}` not).
//!
//! With [`Dialect::V4Rc6`] it scans as go-yaml v4.0.0-rc.6 does, which counts lines and columns
//! from 1 (rc.4 from 0) while a few of its checks kept rc.4's constants: a `:` before `,` `]` or
//! `}` ends a plain scalar in a flow collection, a block scalar outside any block collection
//! may find its indentation at column 1, and a comment's foot line is also worked out on the
//! first line and after a character at the second column.

use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::{Failure, FailureKind, Pos};
use crate::Dialect;

/// Maximum flow nesting and block indentation depth (go-yaml's `max_flow_level`/`max_indents`).
const MAX_DEPTH: usize = 10000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    StreamStart,
    StreamEnd,
    VersionDirective(u32, u32),
    TagDirective(String, String),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(String),
    Anchor(String),
    Tag(String, String),
    /// The text is shared: the parser looks ahead by cloning tokens, which must not copy a
    /// scalar's text (a 10 MiB inline manifest is one scalar).
    Scalar(Rc<String>, Style),
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub start: Pos,
    pub end: Pos,
}

/// A comment as go-yaml's scanner records it: its text (with the `#`, lines joined by `\n`) as a
/// head, line or foot comment, and the marks the parser uses to attach it to a token
/// (`token_mark`) and the scanner uses to place block ends before foot comments.
#[derive(Clone, Debug, Default)]
pub(super) struct Comment {
    pub scan_mark: Pos,
    pub token_mark: Pos,
    pub start_mark: Pos,
    pub end_mark: Pos,
    pub head: String,
    pub line: String,
    pub foot: String,
}

/// How many bytes go-yaml's comment scanner looks ahead (its `peek < 512` loops).
const COMMENT_PEEK: usize = 512;

#[derive(Clone, Copy, Default)]
struct SimpleKey {
    required: bool,
    flow_level: usize,
    token_number: usize,
    mark: Pos,
    /// Saved at a token, not the zero key go-yaml starts with and leaves at a new flow level.
    /// rc.4's zero key is at line 1 (0-based lines start at 0); rc.6's is at no line at all.
    saved: bool,
}

pub(super) struct Scanner<'a> {
    /// The go-yaml release whose scanning rules apply.
    pub dialect: Dialect,
    /// The input (already checked by the reader); `pos` is a byte position in it.
    text: &'a str,
    pos: usize,
    pub mark: Pos,
    /// The highest byte position looked at (to decide when a later decoding error surfaces).
    pub max_seen: Cell<usize>,
    tokens: VecDeque<Token>,
    tokens_parsed: usize,
    token_available: bool,
    stream_start_produced: bool,
    stream_end_produced: bool,
    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    /// The potential simple key of the current flow level, and whether there is one (go-yaml
    /// keeps the key's fields when it enters a flow level, only zeroed).
    simple_key: SimpleKey,
    simple_key_possible: bool,
    /// Keys of outer flow levels that were possible when a flow collection started.
    simple_key_stack: Vec<SimpleKey>,
    flow_level: usize,
    /// Comments in scanning order; the parser takes them in order (`comments_taken`).
    pub comments: Vec<Comment>,
    pub comments_taken: usize,
    /// Line breaks since the last non-blank character (go-yaml's `newlines`).
    newlines: usize,
    /// The last two tokens taken off the queue, newest last: go-yaml's comment rules look at
    /// the last tokens produced, taken or not.
    taken: VecDeque<Token>,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}
fn is_z(c: char) -> bool {
    c == '\0'
}
fn is_breakz(c: char) -> bool {
    is_break(c) || is_z(c)
}
fn is_blankz(c: char) -> bool {
    is_blank(c) || is_breakz(c)
}
/// go-yaml v4 rc.4's `isAnchorChar`: printable ASCII but blanks, `:` and flow indicators.
fn is_anchor_char(c: char) -> bool {
    ('!'..='~').contains(&c) && !":,[]{}".contains(c)
}
/// go-yaml's `is_alpha`: ASCII letters, digits, `_` and `-`.
fn is_alpha(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

type R<T> = Result<T, Failure>;

/// The byte length of the UTF-8 character starting with `first`.
fn utf8_width(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str, start_offset: usize, dialect: Dialect) -> Self {
        Scanner {
            dialect,
            text,
            pos: 0,
            mark: Pos { index: 0, line: 0, column: 0, offset: start_offset },
            max_seen: Cell::new(0),
            tokens: VecDeque::new(),
            tokens_parsed: 0,
            token_available: false,
            stream_start_produced: false,
            stream_end_produced: false,
            indent: -1,
            indents: Vec::new(),
            simple_key_allowed: false,
            simple_key: SimpleKey::default(),
            simple_key_possible: false,
            simple_key_stack: Vec::new(),
            flow_level: 0,
            comments: Vec::new(),
            comments_taken: 0,
            newlines: 0,
            taken: VecDeque::new(),
        }
    }

    /// The token `back` places from the end of the queue (0: the last one produced), counting
    /// tokens already taken.
    fn recent_token(&self, back: usize) -> Option<&Token> {
        let queued = self.tokens.len();
        if back < queued {
            return self.tokens.get(queued - 1 - back);
        }
        let back = back - queued;
        self.taken.len().checked_sub(1 + back).and_then(|i| self.taken.get(i))
    }

    /// The character `k` characters ahead, `'\0'` past the end.
    fn ch(&self, k: usize) -> char {
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        for _ in 0..k {
            i += bytes.get(i).map_or(1, |&b| utf8_width(b));
        }
        if i > self.max_seen.get() {
            self.max_seen.set(i);
        }
        match bytes.get(i) {
            Some(&b) if b.is_ascii() => char::from(b),
            Some(_) => self.text.get(i..).and_then(|rest| rest.chars().next()).unwrap_or('\0'),
            None => '\0',
        }
    }

    fn check3(&self, c: char) -> bool {
        self.ch(0) == c && self.ch(1) == c && self.ch(2) == c
    }

    fn skip(&mut self) {
        let c = self.ch(0);
        if is_z(c) && self.pos >= self.text.len() {
            return;
        }
        if !is_blank(c) {
            self.newlines = 0;
        }
        self.pos += c.len_utf8();
        self.mark.index += 1;
        self.mark.column += 1;
        self.mark.offset += c.len_utf8();
    }

    fn skip_line(&mut self) {
        let c = self.ch(0);
        if c == '\r' && self.ch(1) == '\n' {
            self.pos += 2;
            self.mark.index += 2;
            self.mark.offset += 2;
            self.mark.column = 0;
            self.mark.line += 1;
            self.newlines += 1;
        } else if is_break(c) {
            self.pos += c.len_utf8();
            self.mark.index += 1;
            self.mark.offset += c.len_utf8();
            self.mark.column = 0;
            self.mark.line += 1;
            self.newlines += 1;
        }
    }

    fn read(&mut self, s: &mut String) {
        s.push(self.ch(0));
        self.skip();
    }

    /// Reads the characters up to the next line break or the end (`read` for a whole run).
    fn read_to_break(&mut self, s: &mut String) {
        let rest = self.text.get(self.pos..).unwrap_or("");
        let end = rest.find(is_break).unwrap_or(rest.len());
        let run = rest.get(..end).unwrap_or("");
        let chars = if run.is_ascii() { run.len() } else { run.chars().count() };
        if !run.chars().all(is_blank) {
            self.newlines = 0;
        }
        s.push_str(run);
        self.pos += end;
        self.mark.index += chars;
        self.mark.column += chars;
        self.mark.offset += end;
        // The character that ends the run is looked at, as the loop over `read` would.
        self.ch(0);
    }

    fn read_line(&mut self, s: &mut String) {
        let c = self.ch(0);
        match c {
            '\r' | '\n' | '\u{85}' => s.push('\n'),
            '\u{2028}' | '\u{2029}' => s.push(c),
            _ => return,
        }
        self.skip_line();
    }

    fn err(&self, context: Option<(&'static str, Pos)>, problem: impl Into<String>) -> Failure {
        Failure { kind: FailureKind::Scanner, context, problem: problem.into(), mark: self.mark, unset_context: false }
    }

    /// An error whose context is where the current simple key starts (a zero key's mark is
    /// `<unknown position>` to rc.6).
    fn key_ctx_err(&self, context: &'static str, problem: impl Into<String>) -> Failure {
        let mut failure = self.ctx_err(context, self.simple_key.mark, problem);
        failure.unset_context = !self.simple_key.saved;
        failure
    }

    fn ctx_err(&self, context: &'static str, ctx_mark: Pos, problem: impl Into<String>) -> Failure {
        self.err(Some((context, ctx_mark)), problem)
    }

    pub fn skip_token(&mut self) {
        if let Some(t) = self.tokens.pop_front() {
            self.token_available = false;
            self.tokens_parsed += 1;
            if t.tok == Tok::StreamEnd {
                self.stream_end_produced = true;
            }
            if self.taken.len() == 2 {
                self.taken.pop_front();
            }
            self.taken.push_back(t);
        }
    }

    pub fn peek(&mut self) -> R<&Token> {
        if !self.token_available {
            self.fetch_more_tokens()?;
            self.token_available = true;
        }
        match self.tokens.front() {
            Some(t) => Ok(t),
            None => Err(self.err(None, "attempted to go past the end of stream; corrupted value?")),
        }
    }

    /// go-yaml's `fetchMoreTokens`: at least three tokens are queued (its comment handling looks
    /// two tokens ahead, so a scanner error that close surfaces before the parser sees the
    /// current token), and more while the first queued token may start a simple key.
    fn fetch_more_tokens(&mut self) -> R<()> {
        loop {
            if self.tokens.len() > 2 && self.dialect == Dialect::V4Rc3 {
                if !self.head_key_still_valid()? {
                    return Ok(());
                }
            } else if self.tokens.len() > 2 {
                let first_key = match self.simple_key_stack.first() {
                    Some(key) => Some(key.token_number),
                    None if self.simple_key_possible => Some(self.simple_key.token_number),
                    None => None,
                };
                if first_key != Some(self.tokens_parsed) {
                    return Ok(());
                }
            }
            if self.stream_end_produced || self.tokens.back().is_some_and(|t| t.tok == Tok::StreamEnd) {
                return Ok(());
            }
            self.fetch_next_token()?;
        }
    }

    /// go-yaml rc.3's look-ahead rule: whether a possible simple key (of any flow level)
    /// starts at the first queued token and is still valid, so that more tokens are needed.
    /// A key gone stale is no longer possible, or an error when it is required.
    fn head_key_still_valid(&mut self) -> R<bool> {
        let head = self.tokens_parsed;
        if self.simple_key_possible && self.simple_key.token_number == head {
            let key = self.simple_key;
            if self.is_stale(&key) {
                self.stale_key(key)?;
                self.simple_key_possible = false;
                return Ok(false);
            }
            return Ok(true);
        }
        let Some(at) = self.simple_key_stack.iter().position(|k| k.token_number == head) else {
            return Ok(false);
        };
        let key = self.simple_key_stack.get(at).copied().unwrap_or_default();
        if self.is_stale(&key) {
            self.stale_key(key)?;
            // No longer possible: the level gets no key back when it closes.
            self.simple_key_stack.remove(at);
            return Ok(false);
        }
        Ok(true)
    }

    /// go-yaml rc.3's staleness of a possible simple key: the scanner has left its line, or
    /// is more than 1024 characters past its start.
    fn is_stale(&self, key: &SimpleKey) -> bool {
        key.mark.line < self.mark.line || key.mark.index + 1024 < self.mark.index
    }

    /// A stale key that was required is an error.
    fn stale_key(&self, key: SimpleKey) -> R<()> {
        if key.required {
            return Err(self.ctx_err("while scanning a simple key", key.mark, "could not find expected ':'"));
        }
        Ok(())
    }

    fn push(&mut self, tok: Tok, start: Pos, end: Pos) {
        self.tokens.push_back(Token { tok, start, end });
    }

    fn fetch_next_token(&mut self) -> R<()> {
        if !self.stream_start_produced {
            self.indent = -1;
            self.simple_key = SimpleKey::default();
            self.simple_key_stack.clear();
            self.simple_key_allowed = true;
            self.stream_start_produced = true;
            let m = self.mark;
            self.push(Tok::StreamStart, m, m);
            return Ok(());
        }
        let scan_mark = self.mark;
        self.scan_to_next_token();
        self.unroll_indent(self.mark.column as isize, scan_mark);
        let c = self.ch(0);
        if is_z(c) {
            return self.fetch_stream_end();
        }
        if self.mark.column == 0 {
            if c == '%' {
                return self.fetch_directive();
            }
            if self.check3('-') && is_blankz(self.ch(3)) {
                return self.fetch_document_indicator(Tok::DocumentStart);
            }
            if self.check3('.') && is_blankz(self.ch(3)) {
                return self.fetch_document_indicator(Tok::DocumentEnd);
            }
        }
        // A comment after `:` (block) or `,` (flow) belongs to the token before it.
        let comment_mark = match self.recent_token(0) {
            Some(t) if (self.flow_level == 0 && c == ':') || (self.flow_level > 0 && c == ',') => t.start,
            _ => self.mark,
        };
        self.fetch_token(c)?;
        // A `-` alone has no line comment: a comment after it heads what follows.
        if self.recent_token(0).is_some_and(|t| t.tok == Tok::BlockEntry) {
            return Ok(());
        }
        self.scan_line_comment(comment_mark);
        Ok(())
    }

    /// The token that starts with `c` (not a stream end, directive or document indicator).
    fn fetch_token(&mut self, c: char) -> R<()> {
        let n = self.ch(1);
        match c {
            '[' => return self.fetch_flow_collection_start(Tok::FlowSequenceStart),
            '{' => return self.fetch_flow_collection_start(Tok::FlowMappingStart),
            ']' => return self.fetch_flow_collection_end(Tok::FlowSequenceEnd),
            '}' => return self.fetch_flow_collection_end(Tok::FlowMappingEnd),
            ',' => return self.fetch_flow_entry(),
            '-' if is_blankz(n) => return self.fetch_block_entry(),
            '?' if is_blankz(n) => return self.fetch_key(),
            // In a flow sequence, a `:` right after `[` or `,` starts a plain scalar (rc.4; in
            // rc.3 any `:` in a flow collection is a value indicator).
            ':' if self.flow_level > 0 && (self.dialect == Dialect::V4Rc3 || !self.after_flow_sequence_entry())
                || is_blankz(n) =>
            {
                return self.fetch_value();
            }
            '*' => return self.fetch_anchor(true),
            '&' => return self.fetch_anchor(false),
            '!' => return self.fetch_tag(),
            '|' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            '>' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            '\'' => return self.fetch_flow_scalar(true),
            '"' => return self.fetch_flow_scalar(false),
            _ => {}
        }
        let indicator = is_blankz(c) || "-?:,[]{}#&*!|>'\"%@`".contains(c);
        if !indicator || (c == '-' && !is_blank(n)) || ((c == '?' || c == ':') && !is_blankz(n)) {
            return self.fetch_plain_scalar();
        }
        let m = self.mark;
        Err(self.ctx_err("while scanning for the next token", m, "found character that cannot start any token"))
    }

    /// go-yaml's `isFlowSequence`: the last queued token is `[` or `,`.
    fn after_flow_sequence_entry(&self) -> bool {
        self.tokens.back().is_some_and(|t| matches!(t.tok, Tok::FlowEntry | Tok::FlowSequenceStart))
    }

    fn scan_to_next_token(&mut self) {
        let scan_mark = self.mark;
        loop {
            // go-yaml v4 rc.4 means to let a BOM start a line, but its check looks at the start
            // of its read buffer, not at the current character: with the input's own BOM
            // already taken off, that is a second BOM at the very start, and then whatever
            // character starts the line is skipped. (Buffer refills for inputs of many chunks
            // can move the start; not emulated, see KNOWN_GAPS.md.)
            if self.mark.column == 0 && self.text.starts_with('\u{FEFF}') {
                self.skip();
            }
            while self.ch(0) == ' ' || ((self.flow_level > 0 || !self.simple_key_allowed) && self.ch(0) == '\t') {
                self.skip();
            }
            self.line_comment_to_head();
            if self.ch(0) == '#' {
                self.scan_comments(scan_mark);
            }
            if is_break(self.ch(0)) {
                self.skip_line();
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                break;
            }
        }
    }

    /// Closes the block levels deeper than `column`. Each block end is placed before the foot
    /// comments (scanned since `scan_mark`) that sit at the closing level's indentation, so
    /// that they stay with the block's content.
    fn unroll_indent(&mut self, column: isize, scan_mark: Pos) {
        if self.flow_level > 0 {
            return;
        }
        let mut block_mark = scan_mark;
        // go-yaml steps the mark one back (to -1 at the very start).
        let mut block_index = scan_mark.index as isize - 1;
        block_mark.index = scan_mark.index.saturating_sub(1);
        while self.indent > column {
            let mut stop_index = block_index;
            for comment in self.comments.iter().rev() {
                if (comment.end_mark.index as isize) < stop_index {
                    break;
                }
                if comment.start_mark.column as isize == self.indent + 1 {
                    block_mark = comment.start_mark;
                    block_index = block_mark.index as isize;
                }
                stop_index = comment.scan_mark.index as isize;
            }
            self.push(Tok::BlockEnd, block_mark, block_mark);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    fn roll_indent(&mut self, column: usize, number: Option<usize>, tok: Tok, mark: Pos) -> R<()> {
        if self.flow_level > 0 {
            return Ok(());
        }
        let column = column as isize;
        if self.indent < column {
            self.indents.push(self.indent);
            if self.indents.len() > MAX_DEPTH {
                return Err(
                    self.key_ctx_err("while increasing indent level", format!("exceeded max depth of {MAX_DEPTH}"))
                );
            }
            self.indent = column;
            let token = Token { tok, start: mark, end: mark };
            self.insert_token(number, token);
        }
        Ok(())
    }

    /// go-yaml's `insertToken`: at the queue position of token number `number`, or at the end
    /// when there is none or it was already consumed (a key zeroed on entering a flow level).
    fn insert_token(&mut self, number: Option<usize>, token: Token) {
        match number.and_then(|n| n.checked_sub(self.tokens_parsed)) {
            Some(at) => self.tokens.insert(at.min(self.tokens.len()), token),
            None => self.tokens.push_back(token),
        }
    }

    /// A required key that turns out not to be one is an error (go-yaml looks at `required`
    /// alone: it is cleared whenever a key is used).
    fn remove_simple_key(&mut self) -> R<()> {
        if self.simple_key.required {
            return Err(self.ctx_err(
                "while scanning a simple key",
                self.simple_key.mark,
                "could not find expected ':'",
            ));
        }
        self.simple_key_possible = false;
        Ok(())
    }

    fn save_simple_key(&mut self) -> R<()> {
        let required = self.flow_level == 0 && self.indent == self.mark.column as isize;
        if self.simple_key_allowed {
            self.remove_simple_key()?;
            self.simple_key_possible = true;
            self.simple_key = SimpleKey {
                required,
                flow_level: self.flow_level,
                token_number: self.tokens_parsed + self.tokens.len(),
                mark: self.mark,
                saved: true,
            };
        }
        Ok(())
    }

    fn increase_flow_level(&mut self) -> R<()> {
        self.flow_level += 1;
        if self.flow_level > MAX_DEPTH {
            // rc.3 gives the error the new level's key mark: where the collection starts.
            let problem = format!("exceeded max depth of {MAX_DEPTH}");
            if self.dialect == Dialect::V4Rc3 {
                return Err(self.ctx_err("while increasing flow level", self.mark, problem));
            }
            return Err(self.key_ctx_err("while increasing flow level", problem));
        }
        if self.simple_key_possible {
            self.simple_key_stack.push(self.simple_key);
        }
        self.simple_key = SimpleKey::default();
        // rc.3 starts the new level without a possible key; rc.4 keeps the flag with an empty key
        // (so `{:` inserts a key before the stream start), which rc.6 refuses as never saved.
        if self.dialect == Dialect::V4Rc3 {
            self.simple_key_possible = false;
        }
        Ok(())
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            if let Some(last) = self.simple_key_stack.last().copied()
                && last.flow_level == self.flow_level
            {
                self.simple_key = last;
                self.simple_key_stack.pop();
                self.simple_key_possible = true;
            }
        }
    }

    fn fetch_stream_end(&mut self) -> R<()> {
        if self.mark.column != 0 {
            self.mark.column = 0;
            self.mark.line += 1;
        }
        self.unroll_indent(-1, self.mark);
        self.remove_simple_key()?;
        self.simple_key = SimpleKey::default();
        self.simple_key_stack.clear();
        self.simple_key_allowed = false;
        let m = self.mark;
        self.push(Tok::StreamEnd, m, m);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, tok: Tok) -> R<()> {
        self.unroll_indent(-1, self.mark);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        self.skip();
        self.skip();
        let end = self.mark;
        self.push(tok, start, end);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, tok: Tok) -> R<()> {
        self.save_simple_key()?;
        self.increase_flow_level()?;
        self.simple_key_allowed = true;
        self.push_one_char(tok);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, tok: Tok) -> R<()> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        self.push_one_char(tok);
        Ok(())
    }

    /// Pushes a token made of the one character at the cursor.
    fn push_one_char(&mut self, tok: Tok) {
        let start = self.mark;
        self.skip();
        let end = self.mark;
        self.push(tok, start, end);
    }

    fn fetch_flow_entry(&mut self) -> R<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.push_one_char(Tok::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> R<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.err(None, "block sequence entries are not allowed in this context"));
            }
            let m = self.mark;
            self.roll_indent(m.column, None, Tok::BlockSequenceStart, m)?;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.push_one_char(Tok::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> R<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.err(None, "mapping keys are not allowed in this context"));
            }
            let m = self.mark;
            self.roll_indent(m.column, None, Tok::BlockMappingStart, m)?;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        self.push_one_char(Tok::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> R<()> {
        let sk = self.simple_key;
        // rc.4: a simple key ends on its own line; its length does not matter. rc.3: also
        // within 1024 characters, and a required key gone stale is an error here.
        let valid = match self.dialect {
            Dialect::V4Rc3 if self.simple_key_possible && self.is_stale(&sk) => {
                self.stale_key(sk)?;
                self.simple_key_possible = false;
                false
            }
            Dialect::V4Rc3 => self.simple_key_possible,
            Dialect::V4Rc6 => self.simple_key_possible && sk.saved && sk.mark.line == self.mark.line,
            _ => self.simple_key_possible && sk.mark.line == self.mark.line,
        };
        if valid {
            self.insert_token(Some(sk.token_number), Token { tok: Tok::Key, start: sk.mark, end: sk.mark });
            self.roll_indent(sk.mark.column, Some(sk.token_number), Tok::BlockMappingStart, sk.mark)?;
            self.simple_key_possible = false;
            self.simple_key.required = false;
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    return Err(self.err(None, "mapping values are not allowed in this context"));
                }
                let m = self.mark;
                self.roll_indent(m.column, None, Tok::BlockMappingStart, m)?;
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        self.push_one_char(Tok::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> R<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        let mut name = String::new();
        while is_anchor_char(self.ch(0)) {
            self.read(&mut name);
        }
        let c = self.ch(0);
        if name.is_empty() || !(is_blankz(c) || "?:,]}%@`".contains(c)) {
            let ctx = if alias { "while scanning an alias" } else { "while scanning an anchor" };
            return Err(self.ctx_err(ctx, start, "did not find expected alphabetic or numeric character"));
        }
        let end = self.mark;
        self.push(if alias { Tok::Alias(name) } else { Tok::Anchor(name) }, start, end);
        Ok(())
    }

    fn fetch_tag(&mut self) -> R<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        let (handle, suffix);
        let verbatim = self.ch(1) == '<';
        if verbatim {
            self.skip();
            self.skip();
            suffix = self.scan_tag_uri(false, true, None, start)?;
            if self.ch(0) != '>' {
                return Err(self.ctx_err("while scanning a tag", start, "did not find the expected '>'"));
            }
            self.skip();
            handle = String::new();
        } else {
            let h = self.scan_tag_handle(false, start)?;
            if h.len() > 1 && h.starts_with('!') && h.ends_with('!') {
                handle = h;
                suffix = self.scan_tag_uri(false, false, None, start)?;
            } else {
                let s = self.scan_tag_uri(false, false, Some(&h), start)?;
                if s.is_empty() {
                    handle = String::new();
                    suffix = "!".to_string();
                } else {
                    handle = "!".to_string();
                    suffix = s;
                }
            }
        }
        let c = self.ch(0);
        // rc.4 lets a short tag run into a flow comma (its parser then refuses the comma); a
        // verbatim tag must end in white space in every dialect.
        let flow_comma = self.flow_level > 0 && c == ',' && self.dialect != Dialect::V4Rc3 && !verbatim;
        if !is_blankz(c) && !flow_comma {
            return Err(self.ctx_err("while scanning a tag", start, "did not find expected whitespace or line break"));
        }
        let end = self.mark;
        self.push(Tok::Tag(handle, suffix), start, end);
        Ok(())
    }

    fn scan_tag_handle(&mut self, directive: bool, start: Pos) -> R<String> {
        let ctx = if directive { "while scanning a tag directive" } else { "while scanning a tag" };
        if self.ch(0) != '!' {
            return Err(self.ctx_err(ctx, start, "did not find expected '!'"));
        }
        let mut s = String::new();
        self.read(&mut s);
        while is_alpha(self.ch(0)) {
            self.read(&mut s);
        }
        if self.ch(0) == '!' {
            self.read(&mut s);
        } else if directive && s != "!" {
            return Err(self.ctx_err("while parsing a tag directive", start, "did not find expected '!'"));
        }
        Ok(s)
    }

    /// `verbatim`: a `!<...>` tag or a `%TAG` prefix, where flow indicators are URI characters
    /// (rc.4). rc.3 has one set for every tag: `,` `[` `]` but not `{` `}`, and no error for
    /// the character that ends a short tag.
    fn scan_tag_uri(&mut self, directive: bool, verbatim: bool, head: Option<&str>, start: Pos) -> R<String> {
        let ctx = if directive { "while parsing a %TAG directive" } else { "while parsing a tag" };
        let mut s = String::new();
        let mut length = 0;
        if let Some(h) = head {
            length = h.len();
            s.push_str(h.get(1..).unwrap_or(""));
        }
        loop {
            let c = self.ch(0);
            let flow_chars = match self.dialect {
                Dialect::V4Rc3 => ",[]",
                _ if verbatim => ",[]{}",
                _ => "",
            };
            let ok = is_alpha(c) || (";/?:@&=+$.!~*'()%".contains(c) || flow_chars.contains(c)) && c != '\0';
            if !ok {
                break;
            }
            if c == '%' {
                self.scan_uri_escapes(directive, start, &mut s)?;
            } else {
                self.read(&mut s);
            }
            length += 1;
        }
        // go-yaml v4: a printable ASCII character that ends a short tag is named.
        let c = self.ch(0);
        if !verbatim && self.dialect != Dialect::V4Rc3 && (' '..='~').contains(&c) && c != ' ' {
            return Err(self.ctx_err(ctx, start, format!("found character '{c}' that is not allowed in a YAML tag")));
        }
        if length == 0 {
            return Err(self.ctx_err(ctx, start, "did not find expected tag URI"));
        }
        Ok(s)
    }

    fn scan_uri_escapes(&mut self, directive: bool, start: Pos, s: &mut String) -> R<()> {
        let ctx = if directive { "while parsing a %TAG directive" } else { "while parsing a tag" };
        let mut bytes: Vec<u8> = Vec::new();
        let mut width = 0usize;
        loop {
            let (c1, c2) = (self.ch(1), self.ch(2));
            if !(self.ch(0) == '%' && c1.is_ascii_hexdigit() && c2.is_ascii_hexdigit()) {
                return Err(self.ctx_err(ctx, start, "did not find URI escaped octet"));
            }
            let octet = (c1.to_digit(16).unwrap_or(0) * 16 + c2.to_digit(16).unwrap_or(0)) as u8;
            if width == 0 {
                width = if octet & 0x80 == 0 {
                    1
                } else if octet & 0xE0 == 0xC0 {
                    2
                } else if octet & 0xF0 == 0xE0 {
                    3
                } else if octet & 0xF8 == 0xF0 {
                    4
                } else {
                    0
                };
                if width == 0 {
                    return Err(self.ctx_err(ctx, start, "found an incorrect leading UTF-8 octet"));
                }
            } else if octet & 0xC0 != 0x80 {
                return Err(self.ctx_err(ctx, start, "found an incorrect trailing UTF-8 octet"));
            }
            bytes.push(octet);
            self.skip();
            self.skip();
            self.skip();
            if bytes.len() == width {
                break;
            }
        }
        s.push_str(&String::from_utf8_lossy(&bytes));
        Ok(())
    }

    fn fetch_directive(&mut self) -> R<()> {
        self.unroll_indent(-1, self.mark);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        let mut name = String::new();
        while is_alpha(self.ch(0)) {
            self.read(&mut name);
        }
        if name.is_empty() {
            return Err(self.ctx_err("while scanning a directive", start, "could not find expected directive name"));
        }
        if !is_blankz(self.ch(0)) {
            return Err(self.ctx_err(
                "while scanning a directive",
                start,
                "found unexpected non-alphabetical character",
            ));
        }
        let tok = if name == "YAML" {
            while is_blank(self.ch(0)) {
                self.skip();
            }
            let major = self.scan_version_number(start)?;
            if self.ch(0) != '.' {
                return Err(self.ctx_err(
                    "while scanning a %YAML directive",
                    start,
                    "did not find expected digit or '.' character",
                ));
            }
            self.skip();
            let minor = self.scan_version_number(start)?;
            Tok::VersionDirective(major, minor)
        } else if name == "TAG" {
            while is_blank(self.ch(0)) {
                self.skip();
            }
            let handle = self.scan_tag_handle(true, start)?;
            if !is_blank(self.ch(0)) {
                return Err(self.ctx_err("while scanning a %TAG directive", start, "did not find expected whitespace"));
            }
            while is_blank(self.ch(0)) {
                self.skip();
            }
            let prefix = self.scan_tag_uri(true, true, None, start)?;
            if !is_blankz(self.ch(0)) {
                return Err(self.ctx_err(
                    "while scanning a %TAG directive",
                    start,
                    "did not find expected whitespace or line break",
                ));
            }
            Tok::TagDirective(handle, prefix)
        } else {
            return Err(self.ctx_err("while scanning a directive", start, "found unknown directive name"));
        };
        let end = self.mark;
        while is_blank(self.ch(0)) {
            self.skip();
        }
        if self.ch(0) == '#' {
            while !is_breakz(self.ch(0)) {
                self.skip();
            }
        }
        if !is_breakz(self.ch(0)) {
            return Err(self.ctx_err(
                "while scanning a directive",
                start,
                "did not find expected comment or line break",
            ));
        }
        self.skip_line();
        self.push(tok, start, end);
        Ok(())
    }

    fn scan_version_number(&mut self, start: Pos) -> R<u32> {
        let mut value: u32 = 0;
        let mut length = 0;
        while let Some(d) = self.ch(0).to_digit(10) {
            length += 1;
            if length > 9 {
                return Err(self.ctx_err(
                    "while scanning a %YAML directive",
                    start,
                    "found extremely long version number",
                ));
            }
            value = value * 10 + d;
            self.skip();
        }
        if length == 0 {
            return Err(self.ctx_err(
                "while scanning a %YAML directive",
                start,
                "did not find expected version number",
            ));
        }
        Ok(value)
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> R<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let ctx = "while scanning a block scalar";
        let mut chomping: i8 = 0;
        let mut increment: usize = 0;
        let c = self.ch(0);
        if c == '+' || c == '-' {
            chomping = if c == '+' { 1 } else { -1 };
            self.skip();
            if let Some(d) = self.ch(0).to_digit(10) {
                if d == 0 {
                    return Err(self.ctx_err(ctx, start, "found an indentation indicator equal to 0"));
                }
                increment = d as usize;
                self.skip();
            }
        } else if let Some(d) = c.to_digit(10) {
            if d == 0 {
                return Err(self.ctx_err(ctx, start, "found an indentation indicator equal to 0"));
            }
            increment = d as usize;
            self.skip();
            let c = self.ch(0);
            if c == '+' || c == '-' {
                chomping = if c == '+' { 1 } else { -1 };
                self.skip();
            }
        }
        while is_blank(self.ch(0)) {
            self.skip();
        }
        if self.ch(0) == '#' {
            self.scan_line_comment(start);
            while !is_breakz(self.ch(0)) {
                self.skip();
            }
        }
        if !is_breakz(self.ch(0)) {
            return Err(self.ctx_err(ctx, start, "did not find expected comment or line break"));
        }
        if is_break(self.ch(0)) {
            self.skip_line();
        }
        let mut end = self.mark;
        // The content's column; `None` until the first non-empty line decides it.
        let mut indent: Option<usize> = None;
        if increment > 0 {
            indent = Some(if self.indent >= 0 { self.indent as usize + increment } else { increment });
        }
        let mut string = String::new();
        let mut leading_break = String::new();
        let mut trailing_breaks = String::new();
        self.block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        let mut leading_blank = false;
        while Some(self.mark.column) == indent && !is_z(self.ch(0)) {
            let trailing_blank = is_blank(self.ch(0));
            if !literal && leading_break.starts_with('\n') && !leading_blank && !trailing_blank {
                if trailing_breaks.is_empty() {
                    string.push(' ');
                }
                leading_break.clear();
            } else {
                string.push_str(&leading_break);
                leading_break.clear();
            }
            string.push_str(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = is_blank(self.ch(0));
            self.read_to_break(&mut string);
            self.read_line(&mut leading_break);
            self.block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        }
        if chomping != -1 {
            string.push_str(&leading_break);
        }
        if chomping == 1 {
            string.push_str(&trailing_breaks);
        }
        self.push(Tok::Scalar(Rc::new(string), if literal { Style::Literal } else { Style::Folded }), start, end);
        Ok(())
    }

    fn block_scalar_breaks(
        &mut self,
        indent: &mut Option<usize>,
        breaks: &mut String,
        start: Pos,
        end: &mut Pos,
    ) -> R<()> {
        let mut max_indent = 0usize;
        *end = self.mark;
        loop {
            while indent.is_none_or(|i| self.mark.column < i) && self.ch(0) == ' ' {
                self.skip();
            }
            if self.mark.column > max_indent {
                max_indent = self.mark.column;
            }
            if indent.is_none_or(|i| self.mark.column < i) && self.ch(0) == '\t' {
                return Err(self.ctx_err(
                    "while scanning a block scalar",
                    start,
                    "found a tab character where an indentation space is expected",
                ));
            }
            if !is_break(self.ch(0)) {
                break;
            }
            self.read_line(breaks);
            *end = self.mark;
        }
        if indent.is_none() {
            // At least one column in from the enclosing block; outside any block, libyaml's
            // "at least 1" is column 2 for rc.4 (0-based columns) but column 1 for rc.6 (1-based).
            let min =
                if self.indent < 0 && self.dialect == Dialect::V4Rc6 { 0 } else { (self.indent + 1).max(1) as usize };
            *indent = Some(max_indent.max(min));
        }
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, single: bool) -> R<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let ctx = "while scanning a quoted scalar";
        let start = self.mark;
        self.skip();
        let mut string = String::new();
        let mut leading_break = String::new();
        let mut trailing_breaks = String::new();
        let mut whitespaces = String::new();
        loop {
            if self.mark.column == 0 && (self.check3('-') || self.check3('.')) && is_blankz(self.ch(3)) {
                return Err(self.ctx_err(ctx, start, "found unexpected document indicator"));
            }
            if is_z(self.ch(0)) {
                return Err(self.ctx_err(ctx, start, "found unexpected end of stream"));
            }
            let mut leading_blanks = false;
            while !is_blankz(self.ch(0)) {
                let c = self.ch(0);
                if single && c == '\'' && self.ch(1) == '\'' {
                    string.push('\'');
                    self.skip();
                    self.skip();
                } else if c == if single { '\'' } else { '"' } {
                    break;
                } else if !single && c == '\\' && is_break(self.ch(1)) {
                    self.skip();
                    self.skip_line();
                    leading_blanks = true;
                    break;
                } else if !single && c == '\\' {
                    let mut code_length = 0;
                    match self.ch(1) {
                        '0' => string.push('\0'),
                        'a' => string.push('\x07'),
                        'b' => string.push('\x08'),
                        't' | '\t' => string.push('\t'),
                        'n' => string.push('\n'),
                        'v' => string.push('\x0B'),
                        'f' => string.push('\x0C'),
                        'r' => string.push('\r'),
                        'e' => string.push('\x1B'),
                        ' ' => string.push(' '),
                        '"' => string.push('"'),
                        '/' => string.push('/'),
                        '\'' => string.push('\''),
                        '\\' => string.push('\\'),
                        'N' => string.push('\u{85}'),
                        '_' => string.push('\u{A0}'),
                        'L' => string.push('\u{2028}'),
                        'P' => string.push('\u{2029}'),
                        'x' => code_length = 2,
                        'u' => code_length = 4,
                        'U' => code_length = 8,
                        _ => {
                            return Err(self.ctx_err(ctx, start, "found unknown escape character"));
                        }
                    }
                    self.skip();
                    self.skip();
                    if code_length > 0 {
                        let mut value: u32 = 0;
                        for k in 0..code_length {
                            match self.ch(k).to_digit(16) {
                                Some(d) => value = (value << 4) + d,
                                None => {
                                    return Err(self.ctx_err(ctx, start, "did not find expected hexadecimal number"));
                                }
                            }
                        }
                        match char::from_u32(value) {
                            Some(ch) => string.push(ch),
                            None => {
                                return Err(self.ctx_err(ctx, start, "found invalid Unicode character escape code"));
                            }
                        }
                        for _ in 0..code_length {
                            self.skip();
                        }
                    }
                } else {
                    self.read(&mut string);
                }
            }
            if self.ch(0) == if single { '\'' } else { '"' } {
                break;
            }
            while is_blank(self.ch(0)) || is_break(self.ch(0)) {
                if is_blank(self.ch(0)) {
                    if leading_blanks {
                        self.skip();
                    } else {
                        self.read(&mut whitespaces);
                    }
                } else if !leading_blanks {
                    whitespaces.clear();
                    self.read_line(&mut leading_break);
                    leading_blanks = true;
                } else {
                    self.read_line(&mut trailing_breaks);
                }
            }
            if leading_blanks {
                if leading_break.starts_with('\n') {
                    if trailing_breaks.is_empty() {
                        string.push(' ');
                    } else {
                        string.push_str(&trailing_breaks);
                    }
                } else {
                    string.push_str(&leading_break);
                    string.push_str(&trailing_breaks);
                }
                leading_break.clear();
                trailing_breaks.clear();
            } else {
                string.push_str(&whitespaces);
                whitespaces.clear();
            }
        }
        self.skip();
        let end = self.mark;
        self.push(Tok::Scalar(Rc::new(string), if single { Style::Single } else { Style::Double }), start, end);
        Ok(())
    }

    fn fetch_plain_scalar(&mut self) -> R<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        let mut end = self.mark;
        let indent = self.indent + 1;
        let mut string = String::new();
        let mut leading_break = String::new();
        let mut trailing_breaks = String::new();
        let mut whitespaces = String::new();
        let mut leading_blanks = false;
        loop {
            if self.mark.column == 0 && (self.check3('-') || self.check3('.')) && is_blankz(self.ch(3)) {
                break;
            }
            if self.ch(0) == '#' {
                break;
            }
            while !is_blankz(self.ch(0)) {
                let c = self.ch(0);
                // go-yaml v4: in a flow, `?` ends a plain scalar only before a blank; rc.6 also
                // ends it at a `:` before `,` `]` or `}`.
                if (c == ':' && is_blankz(self.ch(1)))
                    || (self.flow_level > 0 && (",[]{}".contains(c) || (c == '?' && is_blankz(self.ch(1)))))
                    || (self.flow_level > 0
                        && c == ':'
                        && self.dialect == Dialect::V4Rc6
                        && matches!(self.ch(1), ',' | ']' | '}'))
                {
                    break;
                }
                if leading_blanks || !whitespaces.is_empty() {
                    if leading_blanks {
                        if leading_break.starts_with('\n') {
                            if trailing_breaks.is_empty() {
                                string.push(' ');
                            } else {
                                string.push_str(&trailing_breaks);
                            }
                        } else {
                            string.push_str(&leading_break);
                            string.push_str(&trailing_breaks);
                        }
                        leading_break.clear();
                        trailing_breaks.clear();
                        leading_blanks = false;
                    } else {
                        string.push_str(&whitespaces);
                        whitespaces.clear();
                    }
                }
                self.read(&mut string);
                end = self.mark;
            }
            if !(is_blank(self.ch(0)) || is_break(self.ch(0))) {
                break;
            }
            while is_blank(self.ch(0)) || is_break(self.ch(0)) {
                if is_blank(self.ch(0)) {
                    if leading_blanks && (self.mark.column as isize) < indent && self.ch(0) == '\t' {
                        return Err(self.ctx_err(
                            "while scanning a plain scalar",
                            start,
                            "found a tab character that violates indentation",
                        ));
                    }
                    if leading_blanks {
                        self.skip();
                    } else {
                        self.read(&mut whitespaces);
                    }
                } else if !leading_blanks {
                    whitespaces.clear();
                    self.read_line(&mut leading_break);
                    leading_blanks = true;
                } else {
                    self.read_line(&mut trailing_breaks);
                }
            }
            if self.flow_level == 0 && (self.mark.column as isize) < indent {
                break;
            }
        }
        self.push(Tok::Scalar(Rc::new(string), Style::Plain), start, end);
        if leading_blanks {
            self.simple_key_allowed = true;
        }
        Ok(())
    }

    // --- comments (go-yaml's scanLineComment / scanComments) ----------------------------------

    /// The byte `k` bytes past the cursor, 0 past the end.
    fn byte_at(&self, k: usize) -> u8 {
        self.text.as_bytes().get(self.pos + k).copied().unwrap_or(0)
    }

    fn blank_at(&self, k: usize) -> bool {
        matches!(self.byte_at(k), b' ' | b'\t')
    }

    /// go-yaml's `isLineBreak` on the bytes at `k`.
    fn break_at(&self, k: usize) -> bool {
        match self.byte_at(k) {
            b'\r' | b'\n' => true,
            0xC2 => self.byte_at(k + 1) == 0x85,
            0xE2 => self.byte_at(k + 1) == 0x80 && matches!(self.byte_at(k + 2), 0xA8 | 0xA9),
            _ => false,
        }
    }

    fn breakz_at(&self, k: usize) -> bool {
        self.pos + k >= self.text.len() || self.break_at(k)
    }

    /// A mark `peek` bytes ahead on the given line and column (go-yaml adds a byte count to its
    /// character index here).
    fn mark_ahead(&self, peek: usize, line: usize, column: usize) -> Pos {
        Pos { index: self.mark.index + peek, line, column, offset: self.mark.offset + peek }
    }

    /// Moves the cursor to the byte `seen` (a `#` found by peeking), then reads the comment to
    /// the end of its line into `text`. Returns the mark where the text starts.
    fn read_comment(&mut self, seen: usize, text: &mut String) -> Pos {
        let mut start = self.mark;
        loop {
            if self.pos >= self.text.len() || is_break(self.ch(0)) {
                if self.mark.index >= seen || self.pos >= self.text.len() {
                    break;
                }
                self.skip_line();
            } else if self.mark.index >= seen {
                if text.is_empty() {
                    start = self.mark;
                }
                self.read_to_break(text);
            } else {
                self.skip();
            }
        }
        start
    }

    /// Records the comment text gathered so far as a foot comment; `marks` are its scan,
    /// token, start and end marks.
    fn push_foot(&mut self, marks: (Pos, Pos, Pos, Pos), text: &mut String) {
        let (scan_mark, token_mark, start_mark, end_mark) = marks;
        let foot = std::mem::take(text);
        self.comments.push(Comment { scan_mark, token_mark, start_mark, end_mark, foot, ..Comment::default() });
    }

    /// A comment on the line of the token just scanned becomes a line comment of the token at
    /// `token_mark`.
    fn scan_line_comment(&mut self, token_mark: Pos) {
        if self.newlines > 0 {
            return;
        }
        let mut peek = 0;
        while peek < COMMENT_PEEK && self.blank_at(peek) {
            peek += 1;
        }
        if peek == COMMENT_PEEK || self.byte_at(peek) != b'#' {
            return;
        }
        let seen = self.mark.index + peek;
        let mut text = String::new();
        let start_mark = self.read_comment(seen, &mut text);
        if !text.is_empty() {
            let end_mark = self.mark;
            self.comments.push(Comment {
                scan_mark: token_mark,
                token_mark,
                start_mark,
                end_mark,
                line: text,
                ..Comment::default()
            });
        }
    }

    /// go-yaml's repositioning of a line comment after a lone `-` that opens a sequence: when
    /// content follows on the next line, the comment heads that content.
    fn line_comment_to_head(&mut self) {
        let (Some(a), Some(b)) = (self.recent_token(1), self.recent_token(0)) else {
            return;
        };
        if a.tok != Tok::BlockSequenceStart || b.tok != Tok::BlockEntry || self.break_at(0) {
            return;
        }
        let mark = self.mark;
        if let Some(comment) = self.comments.last_mut()
            && !comment.line.is_empty()
        {
            comment.head = std::mem::take(&mut comment.line);
            if comment.start_mark.line + 1 == mark.line {
                comment.token_mark = mark;
            }
        }
    }

    /// Scans the comment lines at the cursor (a `#`) and the empty lines between them, and
    /// splits them into foot comments of what came before and a head comment of what follows,
    /// by empty lines and indentation as go-yaml does.
    fn scan_comments(&mut self, scan_mark: Pos) {
        let mut scan_mark = scan_mark;
        let last = self.recent_token(0);
        let token = match last {
            Some(t) if t.tok == Tok::FlowEntry => self.recent_token(1).or(last),
            other => other,
        };
        let (mut token_mark, token_is_value) = match token {
            Some(t) => (t.start, t.tok == Tok::Value),
            None => (Pos::default(), false),
        };
        let mut start_mark = Pos::default();
        let mut next_indent = self.indent.max(0) as usize;
        let mut recent_empty = false;
        let mut first_empty = self.newlines <= 1;
        let mut line = self.mark.line;
        let mut column = self.mark.column;
        let mut text = String::new();
        // Where a comment must start to still be a foot of the content before it.
        // go-yaml rc.6 kept rc.4's constants with 1-based marks: the foot line is worked out on
        // the first line too, and moves down after a character at the second column.
        let rc6 = self.dialect == Dialect::V4Rc6;
        let mut foot_line: isize = -1;
        if scan_mark.line > 0 || rc6 {
            foot_line = self.mark.line as isize - self.newlines as isize + 1;
            if self.newlines == 0 && self.mark.column > usize::from(!rc6) {
                foot_line += 1;
            }
        }
        let mut peek = 0;
        while peek < COMMENT_PEEK {
            column += 1;
            if self.blank_at(peek) {
                peek += 1;
                continue;
            }
            let c = self.byte_at(peek);
            let close_flow = self.flow_level > 0 && (c == b']' || c == b'}');
            if close_flow || self.breakz_at(peek) {
                if close_flow || !recent_empty {
                    let dedented = (start_mark.column as isize) - 1 < next_indent as isize;
                    if close_flow
                        || first_empty && (start_mark.line as isize == foot_line && !token_is_value || dedented)
                    {
                        if !text.is_empty() {
                            if dedented {
                                token_mark = start_mark;
                            }
                            let end_mark = self.mark_ahead(peek, line, column);
                            self.push_foot((scan_mark, token_mark, start_mark, end_mark), &mut text);
                            scan_mark = end_mark;
                            token_mark = scan_mark;
                        }
                    } else if !text.is_empty() && self.pos + peek < self.text.len() {
                        text.push('\n');
                    }
                }
                if !self.break_at(peek) {
                    break;
                }
                first_empty = false;
                recent_empty = true;
                column = 0;
                line += 1;
                peek += 1;
                continue;
            }
            if !text.is_empty()
                && (close_flow || (column as isize) - 1 < next_indent as isize && column != start_mark.column)
            {
                let end_mark = self.mark_ahead(peek, line, column);
                self.push_foot((scan_mark, token_mark, start_mark, end_mark), &mut text);
                scan_mark = end_mark;
                token_mark = scan_mark;
            }
            if c != b'#' {
                break;
            }
            if text.is_empty() {
                start_mark = self.mark_ahead(peek, line, column);
            } else {
                text.push('\n');
            }
            recent_empty = false;
            let seen = self.mark.index + peek;
            self.read_comment(seen, &mut text);
            // go-yaml restarts its look-ahead at 1 (past the line break) without counting a
            // new line.
            peek = 1;
            column = 0;
            line = self.mark.line;
            next_indent = self.indent.max(0) as usize;
        }
        if !text.is_empty() {
            let end_mark = self.mark_ahead(peek.saturating_sub(1), line, column);
            self.comments.push(Comment {
                scan_mark,
                token_mark: start_mark,
                start_mark,
                end_mark,
                head: text,
                ..Comment::default()
            });
        }
    }
}
