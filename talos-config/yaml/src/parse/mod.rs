//! YAML text to node trees, with go-yaml v4's error texts.
//!
//! The scanner and parser follow libyaml's algorithms (which go-yaml ports) so that documents,
//! node positions, accepted inputs and error texts match go-yaml v4.0.0-rc.4:
//!
//! * reader errors: `yaml: offset N: <problem>` (N is the byte offset of the bad octet);
//! * scanner errors: `yaml: [<context> at <mark>: ][<mark>: ]<problem>` where marks print as
//!   `line L[, column C]`: the line is 1-based, the column is printed (1-based) only when it is
//!   not the first column;
//! * parser errors: the same form, but go-yaml prints the line of a parser mark 0-based (a
//!   go-yaml quirk reproduced here), and a line 0 prints as `<unknown position>`;
//! * the context mark is omitted when it equals the problem mark.
//!
//! v4.0.0-rc.3 ([`Dialect::V4Rc3`], Talos v1.12) words the same problems differently: one
//! position at most (`yaml: line L: <problem>`, see [`YamlError::in_dialect`]), reader errors
//! and unknown anchors without one; it also accepts slightly different inputs (control
//! characters, tag characters, 1024-character implicit keys, `[:x]`).
//!
//! v4.0.0-rc.6 ([`Dialect::V4Rc6`], Talos v1.14) words every problem as
//! `go-yaml load error in <stage> [(<context>)] at <where>: <problem>`: the stage is `reader`,
//! `scanner`, `parser` or `composer`; `<where>` is the problem's mark `L<line>.C<column>` (both
//! 1-based and true, for the parser too), or with a context the range from the context mark to
//! the problem mark (`L3.C8-C13` on one line, `L3.C8-L4.C1` across lines, one mark when both
//! are the same); reader errors say `<unknown position>` and name the bad value. It also parses
//! a few inputs differently: a `:` before `,` `]` or `}` in a flow collection ends a plain
//! scalar, `...` lines may come before the first document, a block scalar at a document's top
//! level may have its text at column 1, and a comment right after the first line can be a foot
//! comment. The `_in` functions take the dialect.

mod parser;
mod reader;
mod scanner;

use std::collections::HashMap;

use super::Dialect;
use super::node::{CollectionStyle, Comments, Mark, Node, NodeValue, Origin, Scalar, ScalarStyle};
use parser::{Event, Parser};
use scanner::{Scanner, Style};

/// A YAML syntax error. `Display` is go-yaml v4's text, e.g.
/// `yaml: while scanning for the next token at line 5: found character that cannot start any token`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// go-yaml's whole text, `yaml: ...` prefix included.
    pub message: String,
    /// 1-based line of the problem, when known.
    pub line: Option<usize>,
    /// 1-based column of the problem, when known.
    pub column: Option<usize>,
    /// The problem behind the text, to word it in another dialect.
    failure: Option<Box<Cause>>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for YamlError {}

/// What an error was made from, kept to word it as another go-yaml release does.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cause {
    /// A scanner or parser problem.
    Syntax(Failure),
    /// An input decoding problem (go-yaml's reader): its text, byte offset and the bad value
    /// (an octet, a code point or a UTF-16 unit; rc.6 names it).
    Reader { problem: &'static str, offset: usize, value: Option<u32> },
    /// A problem go-yaml rc.6 reports from its composer (an alias inside its own anchor): the
    /// text and the alias's position.
    Composer { problem: String, at: Pos },
    /// An alias to an anchor not defined before it: the anchor's name and the alias's
    /// position.
    UnknownAnchor { name: String, at: Pos },
}

impl YamlError {
    /// A syntax error with go-yaml's whole text and the problem's position.
    pub fn new(message: String, line: Option<usize>, column: Option<usize>) -> YamlError {
        YamlError { message, line, column, failure: None }
    }

