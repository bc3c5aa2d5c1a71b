//! The event parser: libyaml's state machine (iterative, no recursion) with go-yaml's
//! problem/context texts.

use std::rc::Rc;

use super::scanner::{Scanner, Style, Tok, Token};
use super::{Failure, FailureKind, Pos};
use crate::node::Comments;

#[derive(Clone, Debug)]
pub(super) enum Event {
    StreamEnd,
    /// `start`: the first token of the document (its `---` or directive when explicit).
    DocumentStart {
        start: Pos,
    },
    DocumentEnd,
    Alias {
        name: String,
        start: Pos,
        comments: Comments,
    },
    Scalar {
        value: String,
        style: Style,
        anchor: Option<String>,
        tag: Option<String>,
        start: Pos,
        comments: Comments,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
        flow: bool,
        start: Pos,
        comments: Comments,
    },
    /// The line and foot comments of the sequence.
    SequenceEnd(Comments),
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
        flow: bool,
        start: Pos,
        comments: Comments,
    },
    /// The line and foot comments of the mapping.
    MappingEnd(Comments),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

pub(super) struct Parser<'a> {
    pub scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    marks: Vec<Pos>,
    tag_directives: Vec<(String, String)>,
    /// Comments taken from the scanner and not yet given to an event (go-yaml's parser
    /// fields `HeadComment`, `LineComment`, `FootComment` and `stem_comment`).
    pending: Comments,
    stem: String,
}

type R<T> = Result<T, Failure>;

