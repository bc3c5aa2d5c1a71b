//! The YAML node tree that sits between text and typed documents.
//!
//! The parser produces it (with positions and the styles the author wrote), the typed
//! decoders read it, the encoders build it, and the two emitters print it.

/// Where a node starts in its source text. `line` and `column` are 1-based, `offset` is a byte
/// offset. Nodes built by the encoder carry `Mark::default()` (all zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mark {
    /// 1-based line (0 for nodes built by the encoder).
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// Byte offset from the start of the input.
    pub offset: usize,
}

/// How a scalar is (or must be) written.
///
/// The first five variants are what a parser saw and what an emitter reproduces for preserved
/// nodes. The `Go*` variants are only built by encoders: the emitter then chooses the style the
/// way go-yaml chooses it for that kind of Go value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// Written plain; for encoders: a non-string value already formatted (`1`, `true`, `null`).
    Plain,
    /// `'text'`.
    SingleQuoted,
    /// `"text"`.
    DoubleQuoted,
    /// `|` block.
    Literal,
    /// `>` block.
    Folded,
    /// A Go `string` value marshalled by go-yaml: quoted when it would resolve to another type
    /// (including YAML 1.1 booleans, base-60 numbers and `<<` for v4), literal block for
    /// multi-line text.
    GoString,
    /// A `yaml.Node` scalar tagged `!!str` built by a custom marshaler (`ArgValue`, `FileMode`):
    /// quoted only when it would resolve to another type under go-yaml v4 rules; any text with a
    /// line break becomes a literal block.
    GoNode,
}

/// Block or flow layout of a collection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CollectionStyle {
    /// Indented block layout.
    #[default]
    Block,
    /// `[a, b]` / `{a: b}`.
    Flow,
}

/// A scalar's text and style.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    /// The scalar's text, unescaped.
    pub text: String,
    /// How it was written, or how it must be written.
    pub style: ScalarStyle,
}

/// What a node holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodeValue {
    /// A scalar.
    Scalar(Scalar),
    /// A sequence's items, in order.
    Sequence(Vec<Node>, CollectionStyle),
    /// A mapping's entries, in order (duplicates kept: decoding reports them).
    Mapping(Vec<(Node, Node)>, CollectionStyle),
}

/// One YAML node: value, explicit tag (as written, e.g. `!!binary`; `None` when implicit) and
/// position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The scalar, sequence or mapping.
    pub value: NodeValue,
    /// An explicit tag as written (`!!binary`), `None` when implicit.
    pub tag: Option<String>,
    /// Where the node starts in its source.
    pub mark: Mark,
}

impl Node {
    /// A scalar with the given style and no position.
    pub fn scalar(text: impl Into<String>, style: ScalarStyle) -> Node {
        Node { value: NodeValue::Scalar(Scalar { text: text.into(), style }), tag: None, mark: Mark::default() }
    }

    /// A Go string value (see [`ScalarStyle::GoString`]).
    pub fn go_string(text: impl Into<String>) -> Node {
        Node::scalar(text, ScalarStyle::GoString)
    }

    /// A plain scalar (numbers, booleans, `null`).
    pub fn plain(text: impl Into<String>) -> Node {
        Node::scalar(text, ScalarStyle::Plain)
    }

    /// `null`.
    pub fn null() -> Node {
        Node::plain("null")
    }

    /// A block sequence.
    pub fn sequence(items: Vec<Node>) -> Node {
        Node { value: NodeValue::Sequence(items, CollectionStyle::Block), tag: None, mark: Mark::default() }
    }

    /// A block mapping.
    pub fn mapping(entries: Vec<(Node, Node)>) -> Node {
        Node { value: NodeValue::Mapping(entries, CollectionStyle::Block), tag: None, mark: Mark::default() }
    }

    /// The scalar, if this is one.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            NodeValue::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The mapping entries, if this is a mapping.
    pub fn as_mapping(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            NodeValue::Mapping(e, _) => Some(e),
            _ => None,
        }
    }

    /// The sequence items, if this is a sequence.
    pub fn as_sequence(&self) -> Option<&[Node]> {
        match &self.value {
            NodeValue::Sequence(i, _) => Some(i),
            _ => None,
        }
    }

    /// The value under a scalar key of a mapping (first match).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_mapping()?.iter().find(|(k, _)| k.as_scalar().is_some_and(|s| s.text == key)).map(|(_, v)| v)
    }
}