    /// The same error worded as `dialect`'s go-yaml words it. An error made by the `_in`
    /// functions is already worded in their dialect; errors without a go-yaml counterpart
    /// keep their text.
    ///
    /// ```
    /// use talos_yaml::Dialect;
    /// use talos_yaml::parse::parse_documents;
    ///
    /// let e = parse_documents(b"a: b: c\n").unwrap_err();
    /// assert_eq!(e.message, "yaml: line 1, column 5: mapping values are not allowed in this context");
    /// let e = e.in_dialect(Dialect::V4Rc3);
    /// assert_eq!(e.message, "yaml: mapping values are not allowed in this context");
    /// ```
    pub fn in_dialect(self, dialect: Dialect) -> YamlError {
        let Some(cause) = self.failure.as_deref() else { return self };
        let message = match dialect {
            Dialect::V4Rc3 => cause.rc3_text(),
            Dialect::V4Rc4 => cause.rc4_text(),
            Dialect::V4Rc6 => cause.rc6_text(),
        };
        YamlError { message, ..self }
    }
}

impl Cause {
    fn rc3_text(&self) -> String {
        match self {
            Cause::Syntax(failure) => failure.rc3_text(),
            Cause::Reader { problem, .. } => format!("yaml: {problem}"),
            Cause::Composer { problem, .. } => format!("yaml: {problem}"),
            Cause::UnknownAnchor { name, .. } => format!("yaml: unknown anchor '{name}' referenced"),
        }
    }

    fn rc4_text(&self) -> String {
        match self {
            Cause::Syntax(failure) => failure.rc4_text(),
            Cause::Reader { problem, offset, .. } => format!("yaml: offset {offset}: {problem}"),
            Cause::Composer { problem, .. } => format!("yaml: {problem}"),
            // go-yaml rc.4's composer gives this error the alias node's 1-based line and
            // column, and its error text then prints the column plus one.
            Cause::UnknownAnchor { name, at } => {
                format!("yaml: line {}, column {}: unknown anchor '{name}' referenced", at.line + 1, at.column + 2)
            }
        }
    }

    /// go-yaml v4.0.0-rc.6's `LoadError` text.
    fn rc6_text(&self) -> String {
        match self {
            Cause::Syntax(failure) => failure.rc6_text(),
            // The reader's mark holds only the offset: no line, so no position.
            Cause::Reader { problem, value: Some(value), .. } => {
                format!("go-yaml load error in reader at <unknown position>: {problem} (value: {value})")
            }
            Cause::Reader { problem, value: None, .. } => {
                format!("go-yaml load error in reader at <unknown position>: {problem}")
            }
            Cause::Composer { problem, at } => {
                format!("go-yaml load error in composer at {}: {problem}", short_mark(*at))
            }
            Cause::UnknownAnchor { name, at } => {
                format!("go-yaml load error in composer at {}: unknown anchor '{name}' referenced", short_mark(*at))
            }
        }
    }
}

/// Text that aliases may repeat beyond the input's own size: an alias copies its anchor's
/// scalars (Go shares them), so this bounds the memory a few aliases to a large scalar can take.
pub const ALIAS_TEXT_ALLOWANCE: usize = 1 << 20;

/// go-yaml's alias ratio rule (`allowedAliasRatio`): of the nodes decoded so far, the share that
/// came from alias expansion may be 99% up to 400,000 nodes, falling to 10% at 4,000,000.
fn allowed_alias_ratio(decoded: usize) -> f64 {
    const LOW: usize = 400_000;
    const HIGH: usize = 4_000_000;
    match decoded {
        d if d <= LOW => 0.99,
        d if d >= HIGH => 0.10,
        d => 0.99 - 0.89 * ((d - LOW) as f64 / (HIGH - LOW) as f64),
    }
}

/// A position inside the decoded input: 0-based line and column (in characters), character
/// index and byte offset into the original input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pos {
    pub index: usize,
    pub line: usize,
    pub column: usize,
    pub offset: usize,
}

