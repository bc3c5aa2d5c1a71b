//! The go-yaml v4 emitter as Talos's encoder drives it (`yaml.Marshal`: indent 4, unlimited
//! width, non-compact sequences): docs/merge.md §9.3-§9.5.
//!
//! The emitter core in this file is shared with the yaml.v2 emitter (`emit_v2`): both Go
//! libraries use the same libyaml-derived emitter and differ only in a few parameters
//! (`Dialect`).

use std::cmp::Ordering;

use super::node::{CollectionStyle, Comments, Node, NodeValue, ScalarStyle, deep};
use super::resolve::{
    Resolved, is_base60, is_yaml11_bool, key_cmp_v2, key_cmp_v4, needs_quotes_v2, needs_quotes_v4, resolve_v4,
    resolve_v11, resolves_to_non_str_v4,
};

/// Emits one document (no `---`), ending with a line break, as go-yaml v4.0.0-rc.4 does.
pub fn emit_v4(doc: &Node) -> String {
    emit_v4_in(doc, crate::Dialect::V4Rc4)
}

/// [`emit_v4`] as `release` of go-yaml v4 emits it. v4.0.0-rc.3 differs in two places: a
/// block scalar that starts with a line break gets the indentation indicator (`|4`, `>4`), as
/// one that starts with a space does in both; and a `yaml.Node` scalar tagged `!!str` with
/// the text `<<` is written plain (rc.3 resolves a plain `<<` to `!!str`, rc.4 to `!!merge`).
///
/// ```
/// use talos_yaml::emit_v4::emit_v4_in;
/// use talos_yaml::{Dialect, Node};
///
/// let doc = Node::mapping(vec![(
///     Node::plain("content"),
///     Node::go_string("\nfoo\n"),
/// )]);
/// assert_eq!(emit_v4_in(&doc, Dialect::V4Rc3), "content: |4\n\n    foo\n");
/// assert_eq!(emit_v4_in(&doc, Dialect::V4Rc4), "content: |\n\n    foo\n");
/// ```
pub fn emit_v4_in(doc: &Node, release: crate::Dialect) -> String {
    let mut out = String::new();
    emit_v4_into_in(doc, &mut out, release);
    out
}

/// Emits one document (no `---`), ending with a line break, at the end of `out`: several
/// documents are written into one buffer without copying (go-yaml v4.0.0-rc.4).
pub fn emit_v4_into(doc: &Node, out: &mut String) {
    emit_v4_into_in(doc, out, crate::Dialect::V4Rc4);
}

/// [`emit_v4_into`] as `release` of go-yaml v4 emits it (see [`emit_v4_in`]).
pub fn emit_v4_into_in(doc: &Node, out: &mut String, release: crate::Dialect) {
    let mut e = Emitter::new(Dialect::V4, std::mem::take(out));
    e.release = release;
    e.emit_document(doc);
    *out = e.out;
}

/// Emits one document as [`emit_v4`] does, with the comments parsed nodes carry, placed as
/// go-yaml v4 re-encodes a `yaml.Node` (Talos's unknown-keys summary prints them so).
///
/// ```
/// use talos_yaml::emit_v4::emit_v4_with_comments;
/// use talos_yaml::parse::parse_documents;
///
/// let docs = parse_documents(b"# head\nkey: value # line\n").unwrap();
/// assert_eq!(emit_v4_with_comments(&docs[0]), "# head\nkey: value # line\n");
/// ```
pub fn emit_v4_with_comments(doc: &Node) -> String {
    emit_v4_with_comments_in(doc, crate::Dialect::V4Rc4)
}

/// [`emit_v4_with_comments`] as `release` of go-yaml v4 emits it (see [`emit_v4_in`]).
pub fn emit_v4_with_comments_in(doc: &Node, release: crate::Dialect) -> String {
    let mut e = Emitter::new(Dialect::V4, String::new());
    e.release = release;
    e.comments = true;
    e.emit_document(doc);
    e.out
}

/// Sorts mapping entries by go-yaml v4's key order (docs/merge.md §9.3) on the scalar key text.
/// Non-scalar keys sort after scalar keys, in their original order. Stable; never panics, even
/// though the Go comparison is not a total order for some key sets.
pub fn sort_keys_v4(entries: &mut [(Node, Node)]) {
    sort_entries(entries, key_cmp_v4);
}

/// Which Go library's emitter to imitate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// go-yaml v4 `Marshal`: indent 4, unlimited width, sequences indented under keys.
    V4,
    /// yaml.v2 `Marshal`: indent 2, width 80, sequences not indented under keys.
    V2,
}

/// Emits one document with the given dialect at the end of `out`.
pub(crate) fn emit_document_into(doc: &Node, dialect: Dialect, out: &mut String) {
    let mut e = Emitter::new(dialect, std::mem::take(out));
    e.emit_document(doc);
    *out = e.out;
}