fn perr(context: Option<(&'static str, Pos)>, problem: &str, mark: Pos) -> Failure {
    Failure { kind: FailureKind::Parser, context, problem: problem.to_string(), mark, unset_context: false }
}

fn is(t: &Token, toks: &[Tok]) -> bool {
    toks.iter().any(|k| std::mem::discriminant(k) == std::mem::discriminant(&t.tok))
}

impl<'a> Parser<'a> {
    pub fn new(scanner: Scanner<'a>) -> Self {
        Parser {
            scanner,
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
            tag_directives: Vec::new(),
            pending: Comments::default(),
            stem: String::new(),
        }
    }

    /// The next token, after taking the comments that come before it (go-yaml's `peekToken`).
    fn peek(&mut self) -> R<Token> {
        let token = self.scanner.peek()?.clone();
        self.unfold_comments(&token);
        Ok(token)
    }

    /// The next token, taken off the queue.
    fn next(&mut self) -> R<Token> {
        let token = self.peek()?;
        self.scanner.skip_token();
        Ok(token)
    }

    /// go-yaml's `UnfoldComments`: the scanner's comments attached at or before `token` join
    /// the pending head, line and foot comments (a head comment waits past a block end).
    fn unfold_comments(&mut self, token: &Token) {
        let comments = &mut self.scanner.comments;
        while let Some(comment) = comments.get_mut(self.scanner.comments_taken) {
            if token.start.index < comment.token_mark.index {
                break;
            }
            if !comment.head.is_empty() {
                if token.tok == Tok::BlockEnd {
                    break;
                }
                join(&mut self.pending.head, &comment.head);
            }
            join(&mut self.pending.foot, &comment.foot);
            join(&mut self.pending.line, &comment.line);
            *comment = Default::default();
            self.scanner.comments_taken += 1;
        }
    }

    /// go-yaml's `setEventComments`: the pending comments go to the event being made.
    fn take_comments(&mut self) -> Comments {
        self.stem.clear();
        std::mem::take(&mut self.pending)
    }

    /// The head comment of a block collection: the stem set aside by a sequence entry.
    fn take_stem(&mut self) -> Comments {
        Comments { head: std::mem::take(&mut self.stem), ..Comments::default() }
    }

    /// go-yaml's `splitStemComment`: when a collection starts under a `-`, the head comment
    /// gathered before the `-` heads the collection, not its first entry.
    fn split_stem(&mut self, stem_len: usize) -> R<()> {
        if stem_len == 0 {
            return Ok(());
        }
        let t = self.peek()?;
        if !matches!(t.tok, Tok::BlockSequenceStart | Tok::BlockMappingStart) {
            return Ok(());
        }
        let head = std::mem::take(&mut self.pending.head);
        self.stem = head.get(..stem_len).unwrap_or_default().to_string();
        self.pending.head = head.get(stem_len + 1..).unwrap_or_default().to_string();
        Ok(())
    }

    fn pop_state(&mut self) -> State {
        self.states.pop().unwrap_or(State::End)
    }

    fn pop_mark(&mut self) -> Pos {
        self.marks.pop().unwrap_or_default()
    }

    /// The next event; `Ok(None)` after the stream end.
    pub fn next_event(&mut self) -> R<Option<Event>> {
        loop {
            let ev = match self.state {
                State::End => return Ok(None),
                State::StreamStart => {
                    let t = self.next()?;
                    if t.tok != Tok::StreamStart {
                        return Err(perr(None, "did not find expected <stream-start>", t.start));
                    }
                    self.state = State::ImplicitDocumentStart;
                    None
                }
                State::ImplicitDocumentStart => self.document_start(true)?,
                State::DocumentStart => self.document_start(false)?,
                State::DocumentContent => {
                    let t = self.peek()?;
                    if is(
                        &t,
                        &[
                            Tok::VersionDirective(0, 0),
                            Tok::TagDirective(String::new(), String::new()),
                            Tok::DocumentStart,
                            Tok::DocumentEnd,
                            Tok::StreamEnd,
                        ],
                    ) {
                        self.state = self.pop_state();
                        Some(empty_scalar(t.start))
                    } else {
                        Some(self.node(true, false)?)
                    }
                }
                State::DocumentEnd => {
                    let t = self.peek()?;
                    if t.tok == Tok::DocumentEnd {
                        self.scanner.skip_token();
                    }
                    self.tag_directives.clear();
                    self.state = State::DocumentStart;
                    // The document's foot comment: not kept.
                    self.take_comments();
                    Some(Event::DocumentEnd)
                }
                State::BlockNode => Some(self.node(true, false)?),
                State::BlockSequenceFirstEntry => Some(self.block_sequence_entry(true)?),
                State::BlockSequenceEntry => Some(self.block_sequence_entry(false)?),
                State::IndentlessSequenceEntry => Some(self.indentless_sequence_entry()?),
                State::BlockMappingFirstKey => Some(self.block_mapping_key(true)?),
                State::BlockMappingKey => Some(self.block_mapping_key(false)?),
                State::BlockMappingValue => Some(self.block_mapping_value()?),
                State::FlowSequenceFirstEntry => Some(self.flow_sequence_entry(true)?),
                State::FlowSequenceEntry => Some(self.flow_sequence_entry(false)?),
                State::FlowSequenceEntryMappingKey => {
                    let t = self.peek()?;
                    if !is(&t, &[Tok::Value, Tok::FlowEntry, Tok::FlowSequenceEnd]) {
                        self.states.push(State::FlowSequenceEntryMappingValue);
                        Some(self.node(false, false)?)
                    } else {
                        self.scanner.skip_token();
                        self.state = State::FlowSequenceEntryMappingValue;
                        Some(empty_scalar(t.end))
                    }
                }
                State::FlowSequenceEntryMappingValue => {
                    let mut t = self.peek()?;
                    if t.tok == Tok::Value {
                        self.scanner.skip_token();
                        t = self.peek()?;
                        if !is(&t, &[Tok::FlowEntry, Tok::FlowSequenceEnd]) {
                            self.states.push(State::FlowSequenceEntryMappingEnd);
                            let ev = self.node(false, false)?;
                            return Ok(Some(ev));
                        }
                    }
                    self.state = State::FlowSequenceEntryMappingEnd;
                    Some(empty_scalar(t.start))
                }
                State::FlowSequenceEntryMappingEnd => {
                    self.peek()?;
                    self.state = State::FlowSequenceEntry;
                    Some(Event::MappingEnd(Comments::default()))
                }
                State::FlowMappingFirstKey => Some(self.flow_mapping_key(true)?),
                State::FlowMappingKey => Some(self.flow_mapping_key(false)?),
                State::FlowMappingValue => Some(self.flow_mapping_value(false)?),
                State::FlowMappingEmptyValue => Some(self.flow_mapping_value(true)?),
            };
            if let Some(ev) = ev {
                return Ok(Some(ev));
            }
        }
    }

    fn document_start(&mut self, implicit: bool) -> R<Option<Event>> {
        let mut t = self.peek()?;
        // go-yaml rc.6 also skips `...` before the first document.
        if !implicit || self.scanner.dialect == crate::Dialect::V4Rc6 {
            while t.tok == Tok::DocumentEnd {
                self.scanner.skip_token();
                t = self.peek()?;
            }
        }
        let directive_or_start = is(
            &t,
            &[
                Tok::VersionDirective(0, 0),
                Tok::TagDirective(String::new(), String::new()),
                Tok::DocumentStart,
                Tok::StreamEnd,
            ],
        );
        if implicit && !directive_or_start {
            self.tag_directives.clear();
            self.states.push(State::DocumentEnd);
            self.state = State::BlockNode;
            // The document's head comment: not kept.
            split_document_head(&mut self.pending.head);
            return Ok(Some(Event::DocumentStart { start: t.start }));
        }
        if t.tok != Tok::StreamEnd {
            let start = t.start;
            self.process_directives()?;
            let t = self.peek()?;
            if t.tok != Tok::DocumentStart {
                return Err(perr(None, "did not find expected <document start>", t.start));
            }
            self.states.push(State::DocumentEnd);
            self.state = State::DocumentContent;
            self.scanner.skip_token();
            return Ok(Some(Event::DocumentStart { start }));
        }
        self.state = State::End;
        self.scanner.skip_token();
        Ok(Some(Event::StreamEnd))
    }

    fn process_directives(&mut self) -> R<()> {
        self.tag_directives.clear();
        let mut version_seen = false;
        loop {
            let t = self.peek()?;
            match t.tok {
                Tok::VersionDirective(major, minor) => {
                    if version_seen {
                        return Err(perr(None, "found duplicate %YAML directive", t.start));
                    }
                    // go-yaml accepts `%YAML 1.1` only (a `1.2` document is "incompatible").
                    if major != 1 || minor != 1 {
                        return Err(perr(None, "found incompatible YAML document", t.start));
                    }
                    version_seen = true;
                }
                Tok::TagDirective(handle, prefix) => {
                    if self.tag_directives.iter().any(|(h, _)| *h == handle) {
                        return Err(perr(None, "found duplicate %TAG directive", t.start));
                    }
                    self.tag_directives.push((handle, prefix));
                }
                _ => return Ok(()),
            }
            self.scanner.skip_token();
        }
    }

    fn resolve_tag(&self, handle: &str, suffix: &str, start: Pos, tag_mark: Pos) -> R<String> {
        if handle.is_empty() {
            return Ok(suffix.to_string());
        }
        if let Some((_, prefix)) = self.tag_directives.iter().find(|(h, _)| h == handle) {
            return Ok(format!("{prefix}{suffix}"));
        }
        match handle {
            "!" => Ok(format!("!{suffix}")),
            "!!" => Ok(format!("tag:yaml.org,2002:{suffix}")),
            _ => Err(perr(Some(("while parsing a node", start)), "found undefined tag handle", tag_mark)),
        }
    }

    fn node(&mut self, block: bool, indentless: bool) -> R<Event> {
        let mut t = self.peek()?;
        if let Tok::Alias(name) = &t.tok {
            let name = name.clone();
            self.state = self.pop_state();
            let comments = self.take_comments();
            self.scanner.skip_token();
            return Ok(Event::Alias { name, start: t.start, comments });
        }
        let mut start = t.start;
        let mut anchor = None;
        let mut tag_parts: Option<(String, String, Pos)> = None;
        if let Tok::Anchor(name) = &t.tok {
            anchor = Some(name.clone());
            self.scanner.skip_token();
            t = self.peek()?;
            if let Tok::Tag(h, s) = &t.tok {
                tag_parts = Some((h.clone(), s.clone(), t.start));
                self.scanner.skip_token();
                t = self.peek()?;
            }
        } else if let Tok::Tag(h, s) = &t.tok {
            tag_parts = Some((h.clone(), s.clone(), t.start));
            start = t.start;
            self.scanner.skip_token();
            t = self.peek()?;
            if let Tok::Anchor(name) = &t.tok {
                anchor = Some(name.clone());
                self.scanner.skip_token();
                t = self.peek()?;
            }
        }
        let tag = match &tag_parts {
            Some((h, s, m)) => Some(self.resolve_tag(h, s, start, *m)?),
            None => None,
        };
        if indentless && t.tok == Tok::BlockEntry {
            self.state = State::IndentlessSequenceEntry;
            return Ok(Event::SequenceStart { anchor, tag, flow: false, start, comments: Comments::default() });
        }
        match t.tok {
            Tok::Scalar(value, style) => {
                self.state = self.pop_state();
                let comments = self.take_comments();
                self.scanner.skip_token();
                // The queue's copy is gone: the text is taken without copying it.
                let value = Rc::try_unwrap(value).unwrap_or_else(|shared| shared.as_str().to_string());
                Ok(Event::Scalar { value, style, anchor, tag, start, comments })
            }
            Tok::FlowSequenceStart => {
                self.state = State::FlowSequenceFirstEntry;
                let comments = self.take_comments();
                Ok(Event::SequenceStart { anchor, tag, flow: true, start, comments })
            }
            Tok::FlowMappingStart => {
                self.state = State::FlowMappingFirstKey;
                let comments = self.take_comments();
                Ok(Event::MappingStart { anchor, tag, flow: true, start, comments })
            }
            Tok::BlockSequenceStart if block => {
                self.state = State::BlockSequenceFirstEntry;
                let comments = self.take_stem();
                Ok(Event::SequenceStart { anchor, tag, flow: false, start, comments })
            }
            Tok::BlockMappingStart if block => {
                self.state = State::BlockMappingFirstKey;
                let comments = self.take_stem();
                Ok(Event::MappingStart { anchor, tag, flow: false, start, comments })
            }
            _ if anchor.is_some() || tag.is_some() => {
                self.state = self.pop_state();
                let comments = Comments::default();
                Ok(Event::Scalar { value: String::new(), style: Style::Plain, anchor, tag, start, comments })
            }
            _ => {
                let ctx = if block { "while parsing a block node" } else { "while parsing a flow node" };
                Err(perr(Some((ctx, start)), "did not find expected node content", t.start))
            }
        }
    }

    fn block_sequence_entry(&mut self, first: bool) -> R<Event> {
        if first {
            let t = self.next()?;
            self.marks.push(t.start);
        }
        let t = self.peek()?;
        if t.tok == Tok::BlockEntry {
            let stem_len = self.pending.head.len();
            self.scanner.skip_token();
            self.split_stem(stem_len)?;
            return self.node_or_empty(
                &[Tok::BlockEntry, Tok::BlockEnd],
                State::BlockSequenceEntry,
                Some(t.end),
                true,
                false,
            );
        }
        if t.tok == Tok::BlockEnd {
            self.state = self.pop_state();
            self.pop_mark();
            self.scanner.skip_token();
            return Ok(Event::SequenceEnd(Comments::default()));
        }
        let m = self.pop_mark();
        Err(perr(Some(("while parsing a block collection", m)), "did not find expected '-' indicator", t.start))
    }

    /// After an indicator (`-`, `?`, `:`): the node that follows, or an empty scalar when one of
    /// `stop` follows instead (placed at `empty_at`, else at that next token); `next` is the
    /// state after it.
    fn node_or_empty(
        &mut self,
        stop: &[Tok],
        next: State,
        empty_at: Option<Pos>,
        block: bool,
        indentless: bool,
    ) -> R<Event> {
        let n = self.peek()?;
        if !is(&n, stop) {
            self.states.push(next);
            return self.node(block, indentless);
        }
        self.state = next;
        Ok(empty_scalar(empty_at.unwrap_or(n.start)))
    }

    fn indentless_sequence_entry(&mut self) -> R<Event> {
        let t = self.peek()?;
        if t.tok == Tok::BlockEntry {
            let stem_len = self.pending.head.len();
            self.scanner.skip_token();
            self.split_stem(stem_len)?;
            return self.node_or_empty(
                &[Tok::BlockEntry, Tok::Key, Tok::Value, Tok::BlockEnd],
                State::IndentlessSequenceEntry,
                Some(t.end),
                true,
                false,
            );
        }
        self.state = self.pop_state();
        Ok(Event::SequenceEnd(Comments::default()))
    }

    fn block_mapping_key(&mut self, first: bool) -> R<Event> {
        if first {
            let t = self.next()?;
            self.marks.push(t.start);
        }
        let t = self.peek()?;
        if t.tok == Tok::Key {
            self.scanner.skip_token();
            return self.node_or_empty(
                &[Tok::Key, Tok::Value, Tok::BlockEnd],
                State::BlockMappingValue,
                Some(t.end),
                true,
                true,
            );
        }
        if t.tok == Tok::BlockEnd {
            self.state = self.pop_state();
            self.pop_mark();
            let comments = self.take_comments();
            self.scanner.skip_token();
            return Ok(Event::MappingEnd(comments));
        }
        let m = self.pop_mark();
        Err(perr(Some(("while parsing a block mapping", m)), "did not find expected key", t.start))
    }

    fn block_mapping_value(&mut self) -> R<Event> {
        let t = self.peek()?;
        if t.tok == Tok::Value {
            self.scanner.skip_token();
            return self.node_or_empty(
                &[Tok::Key, Tok::Value, Tok::BlockEnd],
                State::BlockMappingKey,
                Some(t.end),
                true,
                true,
            );
        }
        self.state = State::BlockMappingKey;
        Ok(empty_scalar(t.start))
    }

    fn flow_sequence_entry(&mut self, first: bool) -> R<Event> {
        if first {
            let t = self.next()?;
            self.marks.push(t.start);
        }
        let mut t = self.peek()?;
        if t.tok != Tok::FlowSequenceEnd {
            if !first {
                if t.tok == Tok::FlowEntry {
                    self.scanner.skip_token();
                    t = self.peek()?;
                } else {
                    let m = self.pop_mark();
                    return Err(perr(
                        Some(("while parsing a flow sequence", m)),
                        "did not find expected ',' or ']'",
                        t.start,
                    ));
                }
            }
            if t.tok == Tok::Key {
                self.state = State::FlowSequenceEntryMappingKey;
                self.scanner.skip_token();
                let comments = Comments::default();
                return Ok(Event::MappingStart { anchor: None, tag: None, flow: true, start: t.start, comments });
            }
            if t.tok != Tok::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntry);
                return self.node(false, false);
            }
        }
        self.state = self.pop_state();
        self.pop_mark();
        let comments = self.take_comments();
        self.scanner.skip_token();
        Ok(Event::SequenceEnd(comments))
    }

    fn flow_mapping_key(&mut self, first: bool) -> R<Event> {
        if first {
            let t = self.next()?;
            self.marks.push(t.start);
        }
        let mut t = self.peek()?;
        if t.tok != Tok::FlowMappingEnd {
            if !first {
                if t.tok == Tok::FlowEntry {
                    self.scanner.skip_token();
                    t = self.peek()?;
                } else {
                    let m = self.pop_mark();
                    return Err(perr(
                        Some(("while parsing a flow mapping", m)),
                        "did not find expected ',' or '}'",
                        t.start,
                    ));
                }
            }
            if t.tok == Tok::Key {
                self.scanner.skip_token();
                return self.node_or_empty(
                    &[Tok::Value, Tok::FlowEntry, Tok::FlowMappingEnd],
                    State::FlowMappingValue,
                    None,
                    false,
                    false,
                );
            }
            if t.tok != Tok::FlowMappingEnd {
                self.states.push(State::FlowMappingEmptyValue);
                return self.node(false, false);
            }
        }
        self.state = self.pop_state();
        self.pop_mark();
        let comments = self.take_comments();
        self.scanner.skip_token();
        Ok(Event::MappingEnd(comments))
    }

    fn flow_mapping_value(&mut self, empty: bool) -> R<Event> {
        let t = self.peek()?;
        if empty {
            self.state = State::FlowMappingKey;
            return Ok(empty_scalar(t.start));
        }
        if t.tok == Tok::Value {
            self.scanner.skip_token();
            return self.node_or_empty(
                &[Tok::FlowEntry, Tok::FlowMappingEnd],
                State::FlowMappingKey,
                None,
                false,
                false,
            );
        }
        self.state = State::FlowMappingKey;
        Ok(empty_scalar(t.start))
    }
}

fn empty_scalar(start: Pos) -> Event {
    Event::Scalar {
        value: String::new(),
        style: Style::Plain,
        anchor: None,
        tag: None,
        start,
        comments: Comments::default(),
    }
}

/// Appends a comment to pending text, one per line.
fn join(pending: &mut String, comment: &str) {
    if comment.is_empty() {
        return;
    }
    if !pending.is_empty() {
        pending.push('\n');
    }
    pending.push_str(comment);
}

/// go-yaml's split of an implicit document's head comment: up to the last empty line it heads
/// the document; the rest stays for the first node.
fn split_document_head(head: &mut String) {
    let bytes = head.as_bytes();
    for i in (1..bytes.len()).rev() {
        if bytes[i] != b'\n' {
            continue;
        }
        if i == bytes.len() - 1 || bytes[i - 1] == b'\n' {
            *head = head.get(i + 1..).unwrap_or_default().to_string();
            return;
        }
    }
}