impl Pos {
    fn to_mark(self) -> Mark {
        Mark { line: self.line + 1, column: self.column + 1, offset: self.offset }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FailureKind {
    Scanner,
    Parser,
}

/// A scanner or parser problem, before formatting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub kind: FailureKind,
    pub context: Option<(&'static str, Pos)>,
    pub problem: String,
    pub mark: Pos,
    /// The context mark is a zero mark (a simple key never saved): rc.6 prints it as
    /// `<unknown position>`.
    pub unset_context: bool,
}

/// go-yaml's printed mark: (line, column, index) as go-yaml's `Mark` holds them.
fn go_mark(kind: FailureKind, p: Pos) -> (usize, usize, usize) {
    match kind {
        FailureKind::Scanner => (p.line + 1, p.column, p.index),
        FailureKind::Parser => (p.line, p.column, p.index),
    }
}

fn mark_string((line, column, _): (usize, usize, usize)) -> String {
    if line == 0 {
        return "<unknown position>".to_string();
    }
    if column != 0 { format!("line {line}, column {}", column + 1) } else { format!("line {line}") }
}

/// go-yaml rc.6's short mark: `L<line>.C<column>`, both 1-based.
fn short_mark(p: Pos) -> String {
    format!("L{}.C{}", p.line + 1, p.column + 1)
}

/// go-yaml rc.6's range from `start` to `end`: `L3.C8-C13` on one line, `L3.C8-L4.C1` across
/// lines, the start alone when both are the same place.
fn mark_range(start: Pos, end: Pos) -> String {
    let from = short_mark(start);
    if start.line != end.line {
        format!("{from}-{}", short_mark(end))
    } else if start.column != end.column {
        format!("{from}-C{}", end.column + 1)
    } else {
        from
    }
}

impl Failure {
    /// go-yaml v4.0.0-rc.3's text of the problem: its `(*parser).fail` prints one line at most
    /// (the context mark's line when that 0-based line is not 0, else the problem mark's; a
    /// scanner's line 1-based, a parser's as it stands), never a column or the context text.
    fn rc3_text(&self) -> String {
        let raw = match self.context {
            Some((_, context)) if context.line != 0 => context.line,
            _ => self.mark.line,
        };
        let shown = match self.kind {
            FailureKind::Scanner if raw != 0 => raw + 1,
            FailureKind::Scanner => 0,
            FailureKind::Parser => raw,
        };
        if shown != 0 { format!("yaml: line {shown}: {}", self.problem) } else { format!("yaml: {}", self.problem) }
    }

    /// go-yaml v4.0.0-rc.4's text of the problem.
    fn rc4_text(&self) -> String {
        let problem_mark = go_mark(self.kind, self.mark);
        let mut message = String::from("yaml: ");
        let mut show_problem_mark = true;
        if let Some((ctx, cm)) = self.context {
            let context_mark = go_mark(self.kind, cm);
            message.push_str(&format!("{ctx} at {}: ", mark_string(context_mark)));
            show_problem_mark = context_mark != problem_mark;
        }
        if show_problem_mark {
            message.push_str(&format!("{}: ", mark_string(problem_mark)));
        }
        message.push_str(&self.problem);
        message
    }

    /// go-yaml v4.0.0-rc.6's text of the problem: the stage, the context, and the range from
    /// the context mark to the problem mark (true 1-based lines and columns for both stages).
    fn rc6_text(&self) -> String {
        let stage = match self.kind {
            FailureKind::Scanner => "scanner",
            FailureKind::Parser => "parser",
        };
        match self.context {
            Some((context, _)) if self.unset_context => format!(
                "go-yaml load error in {stage} ({context}) at <unknown position>-{}: {}",
                short_mark(self.mark),
                self.problem
            ),
            Some((context, at)) => {
                format!("go-yaml load error in {stage} ({context}) at {}: {}", mark_range(at, self.mark), self.problem)
            }
            None => format!("go-yaml load error in {stage} at {}: {}", short_mark(self.mark), self.problem),
        }
    }

    /// The error with rc.4's text ([`YamlError::in_dialect`] rewords it).
    fn into_error(self) -> YamlError {
        let message = self.rc4_text();
        let (line, column) = (Some(self.mark.line + 1), Some(self.mark.column + 1));
        YamlError { message, line, column, failure: Some(Box::new(Cause::Syntax(self))) }
    }
}

fn plain_error(message: String, at: Option<Pos>) -> YamlError {
    YamlError::new(message, at.map(|p| p.line + 1), at.map(|p| p.column + 1))
}

/// Parses every document of a YAML stream, as go-yaml v4's decoder yields them: one root node
/// per document (an empty document, e.g. after a trailing `---`, is a plain empty scalar).
/// Aliases are expanded. Invalid UTF-8 is an error. go-yaml v4.0.0-rc.4's rules and texts.
pub fn parse_documents(input: &[u8]) -> Result<Vec<Node>, YamlError> {
    parse_documents_in(input, Dialect::V4Rc4)
}

/// [`parse_documents`] with the acceptance rules and error texts of `dialect`.
///
/// ```
/// use talos_yaml::Dialect;
/// use talos_yaml::parse::parse_documents_in;
///
/// let e = parse_documents_in(b"a: *x\n", Dialect::V4Rc3).unwrap_err();
/// assert_eq!(e.message, "yaml: unknown anchor 'x' referenced");
/// ```
pub fn parse_documents_in(input: &[u8], dialect: Dialect) -> Result<Vec<Node>, YamlError> {
    Ok(parse_stream_in(input, dialect)?.into_iter().map(|d| d.root).collect())
}

/// How many documents [`parse_documents_in`] finds, or its error: the same parse, keeping no
/// scalar's text, so that a large stream is not held in memory to be counted.
///
/// ```
/// use talos_yaml::Dialect;
/// use talos_yaml::parse::count_documents_in;
///
/// assert_eq!(count_documents_in(b"a: 1\n---\nb: 2\n", Dialect::V4Rc4).unwrap(), 2);
/// assert!(count_documents_in(b"a: 1\n---\n[unclosed\n", Dialect::V4Rc4).is_err());
/// ```
pub fn count_documents_in(input: &[u8], dialect: Dialect) -> Result<usize, YamlError> {
    match parse_up_to(input, usize::MAX, dialect, Text::Dropped) {
        (docs, None) => Ok(docs.len()),
        (_, Some(e)) => Err(e),
    }
}

/// Whether the composed nodes keep their scalars' text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    Kept,
    /// Only counted (the alias budgets need its size): nothing reads the nodes' text.
    Dropped,
}

/// One document of a stream: its root node and where the document starts, as go-yaml's
/// document node records it (the `---` or directive of an explicit document, else its content).
#[derive(Debug)]
pub struct ParsedDocument {
    /// The document's root node.
    pub root: Node,
    /// Where the document starts.
    pub start: Mark,
}

/// [`parse_documents`], with where each document starts.
///
/// ```
/// let docs = talos_yaml::parse::parse_stream(b"---\na: 1\n").unwrap();
/// assert_eq!((docs[0].start.line, docs[0].root.mark.line), (1, 2));
/// ```
pub fn parse_stream(input: &[u8]) -> Result<Vec<ParsedDocument>, YamlError> {
    parse_stream_in(input, Dialect::V4Rc4)
}

/// [`parse_stream`] with the acceptance rules and error texts of `dialect`.
pub fn parse_stream_in(input: &[u8], dialect: Dialect) -> Result<Vec<ParsedDocument>, YamlError> {
    match parse_up_to(input, usize::MAX, dialect, Text::Kept) {
        (docs, None) => Ok(docs),
        (_, Some(e)) => Err(e),
    }
}

/// [`parse_stream`] as go-yaml's `Decoder` reads a stream, one document at a time: the
/// documents completed before the first syntax error, and that error. A caller that decodes
/// each document before asking for the next reports an earlier document's own error first.
/// (An encoding error of the input is reported with no documents.)
///
/// ```
/// let (docs, err) = talos_yaml::parse::parse_stream_partial(b"a: 1\n---\n[unclosed\n");
/// assert_eq!(docs.len(), 1);
/// assert!(err.is_some());
/// ```
pub fn parse_stream_partial(input: &[u8]) -> (Vec<ParsedDocument>, Option<YamlError>) {
    parse_stream_partial_in(input, Dialect::V4Rc4)
}

/// [`parse_stream_partial`] with the acceptance rules and error texts of `dialect`.
///
/// ```
/// use talos_yaml::Dialect;
/// use talos_yaml::parse::parse_stream_partial_in;
///
/// let (docs, err) = parse_stream_partial_in(b"a: 1\n---\nb: [:x]\n", Dialect::V4Rc3);
/// assert_eq!(docs.len(), 1);
/// assert_eq!(err.map(|e| e.message).as_deref(), Some("yaml: line 2: did not find expected node content"));
/// ```
pub fn parse_stream_partial_in(input: &[u8], dialect: Dialect) -> (Vec<ParsedDocument>, Option<YamlError>) {
    parse_up_to(input, usize::MAX, dialect, Text::Kept)
}

/// The first document only, as go-yaml's `Unmarshal` reads it: what follows it is not parsed,
/// so a later syntax error goes unnoticed. `None` for a stream with no document.
///
/// ```
/// let first = talos_yaml::parse::parse_first_document(b"a: 1\n---\n[unclosed\n").unwrap();
/// assert_eq!(first.map(|d| d.root.get("a").is_some()), Some(true));
/// ```
pub fn parse_first_document(input: &[u8]) -> Result<Option<ParsedDocument>, YamlError> {
    parse_first_document_in(input, Dialect::V4Rc4)
}

/// [`parse_first_document`] with the acceptance rules and error texts of `dialect`.
pub fn parse_first_document_in(input: &[u8], dialect: Dialect) -> Result<Option<ParsedDocument>, YamlError> {
    match parse_up_to(input, 1, dialect, Text::Kept) {
        (docs, None) => Ok(docs.into_iter().next()),
        (_, Some(e)) => Err(e),
    }
}

/// Parses at most `max_docs` documents: those completed, and the error that stopped parsing.
fn parse_up_to(
    input: &[u8],
    max_docs: usize,
    dialect: Dialect,
    text: Text,
) -> (Vec<ParsedDocument>, Option<YamlError>) {
    let decoded = reader::decode(input, dialect);
    let scanner = Scanner::new(&decoded.text, decoded.start_offset, dialect);
    let mut parser = Parser::new(scanner);
    let mut docs = Vec::new();
    let result = compose(&mut parser, input.len(), max_docs, text, &mut docs);
    if let Some(problem) = &decoded.problem {
        // go-yaml decodes its input in chunks: the decoding error surfaces as soon as the
        // scanner needs a character from the chunk that holds it, unless a syntax error came
        // first; a whole stream parsed without error has read everything.
        let surfaced = parser.scanner.max_seen.get() >= problem.surfaces_at;
        let read_all = result.is_ok() && docs.len() < max_docs;
        if read_all || surfaced {
            let cause = Cause::Reader { problem: problem.problem, offset: problem.offset, value: problem.value };
            let error = YamlError { message: String::new(), line: None, column: None, failure: Some(Box::new(cause)) };
            return (Vec::new(), Some(error.in_dialect(dialect)));
        }
    }
    (docs, result.err().map(|e| e.in_dialect(dialect)))
}

/// An open collection while building a document.
struct Frame {
    node: Node,
    anchor: Option<String>,
    pending_key: Option<Node>,
    /// Nodes and scalar bytes in this subtree so far (for the alias budgets).
    size: Size,
}

/// A subtree's node count and scalar text bytes.
#[derive(Clone, Copy, Default)]
struct Size {
    nodes: usize,
    bytes: usize,
}

impl Size {
    fn add(&mut self, other: Size) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }
}