/// Stable merge sort of mapping entries by a key comparison on scalar text.
pub(crate) fn sort_entries(entries: &mut [(Node, Node)], cmp: fn(&str, &str) -> Ordering) {
    fn key_of(n: &Node) -> Option<&str> {
        n.as_scalar().map(|s| s.text.as_str())
    }
    let less_eq = |a: &(Node, Node), b: &(Node, Node)| -> bool {
        match (key_of(&a.0), key_of(&b.0)) {
            (Some(x), Some(y)) => cmp(x, y) != Ordering::Greater,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => true,
        }
    };
    let n = entries.len();
    if n < 2 {
        return;
    }
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf: Vec<usize> = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if less_eq(&entries[idx[i]], &entries[idx[j]]) {
                    buf[k] = idx[i];
                    i += 1;
                } else {
                    buf[k] = idx[j];
                    j += 1;
                }
                k += 1;
            }
            while i < mid {
                buf[k] = idx[i];
                i += 1;
                k += 1;
            }
            while j < end {
                buf[k] = idx[j];
                j += 1;
                k += 1;
            }
            start = end;
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    // Move the entries into their sorted places (no subtree is copied).
    let mut taken: Vec<Option<(Node, Node)>> =
        entries.iter_mut().map(|e| Some(std::mem::replace(e, (Node::plain(""), Node::plain(""))))).collect();
    for (slot, &i) in entries.iter_mut().zip(&idx) {
        if let Some(item) = taken.get_mut(i).and_then(Option::take) {
            *slot = item;
        }
    }
}

/// The scalar style an event asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

/// A scalar event: text, requested style, explicit tag to print.
struct Event<'a> {
    text: &'a str,
    style: Style,
    tag: Option<String>,
}

/// Result of libyaml's scalar analysis.
#[derive(Clone, Copy, Debug)]
struct Analysis {
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn is_blankz(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => is_blank(c) || is_break(c) || c == '\0',
    }
}

/// True when the node's tag was written in its source (go-yaml's `TaggedStyle`), not set by
/// an encoder.
fn tag_written(node: &Node) -> bool {
    node.origin.as_ref().is_some_and(|o| o.tagged)
}

/// Normalises a tag to its short form (`tag:yaml.org,2002:str` -> `!!str`).
fn short_tag(tag: &str) -> String {
    match tag.strip_prefix("tag:yaml.org,2002:") {
        Some(rest) => format!("!!{rest}"),
        None => tag.to_string(),
    }
}

fn has_non_whitespace(s: &str) -> bool {
    s.chars().any(|c| !c.is_whitespace())
}

struct Emitter {
    dialect: Dialect,
    /// Which go-yaml v4 release (for [`Dialect::V4`]): rc.3 and rc.4 differ in two rules, rc.4
    /// and rc.6 in three (Go strings YAML 1.1 would misread, a read `<<`, unwritten number tags).
    release: crate::Dialect,
    best_indent: i64,
    best_width: i64,
    out: String,
    column: i64,
    whitespace: bool,
    indention: bool,
    indent: i64,
    indents: Vec<i64>,
    flow_level: usize,
    /// Whether node comments are written (go-yaml v4 writes a `yaml.Node`'s comments).
    comments: bool,
    /// go-yaml's pending comments: set from each event, written where its state functions
    /// write them (`HeadComment`, `LineComment`, `FootComment`, `TailComment`,
    /// `key_line_comment`), and the indent after which a foot comment wants an empty line.
    pending: Comments,
    tail: String,
    key_line: String,
    foot_indent: i64,
}

/// What the state that writes a node does right after the node's start (a scalar, or a
/// collection's anchor and tag).
#[derive(Clone, Copy, PartialEq, Eq)]
enum AfterStart {
    /// Nothing (a mapping key).
    Nothing,
    /// Writes the pending line and foot comments (block items and values, the document root).
    LineAndFoot,
    /// A flow item: a `,` first when a comment is pending, then the line and foot comments.
    FlowItem,
}

impl Emitter {
    /// An emitter at the start of a document, appending to `out`.
    fn new(dialect: Dialect, out: String) -> Emitter {
        let (best_indent, best_width) = match dialect {
            Dialect::V4 => (4, i64::MAX),
            Dialect::V2 => (2, 80),
        };
        Emitter {
            dialect,
            release: crate::Dialect::V4Rc4,
            best_indent,
            best_width,
            out,
            column: 0,
            whitespace: true,
            indention: true,
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            comments: false,
            pending: Comments::default(),
            tail: String::new(),
            key_line: String::new(),
            foot_indent: -1,
        }
    }

    /// Whether this is go-yaml v4.0.0-rc.3's emitter.
    fn is_rc3(&self) -> bool {
        self.dialect == Dialect::V4 && self.release == crate::Dialect::V4Rc3
    }

    fn is_rc6(&self) -> bool {
        self.dialect == Dialect::V4 && self.release == crate::Dialect::V4Rc6
    }

    // --- low-level writing -------------------------------------------------------------------

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
        self.indention = true;
    }

    /// Writes one character of scalar content (column counts characters, as Go does).
    fn write_char(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    /// Writes scalar content with no line break in it ([`Emitter::write_char`] for a run).
    fn write_text(&mut self, text: &str) {
        self.out.push_str(text);
        let width = if text.is_ascii() { text.len() } else { text.chars().count() };
        self.column += width as i64;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
            self.indention = true;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        if self.foot_indent == indent {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
        self.foot_indent = -1;
    }

    fn write_indicator(&mut self, ind: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        for c in ind.chars() {
            self.write_char(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool, in_seq_item: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { self.best_indent } else { 0 };
        } else if !indentless {
            match self.dialect {
                Dialect::V2 => self.indent += self.best_indent,
                Dialect::V4 => {
                    if in_seq_item {
                        self.indent += 2;
                    } else {
                        let b = self.best_indent;
                        self.indent = b * ((self.indent + b) / b);
                    }
                }
            }
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn process_tag(&mut self, tag: &Option<String>) {
        if let Some(t) = tag {
            if t.starts_with('!') {
                if !self.whitespace {
                    self.put(' ');
                }
                for c in t.chars() {
                    self.write_char(c);
                }
                self.whitespace = false;
                self.indention = false;
            } else {
                self.write_indicator("!<", true, false, false);
                for c in t.chars() {
                    self.write_char(c);
                }
                self.write_indicator(">", false, false, false);
            }
        }
    }

    // --- representation ----------------------------------------------------------------------

    /// Turns a scalar node into the event go-yaml's encoder would produce for it.
    fn represent<'a>(&self, node: &'a Node) -> Option<Event<'a>> {
        let s = node.as_scalar()?;
        let text = s.text.as_str();
        let has_nl = text.contains('\n');
        let ev = match s.style {
            ScalarStyle::GoString => {
                let style = match self.dialect {
                    Dialect::V4 => {
                        if has_nl {
                            if text.len() >= 2 && has_non_whitespace(text) { Style::Literal } else { Style::Double }
                        } else if self.is_rc6() && (is_yaml11_bool(text) || is_base60(text) || text == "<<") {
                            // rc.6's representer single-quotes what only YAML 1.1 would misread.
                            Style::Single
                        } else if needs_quotes_v4(text) {
                            Style::Double
                        } else {
                            Style::Plain
                        }
                    }
                    Dialect::V2 => {
                        if has_nl {
                            Style::Literal
                        } else if needs_quotes_v2(text) {
                            Style::Double
                        } else {
                            Style::Plain
                        }
                    }
                };
                let tag = node.tag.as_ref().map(|t| short_tag(t)).filter(|t| t != "!!str");
                Event { text, style, tag }
            }
            ScalarStyle::GoNode => {
                let force = match self.dialect {
                    Dialect::V4 if self.is_rc3() => resolve_v4(text) != Resolved::Str,
                    Dialect::V4 => resolves_to_non_str_v4(text),
                    Dialect::V2 => needs_quotes_v2(text),
                };
                let style = if has_nl {
                    Style::Literal
                } else if force {
                    Style::Double
                } else {
                    Style::Plain
                };
                Event { text, style, tag: None }
            }
            ScalarStyle::Plain
            | ScalarStyle::SingleQuoted
            | ScalarStyle::DoubleQuoted
            | ScalarStyle::Literal
            | ScalarStyle::Folded => {
                let mut force = false;
                let mut tag = None;
                // A merge key read from a source: go-yaml's node holds the implicit `!!merge` tag,
                // and rc.3's and rc.4's encoders write it (`!!merge <<: ...`, as in an
                // unknown-keys summary); rc.6 drops it as it drops every implicit tag.
                if self.dialect == Dialect::V4
                    && !self.is_rc6()
                    && node.tag.is_none()
                    && node.mark.line > 0
                    && s.style == ScalarStyle::Plain
                    && text == "<<"
                {
                    tag = Some("!!merge".to_string());
                }
                if let Some(t) = &node.tag {
                    let stag = short_tag(t);
                    let styled = s.style != ScalarStyle::Plain;
                    if tag_written(node) {
                        // go-yaml's `TaggedStyle`: a tag from the source is printed as it stands.
                        tag = Some(stag);
                    } else if stag == "!!str" && styled {
                        // dropped
                    } else if self.resolved_tag(text) == stag {
                        // implicit: dropped
                    } else if stag == "!!str" {
                        force = true;
                    } else if self.is_rc6() && (stag == "!!int" || stag == "!!float") {
                        // rc.6's desolver drops these tags whatever the text.
                    } else {
                        tag = Some(stag);
                    }
                }
                let style = match s.style {
                    ScalarStyle::DoubleQuoted => Style::Double,
                    ScalarStyle::SingleQuoted => Style::Single,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                    _ if has_nl => Style::Literal,
                    _ if force => Style::Double,
                    _ => Style::Plain,
                };
                Event { text, style, tag }
            }
        };
        Some(ev)
    }

    /// The resolved short tag of a plain text under this dialect's resolver.
    fn resolved_tag(&self, text: &str) -> &'static str {
        match self.dialect {
            Dialect::V4 => {
                // go-yaml rc.4's resolver reads a plain `<<` as a merge key, rc.3's as a string.
                if text == "<<" && !self.is_rc3() { "!!merge" } else { resolve_v4(text).tag() }
            }
            Dialect::V2 => resolve_v11(text).tag(),
        }
    }

    // --- analysis and style selection --------------------------------------------------------

    fn analyze(&self, value: &str) -> Analysis {
        if value.is_empty() {
            return Analysis {
                multiline: false,
                flow_plain_allowed: false,
                block_plain_allowed: true,
                single_quoted_allowed: true,
                block_allowed: false,
            };
        }
        let mut block_indicators = false;
        let mut flow_indicators = false;
        let mut line_breaks = false;
        let mut special_characters = false;
        let mut tab_characters = false;
        let mut leading_space = false;
        let mut leading_break = false;
        let mut trailing_space = false;
        let mut trailing_break = false;
        let mut break_space = false;
        let mut space_break = false;
        let mut previous_space = false;
        let mut previous_break = false;

        if value.starts_with("---") || value.starts_with("...") {
            block_indicators = true;
            flow_indicators = true;
        }
        let mut preceded_by_whitespace = true;
        let mut chars = value.chars().peekable();
        let mut first = true;
        while let Some(c) = chars.next() {
            let next = chars.peek().copied();
            if c.is_ascii_alphanumeric() {
                // Never an indicator, a space, a break or unprintable: only the state moves on.
                previous_space = false;
                previous_break = false;
                preceded_by_whitespace = false;
                first = false;
                continue;
            }
            let last = next.is_none();
            let followed_by_whitespace = next.is_none_or(is_blank);
            if first {
                match c {
                    '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@' | '`' => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    '?' | ':' => {
                        flow_indicators = true;
                        if followed_by_whitespace {
                            block_indicators = true;
                        }
                    }
                    '-' if followed_by_whitespace => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    _ => {}
                }
            } else {
                match c {
                    ',' | '?' | '[' | ']' | '{' | '}' => flow_indicators = true,
                    ':' => {
                        flow_indicators = true;
                        if followed_by_whitespace {
                            block_indicators = true;
                        }
                    }
                    '#' if preceded_by_whitespace => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    _ => {}
                }
            }

            if c == '\t' && self.dialect == Dialect::V4 {
                tab_characters = true;
            } else if !is_printable(c) {
                special_characters = true;
            }
            if c == ' ' {
                if first {
                    leading_space = true;
                }
                if last {
                    trailing_space = true;
                }
                if previous_break {
                    break_space = true;
                }
                previous_space = true;
                previous_break = false;
            } else if is_break(c) {
                line_breaks = true;
                if first {
                    leading_break = true;
                }
                if last {
                    trailing_break = true;
                }
                if previous_space {
                    space_break = true;
                }
                previous_space = false;
                previous_break = true;
            } else {
                previous_space = false;
                previous_break = false;
            }
            preceded_by_whitespace = is_blankz(Some(c));
            first = false;
        }

        let mut a = Analysis {
            multiline: line_breaks,
            flow_plain_allowed: true,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: true,
        };
        if leading_space || leading_break || trailing_space || trailing_break {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
        }
        if trailing_space {
            a.block_allowed = false;
        }
        if break_space {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
            a.single_quoted_allowed = false;
        }
        if space_break || tab_characters || special_characters {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
            a.single_quoted_allowed = false;
        }
        if space_break || special_characters {
            a.block_allowed = false;
        }
        if line_breaks {
            a.flow_plain_allowed = false;
            a.block_plain_allowed = false;
        }
        if flow_indicators {
            a.flow_plain_allowed = false;
        }
        if block_indicators {
            a.block_plain_allowed = false;
        }
        a
    }

    fn select_style(&self, ev: &Event<'_>, a: &Analysis, simple_key: bool) -> Style {
        let mut style = ev.style;
        if simple_key && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain {
            if (self.flow_level > 0 && !a.flow_plain_allowed) || (self.flow_level == 0 && !a.block_plain_allowed) {
                style = Style::Single;
            }
            if ev.text.is_empty() && (self.flow_level > 0 || simple_key) {
                style = Style::Single;
            }
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if (style == Style::Literal || style == Style::Folded)
            && (!a.block_allowed || self.flow_level > 0 || simple_key)
        {
            style = Style::Double;
        }
        style
    }

    /// libyaml's `check_simple_key` for a node about to be written as a mapping key.
    fn is_simple_key(&self, node: &Node) -> bool {
        match &node.value {
            NodeValue::Scalar(_) => {
                let Some(ev) = self.represent(node) else {
                    return false;
                };
                if self.analyze(ev.text).multiline {
                    return false;
                }
                let len = ev.tag.as_ref().map_or(0, |t| t.len()) + ev.text.len();
                len <= 128
            }
            NodeValue::Sequence(items, _) => items.is_empty(),
            NodeValue::Mapping(entries, _) => entries.is_empty(),
        }
    }

    // --- nodes -------------------------------------------------------------------------------

    // --- comments ----------------------------------------------------------------------------

    /// go-yaml's `analyzeEvent` for comments: an event's non-empty comments replace the pending
    /// ones (an empty one leaves what is pending).
    fn take_event_comments(&mut self, head: &str, line: &str, foot: &str, tail: &str) {
        if !self.comments {
            return;
        }
        for (pending, text) in [
            (&mut self.pending.head, head),
            (&mut self.pending.line, line),
            (&mut self.pending.foot, foot),
            (&mut self.tail, tail),
        ] {
            if !text.is_empty() {
                *pending = text.to_string();
            }
        }
    }

    /// The comments of the event that starts `node` (go-yaml's serializer): a scalar or alias
    /// carries all three, a collection its head comment (its line and foot comments come with
    /// its end); `tail` is the foot comment of the mapping key before (scalars and mappings
    /// only); a mapping key's own foot comment is left for the next key.
    fn start_event(&mut self, node: &Node, tail: &str, is_key: bool) {
        let Some(origin) = &node.origin else {
            if !tail.is_empty() && !matches!(node.value, NodeValue::Sequence(..)) {
                self.take_event_comments("", "", "", tail);
            }
            return;
        };
        let c = &origin.comments;
        let foot = if is_key { "" } else { c.foot.as_str() };
        if origin.alias.is_some() {
            self.take_event_comments(&c.head, &c.line, foot, "");
            return;
        }
        match node.value {
            NodeValue::Scalar(_) => self.take_event_comments(&c.head, &c.line, foot, tail),
            NodeValue::Sequence(..) => self.take_event_comments(&c.head, "", "", ""),
            NodeValue::Mapping(..) => self.take_event_comments(&c.head, "", "", tail),
        }
    }

    /// The comments of the event that ends a collection: its line and foot comments, and for a
    /// mapping the foot comment of its last key as the tail.
    fn end_event(&mut self, node: &Node, tail: &str) {
        let (line, foot) =
            node.origin.as_ref().map_or(("", ""), |o| (o.comments.line.as_str(), o.comments.foot.as_str()));
        self.take_event_comments("", line, foot, tail);
    }

    fn has_trailing_comment(&self) -> bool {
        !self.pending.line.is_empty() || !self.pending.foot.is_empty() || !self.tail.is_empty()
    }

    /// go-yaml's `writeComment`: each line at the indentation, `# ` added where the text has no
    /// `#`, ending with a line break.
    fn write_comment(&mut self, comment: &str) {
        let mut breaks = false;
        let mut pound = false;
        for c in comment.chars() {
            if is_break(c) {
                self.write_break(c);
                breaks = true;
                pound = false;
                continue;
            }
            if breaks {
                self.write_indent();
            }
            if !pound {
                if c != '#' {
                    self.put('#');
                    self.put(' ');
                }
                pound = true;
            }
            self.write_char(c);
            self.indention = false;
            breaks = false;
        }
        if !breaks {
            self.put_break();
        }
        self.whitespace = true;
    }

    fn process_head_comment(&mut self) {
        if !self.tail.is_empty() {
            self.write_indent();
            let tail = std::mem::take(&mut self.tail);
            self.write_comment(&tail);
            self.foot_indent = self.indent.max(0);
        }
        if self.pending.head.is_empty() {
            return;
        }
        self.write_indent();
        let head = std::mem::take(&mut self.pending.head);
        self.write_comment(&head);
    }

    /// Writes the pending line comment; without one, a line break when `linebreak` (after a
    /// block scalar's header).
    fn process_line_comment(&mut self, linebreak: bool) {
        if self.pending.line.is_empty() {
            if linebreak {
                self.put_break();
            }
            return;
        }
        if !self.whitespace {
            self.put(' ');
        }
        let line = std::mem::take(&mut self.pending.line);
        self.write_comment(&line);
    }

    fn process_foot_comment(&mut self) {
        if self.pending.foot.is_empty() {
            return;
        }
        self.write_indent();
        let foot = std::mem::take(&mut self.pending.foot);
        self.write_comment(&foot);
        self.foot_indent = self.indent.max(0);
    }

    // --- nodes -------------------------------------------------------------------------------

    /// One document: the root node, then the end of its last line.
    fn emit_document(&mut self, doc: &Node) {
        self.start_event(doc, "", false);
        self.process_head_comment();
        self.emit_node(doc, false, false, false, AfterStart::LineAndFoot);
        // Document end: a pending foot comment is separated by an empty line at indent 0.
        self.foot_indent = 0;
        self.process_foot_comment();
        self.foot_indent = -1;
        self.indent = -1;
        self.write_indent();
    }

    /// `in_seq_item`: the node is a block sequence item (v4 indents its content by 2);
    /// `mapping_ctx`: the node is a mapping key or value; `simple_key`: a simple mapping key;
    /// `after`: what the calling state does once the node has started.
    fn emit_node(&mut self, node: &Node, in_seq_item: bool, mapping_ctx: bool, simple_key: bool, after: AfterStart) {
        deep(|| self.emit_node_at_depth(node, in_seq_item, mapping_ctx, simple_key, after));
    }

    fn emit_node_at_depth(
        &mut self,
        node: &Node,
        in_seq_item: bool,
        mapping_ctx: bool,
        simple_key: bool,
        after: AfterStart,
    ) {
        if let Some(origin) = &node.origin {
            if let Some(alias) = &origin.alias {
                self.write_alias(alias, simple_key);
                self.after_start(after);
                return;
            }
            if let Some(anchor) = &origin.anchor {
                self.write_indicator("&", true, false, false);
                self.write_anchor(anchor);
            }
        }
        match &node.value {
            NodeValue::Scalar(_) => {
                self.emit_scalar(node, in_seq_item, simple_key);
                self.after_start(after);
            }
            NodeValue::Sequence(items, style) => {
                let tag = node.tag.as_ref().map(|t| short_tag(t)).filter(|t| t != "!!seq" || tag_written(node));
                self.process_tag(&tag);
                self.after_start(after);
                if self.flow_level > 0 || *style == CollectionStyle::Flow || items.is_empty() {
                    self.emit_flow_sequence(node, items, in_seq_item);
                } else {
                    self.emit_block_sequence(node, items, in_seq_item, mapping_ctx);
                }
            }
            NodeValue::Mapping(entries, style) => {
                let tag = node.tag.as_ref().map(|t| short_tag(t)).filter(|t| t != "!!map" || tag_written(node));
                self.process_tag(&tag);
                self.after_start(after);
                if self.flow_level > 0 || *style == CollectionStyle::Flow || entries.is_empty() {
                    self.emit_flow_mapping(node, entries, in_seq_item);
                } else {
                    self.emit_block_mapping(node, entries, in_seq_item);
                }
            }
        }
    }

    fn after_start(&mut self, after: AfterStart) {
        match after {
            AfterStart::Nothing => {}
            AfterStart::LineAndFoot => {
                self.process_line_comment(false);
                self.process_foot_comment();
            }
            AfterStart::FlowItem => {
                if self.has_trailing_comment() {
                    self.write_indicator(",", false, false, false);
                }
                self.process_line_comment(false);
                self.process_foot_comment();
            }
        }
    }

    /// libyaml's alias event: `*name`, and a space before the `:` of a simple key.
    fn write_alias(&mut self, name: &str, simple_key: bool) {
        self.write_indicator("*", true, false, false);
        self.write_anchor(name);
        if simple_key {
            self.put(' ');
        }
    }

    /// Anchor or alias name (libyaml writes it as it stands).
    fn write_anchor(&mut self, name: &str) {
        self.write_text(name);
        self.whitespace = false;
        self.indention = false;
    }

    fn emit_block_sequence(&mut self, node: &Node, items: &[Node], in_seq_item: bool, mapping_ctx: bool) {
        let indentless = self.dialect == Dialect::V2 && mapping_ctx && !self.indention;
        self.increase_indent(false, indentless, in_seq_item);
        for item in items {
            self.start_event(item, "", false);
            self.process_head_comment();
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.emit_node(item, true, false, false, AfterStart::LineAndFoot);
        }
        self.end_event(node, "");
        self.pop_indent();
    }

    /// The foot comment of a mapping key, which go-yaml's serializer moves to the next key (or
    /// the mapping's end) as a tail comment.
    fn key_foot(key: &Node) -> &str {
        key.origin.as_ref().map_or("", |o| o.comments.foot.as_str())
    }

    fn emit_block_mapping(&mut self, node: &Node, entries: &[(Node, Node)], in_seq_item: bool) {
        self.increase_indent(false, false, in_seq_item);
        let mut tail = "";
        for (k, v) in entries {
            self.start_event(k, tail, true);
            tail = Self::key_foot(k);
            self.process_head_comment();
            self.write_indent();
            if !self.pending.line.is_empty() {
                self.key_line = std::mem::take(&mut self.pending.line);
            }
            let simple = self.is_simple_key(k);
            if simple {
                self.emit_node(k, false, true, true, AfterStart::Nothing);
            } else {
                self.write_indicator("?", true, false, true);
                self.emit_node(k, false, true, false, AfterStart::Nothing);
            }
            self.start_event(v, "", false);
            if simple {
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.key_line_comment_before(v);
            self.emit_node(v, false, true, false, AfterStart::LineAndFoot);
        }
        self.end_event(node, tail);
        self.process_head_comment();
        self.pop_indent();
    }

    /// go-yaml: a key's line comment goes with a scalar value that has none, and is written
    /// right after the `:` when a block collection follows.
    fn key_line_comment_before(&mut self, value: &Node) {
        if self.key_line.is_empty() {
            return;
        }
        match &value.value {
            _ if value.origin.as_ref().is_some_and(|o| o.alias.is_some()) => {}
            NodeValue::Scalar(_) => {
                if self.pending.line.is_empty() {
                    self.pending.line = std::mem::take(&mut self.key_line);
                }
            }
            NodeValue::Sequence(_, style) | NodeValue::Mapping(_, style) => {
                if *style != CollectionStyle::Flow {
                    std::mem::swap(&mut self.pending.line, &mut self.key_line);
                    self.process_line_comment(false);
                    std::mem::swap(&mut self.pending.line, &mut self.key_line);
                }
            }
        }
    }

    fn emit_flow_sequence(&mut self, node: &Node, items: &[Node], in_seq_item: bool) {
        self.write_indicator("[", true, true, false);
        self.increase_indent(true, false, in_seq_item);
        self.flow_level += 1;
        let mut trail = false;
        for (i, item) in items.iter().enumerate() {
            self.start_event(item, "", false);
            if i > 0 && !trail {
                self.write_indicator(",", false, false, false);
            }
            self.process_head_comment();
            if self.column == 0 || self.column > self.best_width {
                self.write_indent();
            }
            trail = self.has_trailing_comment();
            self.emit_node(item, false, false, false, AfterStart::FlowItem);
        }
        self.end_event(node, "");
        self.flow_level -= 1;
        self.pop_indent();
        if self.column == 0 {
            self.write_indent();
        }
        self.write_indicator("]", false, false, false);
        self.process_line_comment(false);
        self.process_foot_comment();
    }

    fn emit_flow_mapping(&mut self, node: &Node, entries: &[(Node, Node)], in_seq_item: bool) {
        self.write_indicator("{", true, true, false);
        self.increase_indent(true, false, in_seq_item);
        self.flow_level += 1;
        let mut trail = false;
        let mut tail = "";
        for (i, (k, v)) in entries.iter().enumerate() {
            self.start_event(k, tail, true);
            tail = Self::key_foot(k);
            if i > 0 && !trail {
                self.write_indicator(",", false, false, false);
            }
            self.process_head_comment();
            if self.column == 0 || self.column > self.best_width {
                self.write_indent();
            }
            let simple = self.is_simple_key(k);
            if simple {
                self.emit_node(k, false, true, true, AfterStart::Nothing);
            } else {
                self.write_indicator("?", true, false, false);
                self.emit_node(k, false, true, false, AfterStart::Nothing);
            }
            self.start_event(v, "", false);
            if simple {
                self.write_indicator(":", false, false, false);
            } else {
                if self.column > self.best_width {
                    self.write_indent();
                }
                self.write_indicator(":", true, false, false);
            }
            trail = self.has_trailing_comment();
            self.emit_node(v, false, true, false, AfterStart::FlowItem);
        }
        self.end_event(node, tail);
        if !entries.is_empty()
            && !trail
            && (!self.pending.head.is_empty() || !self.pending.foot.is_empty() || !self.tail.is_empty())
        {
            self.write_indicator(",", false, false, false);
        }
        self.process_head_comment();
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator("}", false, false, false);
        self.process_line_comment(false);
        self.process_foot_comment();
    }

    fn emit_scalar(&mut self, node: &Node, in_seq_item: bool, simple_key: bool) {
        let Some(ev) = self.represent(node) else {
            return;
        };
        let a = self.analyze(ev.text);
        let style = self.select_style(&ev, &a, simple_key);
        self.process_tag(&ev.tag);
        self.increase_indent(true, false, in_seq_item);
        let allow_breaks = !simple_key;
        match style {
            Style::Plain => self.write_plain(ev.text, allow_breaks),
            Style::Single => self.write_single(ev.text, allow_breaks),
            Style::Double => self.write_double(ev.text, allow_breaks),
            Style::Literal => self.write_literal(ev.text),
            Style::Folded => self.write_folded(ev.text),
        }
        self.pop_indent();
    }

    // --- scalar writers ----------------------------------------------------------------------

    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !value.is_empty() && !self.whitespace {
            self.put(' ');
        }
        self.write_folding_text(value, allow_breaks, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        self.write_folding_text(value, allow_breaks, true);
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The body of a plain or single-quoted scalar: a space may become a line break past the
    /// width (never a doubled space; in single quotes never the first or last character), line
    /// breaks are written as such, and in single quotes `'` is doubled.
    fn write_folding_text(&mut self, value: &str, allow_breaks: bool, single_quoted: bool) {
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                let inner = !single_quoted || (i > 0 && i + 1 < n);
                if allow_breaks && !spaces && self.column > self.best_width && inner && !next_space {
                    self.write_indent();
                } else {
                    self.write_char(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write_char(c);
                if single_quoted && c == '\'' {
                    self.write_char('\'');
                }
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
    }

    fn write_double(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let bom = value.starts_with('\u{FEFF}');
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut spaces = false;
        for i in 0..n {
            let c = chars[i];
            if !is_printable(c) || bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{07}' => self.put('a'),
                    '\u{08}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{0B}' => self.put('v'),
                    '\u{0C}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1B}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{A0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let v = c as u32;
                        let (ind, w) = if v <= 0xFF {
                            ('x', 2)
                        } else if v <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(ind);
                        for k in (0..w).rev() {
                            let digit = (v >> (k * 4)) & 0xF;
                            let ch = char::from_digit(digit, 16).map(|d| d.to_ascii_uppercase()).unwrap_or('0');
                            self.put(ch);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > self.best_width && i > 0 && i + 1 < n {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.write_char(c);
                }
                spaces = true;
            } else {
                self.write_char(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_block_hints(&mut self, value: &str) {
        let first = value.chars().next();
        let hint = match self.dialect {
            // go-yaml rc.3 (and yaml.v2) also write the hint before a leading line break.
            Dialect::V4 if !self.is_rc3() => first == Some(' '),
            Dialect::V4 | Dialect::V2 => first == Some(' ') || first.is_some_and(is_break),
        };
        if hint {
            let d = char::from_digit(self.best_indent as u32, 10).unwrap_or('4');
            let mut buf = [0u8; 4];
            let s: &str = d.encode_utf8(&mut buf);
            self.write_indicator(s, false, false, false);
        }
        let mut rev = value.chars().rev();
        let chomp = match rev.next() {
            None => Some("-"),
            Some(last) if !is_break(last) => Some("-"),
            Some(_) => match rev.next() {
                None => Some("+"),
                Some(prev) if is_break(prev) => Some("+"),
                Some(_) => None,
            },
        };
        if let Some(ch) = chomp {
            self.write_indicator(ch, false, false, false);
        }
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_hints(value);
        self.process_line_comment(true);
        self.whitespace = true;
        let mut breaks = true;
        let mut rest = value;
        // Line by line: each run of characters between breaks is written at once.
        while let Some(c) = rest.chars().next() {
            if is_break(c) {
                self.write_break(c);
                breaks = true;
                rest = &rest[c.len_utf8()..];
                continue;
            }
            if breaks {
                self.write_indent();
            }
            let end = rest.find(is_break).unwrap_or(rest.len());
            let (line, after) = rest.split_at(end);
            self.write_text(line);
            self.indention = false;
            breaks = false;
            rest = after;
        }
    }

    fn write_folded(&mut self, value: &str) {
        self.write_indicator(">", true, false, false);
        self.write_block_hints(value);
        self.process_line_comment(true);
        self.whitespace = true;
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut breaks = true;
        let mut leading_spaces = true;
        for i in 0..n {
            let c = chars[i];
            if is_break(c) {
                if !breaks && !leading_spaces && c == '\n' {
                    // libyaml scans from the start of the value here (upstream quirk).
                    let mut k = 0;
                    while k < n && is_break(chars[k]) {
                        k += 1;
                    }
                    if !is_blankz(chars.get(k).copied()) {
                        self.put_break();
                    }
                }
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                    leading_spaces = is_blank(c);
                }
                let next_space = chars.get(i + 1) == Some(&' ');
                if !breaks && c == ' ' && !next_space && self.column > self.best_width {
                    self.write_indent();
                } else {
                    self.write_char(c);
                }
                self.indention = false;
                breaks = false;
            }
        }
    }
}

/// yaml.v2 variant of [`sort_keys_v4`] (docs/merge.md §3.2).
pub(crate) fn sort_keys_v2_impl(entries: &mut [(Node, Node)]) {
    sort_entries(entries, key_cmp_v2);
}