struct Composer {
    anchors: HashMap<String, (Node, Size)>,
    open_anchors: Vec<String>,
    /// Nodes decoded in this document, and how many came from alias expansion (go-yaml's
    /// `decodeCount` and `aliasCount`).
    decoded: usize,
    from_aliases: usize,
    /// Scalar bytes copied by aliases, and the most allowed: the input's size plus
    /// [`ALIAS_TEXT_ALLOWANCE`].
    alias_bytes: usize,
    alias_bytes_limit: usize,
}

impl Composer {
    /// Counts an alias's expansion; an error when it breaks go-yaml's ratio rule or copies too
    /// much text.
    fn expand_alias(&mut self, size: Size, at: Pos) -> Result<(), YamlError> {
        self.decoded = self.decoded.saturating_add(size.nodes);
        self.from_aliases = self.from_aliases.saturating_add(size.nodes);
        if self.from_aliases > 100
            && self.decoded > 1000
            && self.from_aliases as f64 / self.decoded as f64 > allowed_alias_ratio(self.decoded)
        {
            return Err(plain_error("yaml: document contains excessive aliasing".to_string(), Some(at)));
        }
        self.alias_bytes = self.alias_bytes.saturating_add(size.bytes);
        if self.alias_bytes > self.alias_bytes_limit {
            return Err(plain_error(
                format!(
                    "yaml: document contains excessive aliasing: aliases repeat more than {} bytes of text (the input's size plus 1 MiB); write the text out where it is needed instead",
                    self.alias_bytes_limit
                ),
                Some(at),
            ));
        }
        Ok(())
    }
}

/// The tag in go-yaml's short form; the non-specific `!` counts as no tag, as in go-yaml's
/// composer.
fn short_tag(tag: Option<String>) -> Option<String> {
    tag.filter(|t| t != "!").map(|t| match t.strip_prefix("tag:yaml.org,2002:") {
        Some(rest) => format!("!!{rest}"),
        None => t,
    })
}

/// The anchor, tag and comments a node was written with, when it had any.
fn written(anchor: &Option<String>, tag: &Option<String>, comments: Comments) -> Option<Box<Origin>> {
    let tagged = tag.as_deref().is_some_and(|t| t != "!");
    (anchor.is_some() || tagged || !comments.is_empty())
        .then(|| Box::new(Origin { anchor: anchor.clone(), alias: None, tagged, comments }))
}

/// A node's foot comment, empty when it has none.
fn foot(node: &Node) -> &str {
    node.origin.as_ref().map_or("", |o| o.comments.foot.as_str())
}

/// Takes a node's foot comment away.
fn take_foot(node: &mut Node) -> String {
    node.origin.as_mut().map(|o| std::mem::take(&mut o.comments.foot)).unwrap_or_default()
}

/// Sets a node's line and foot comments (go-yaml's composer overwrites both at a collection's
/// end).
fn set_end_comments(node: &mut Node, end: Comments) {
    match &mut node.origin {
        Some(origin) => {
            origin.comments.line = end.line;
            origin.comments.foot = end.foot;
        }
        None if end.is_empty() => {}
        None => node.origin = Some(Box::new(Origin::with_comments(end))),
    }
}

/// Sets a node's foot comment.
fn set_foot(node: &mut Node, text: String) {
    match &mut node.origin {
        Some(origin) => origin.comments.foot = text,
        None if text.is_empty() => {}
        None => node.origin = Some(Box::new(Origin::with_comments(Comments { foot: text, ..Comments::default() }))),
    }
}

fn scalar_style(style: Style) -> ScalarStyle {
    match style {
        Style::Plain => ScalarStyle::Plain,
        Style::Single => ScalarStyle::SingleQuoted,
        Style::Double => ScalarStyle::DoubleQuoted,
        Style::Literal => ScalarStyle::Literal,
        Style::Folded => ScalarStyle::Folded,
    }
}

fn compose(
    parser: &mut Parser<'_>,
    input_len: usize,
    max_docs: usize,
    text: Text,
    docs: &mut Vec<ParsedDocument>,
) -> Result<(), YamlError> {
    let mut composer = Composer {
        anchors: HashMap::new(),
        open_anchors: Vec::new(),
        decoded: 0,
        from_aliases: 0,
        alias_bytes: 0,
        alias_bytes_limit: input_len.saturating_add(ALIAS_TEXT_ALLOWANCE),
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    let mut doc_start = Mark::default();
    loop {
        let event = match parser.next_event() {
            Ok(Some(e)) => e,
            Ok(None) => break,
            Err(f) => return Err(f.into_error()),
        };
        // A finished node (scalar, alias copy or closed collection) and its subtree size.
        let finished: Option<(Node, Size)> = match event {
            Event::StreamEnd => None,
            Event::DocumentStart { start } => {
                doc_start = start.to_mark();
                // go-yaml's decoder keeps anchors across the documents of a stream; its alias
                // counts are per document.
                root = None;
                composer.decoded = 0;
                composer.from_aliases = 0;
                None
            }
            Event::DocumentEnd => {
                docs.push(ParsedDocument { root: root.take().unwrap_or_else(|| Node::plain("")), start: doc_start });
                if docs.len() >= max_docs {
                    break;
                }
                None
            }
            Event::Alias { name, start, comments } => {
                if composer.open_anchors.contains(&name) {
                    let error = plain_error(String::new(), Some(start));
                    let cause =
                        Cause::Composer { problem: format!("anchor '{name}' value contains itself"), at: start };
                    return Err(YamlError { failure: Some(Box::new(cause)), ..error }.in_dialect(Dialect::V4Rc4));
                }
                let Some((node, size)) = composer.anchors.get(&name) else {
                    let error = plain_error(String::new(), Some(start));
                    let cause = Cause::UnknownAnchor { name, at: start };
                    return Err(YamlError { failure: Some(Box::new(cause)), ..error }.in_dialect(Dialect::V4Rc4));
                };
                let (mut node, size) = (node.clone(), *size);
                composer.expand_alias(size, start)?;
                node.origin = Some(Box::new(Origin { alias: Some(name), comments, ..Origin::default() }));
                Some((node, size))
            }
            Event::Scalar { value, style, anchor, tag, start, comments } => {
                composer.decoded = composer.decoded.saturating_add(1);
                let size = Size { nodes: 1, bytes: value.len() };
                let value = if text == Text::Kept { value } else { String::new() };
                let node = Node {
                    value: NodeValue::Scalar(Scalar { text: value, style: scalar_style(style) }),
                    origin: written(&anchor, &tag, comments),
                    tag: short_tag(tag),
                    mark: start.to_mark(),
                };
                if let Some(a) = anchor {
                    composer.anchors.insert(a, (node.clone(), size));
                }
                Some((node, size))
            }
            Event::SequenceStart { anchor, tag, flow, start, comments } => {
                let value = NodeValue::Sequence(Vec::new(), style_of(flow));
                open(&mut stack, &mut composer, Opening { anchor, tag, start, comments }, value);
                None
            }
            Event::MappingStart { anchor, tag, flow, start, comments } => {
                let value = NodeValue::Mapping(Vec::new(), style_of(flow));
                open(&mut stack, &mut composer, Opening { anchor, tag, start, comments }, value);
                None
            }
            Event::SequenceEnd(end) | Event::MappingEnd(end) => {
                let Some(mut frame) = stack.pop() else {
                    return Err(plain_error("yaml: unbalanced collection end".to_string(), None));
                };
                close_comments(&mut frame.node, end);
                if let Some(a) = frame.anchor {
                    composer.open_anchors.retain(|x| *x != a);
                    composer.anchors.insert(a, (frame.node.clone(), frame.size));
                }
                Some((frame.node, frame.size))
            }
        };
        if let Some((node, size)) = finished {
            attach(&mut stack, &mut root, node, size);
        }
    }
    Ok(())
}

fn style_of(flow: bool) -> CollectionStyle {
    if flow { CollectionStyle::Flow } else { CollectionStyle::Block }
}

/// What a collection's start event carries.
struct Opening {
    anchor: Option<String>,
    tag: Option<String>,
    start: Pos,
    comments: Comments,
}

fn open(stack: &mut Vec<Frame>, composer: &mut Composer, opening: Opening, value: NodeValue) {
    let Opening { anchor, tag, start, comments } = opening;
    if let Some(a) = &anchor {
        composer.open_anchors.push(a.clone());
    }
    composer.decoded = composer.decoded.saturating_add(1);
    stack.push(Frame {
        node: Node { value, origin: written(&anchor, &tag, comments), tag: short_tag(tag), mark: start.to_mark() },
        anchor,
        pending_key: None,
        size: Size { nodes: 1, bytes: 0 },
    });
}

/// A collection's end: its line and foot comments, and (go-yaml's composer) a block mapping's
/// foot comment moves to its last key.
fn close_comments(node: &mut Node, end: Comments) {
    set_end_comments(node, end);
    if let NodeValue::Mapping(entries, CollectionStyle::Block) = &mut node.value
        && !entries.is_empty()
        && !foot(node).is_empty()
    {
        let text = take_foot(node);
        if let NodeValue::Mapping(entries, _) = &mut node.value
            && let Some((key, _)) = entries.last_mut()
        {
            set_foot(key, text);
        }
    }
}

/// Adds a finished node to the innermost open collection, or makes it the document root.
///
/// In a mapping, go-yaml's composer moves foot comments: a block key's foot comment goes to
/// the key before it, and a value's to its key when the key has none.
fn attach(stack: &mut [Frame], root: &mut Option<Node>, mut node: Node, size: Size) {
    let Some(frame) = stack.last_mut() else {
        *root = Some(node);
        return;
    };
    frame.size.add(size);
    match &mut frame.node.value {
        NodeValue::Sequence(items, _) => items.push(node),
        NodeValue::Mapping(entries, style) => match frame.pending_key.take() {
            Some(mut key) => {
                if foot(&key).is_empty() && !foot(&node).is_empty() {
                    let text = take_foot(&mut node);
                    set_foot(&mut key, text);
                }
                entries.push((key, node));
            }
            None => {
                if *style == CollectionStyle::Block
                    && !foot(&node).is_empty()
                    && let Some((previous, _)) = entries.last_mut()
                {
                    let text = take_foot(&mut node);
                    set_foot(previous, text);
                }
                frame.pending_key = Some(node);
            }
        },
        NodeValue::Scalar(_) => {}
    }
}
