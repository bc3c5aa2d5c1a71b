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
pub struct Node {
    /// The scalar, sequence or mapping.
    pub value: NodeValue,
    /// An explicit tag as written (`!!binary`), `None` when implicit.
    pub tag: Option<String>,
    /// Where the node starts in its source.
    pub mark: Mark,
    /// The anchor or alias the node was written with, when it had one (boxed: most nodes have
    /// none).
    pub origin: Option<Box<Origin>>,
}

/// How a parsed node was written, beyond its value: go-yaml keeps this on its nodes and prints
/// it again when it re-encodes one (Talos's unknown-keys summary).
///
/// Comments do not take part in comparing or hashing nodes: two nodes that differ only in
/// their comments are equal.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Origin {
    /// `&name` on the node.
    pub anchor: Option<String>,
    /// The node is the copy an alias `*name` stands for (aliases are expanded when parsing).
    pub alias: Option<String>,
    /// The tag was written in the source (go-yaml's `TaggedStyle`): printed as it stands.
    pub tagged: bool,
    /// The comments go-yaml attaches to the node.
    pub comments: Comments,
}

/// go-yaml's comments on a node (`HeadComment`, `LineComment`, `FootComment`): each is the
/// comment text with its `#`, lines joined by `\n` (an empty line between comments of one
/// block is an empty line in the text); empty when there is none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Comments {
    /// The comment lines above the node.
    pub head: String,
    /// The comment at the end of the node's line.
    pub line: String,
    /// The comment lines below the node.
    pub foot: String,
}

impl Comments {
    /// True when the node has no comment.
    pub fn is_empty(&self) -> bool {
        self.head.is_empty() && self.line.is_empty() && self.foot.is_empty()
    }
}

impl Origin {
    /// An origin that records nothing beyond the given comments.
    pub fn with_comments(comments: Comments) -> Origin {
        Origin { comments, ..Origin::default() }
    }

    /// What compares and hashes: comments are left out.
    fn identity(&self) -> (Option<&str>, Option<&str>, bool) {
        (self.anchor.as_deref(), self.alias.as_deref(), self.tagged)
    }
}

/// The written form of a node that takes part in equality: `None` for no origin or one that
/// holds only comments.
fn origin_identity(origin: &Option<Box<Origin>>) -> Option<(Option<&str>, Option<&str>, bool)> {
    origin.as_deref().map(Origin::identity).filter(|id| *id != (None, None, false))
}

impl Node {
    /// A scalar with the given style and no position.
    pub fn scalar(text: impl Into<String>, style: ScalarStyle) -> Node {
        Node {
            value: NodeValue::Scalar(Scalar { text: text.into(), style }),
            tag: None,
            mark: Mark::default(),
            origin: None,
        }
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
        Node {
            value: NodeValue::Sequence(items, CollectionStyle::Block),
            tag: None,
            mark: Mark::default(),
            origin: None,
        }
    }

    /// A block mapping.
    pub fn mapping(entries: Vec<(Node, Node)>) -> Node {
        Node {
            value: NodeValue::Mapping(entries, CollectionStyle::Block),
            tag: None,
            mark: Mark::default(),
            origin: None,
        }
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

    /// True for a sequence or mapping with at least one item.
    pub fn has_children(&self) -> bool {
        match &self.value {
            NodeValue::Scalar(_) => false,
            NodeValue::Sequence(items, _) => !items.is_empty(),
            NodeValue::Mapping(entries, _) => !entries.is_empty(),
        }
    }

    /// The value under a scalar key of a mapping (first match).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_mapping()?.iter().find(|(k, _)| k.as_scalar().is_some_and(|s| s.text == key)).map(|(_, v)| v)
    }
}

/// `Clone` and `PartialEq` recurse as deep as the tree; [`deep`] keeps that safe on any thread.
impl Clone for Node {
    fn clone(&self) -> Node {
        deep(|| Node { value: self.value.clone(), tag: self.tag.clone(), mark: self.mark, origin: self.origin.clone() })
    }
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        deep(|| {
            self.value == other.value
                && self.tag == other.tag
                && self.mark == other.mark
                && origin_identity(&self.origin) == origin_identity(&other.origin)
        })
    }
}

impl Eq for Node {}

impl std::hash::Hash for Node {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        deep(|| {
            self.value.hash(state);
            self.tag.hash(state);
            self.mark.hash(state);
            origin_identity(&self.origin).hash(state);
        });
    }
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        deep(|| {
            f.debug_struct("Node")
                .field("value", &self.value)
                .field("tag", &self.tag)
                .field("mark", &self.mark)
                .field("origin", &self.origin)
                .finish()
        })
    }
}

/// Dropping never recurses: subtrees are moved to a list on the heap and freed one node at a
/// time, so that a tree of any depth is freed on any thread.
impl Drop for Node {
    fn drop(&mut self) {
        let mut pending = Vec::new();
        defer_children(&mut self.value, &mut pending);
        while let Some(mut node) = pending.pop() {
            defer_children(&mut node.value, &mut pending);
        }
    }
}

/// Moves the children that have children of their own to `pending` (leaves are freed in place).
fn defer_children(value: &mut NodeValue, pending: &mut Vec<Node>) {
    let mut defer = |node: &mut Node| {
        if node.has_children() {
            pending.push(std::mem::replace(node, Node::plain("")));
        }
    };
    match value {
        NodeValue::Scalar(_) => {}
        NodeValue::Sequence(items, _) => items.iter_mut().for_each(defer),
        NodeValue::Mapping(entries, _) => entries.iter_mut().for_each(|(k, v)| {
            defer(k);
            defer(v);
        }),
    }
}

/// Stack left below which [`deep`] moves to a new segment, and that segment's size.
const RED_ZONE: usize = 128 * 1024;
const SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f`, first moving to a new stack segment on the heap when less than 128 KiB of the
/// current stack is left. Every recursive pass over a YAML tree (or a tree decoded from one)
/// calls it once per level, so that the deepest input the parser accepts (10,000 levels, as
/// go-yaml) is handled on any thread, even one with a 256 KiB stack.
///
/// ```
/// fn depth(node: &talos_yaml::Node) -> usize {
///     talos_yaml::node::deep(|| 1 + node.as_sequence().map_or(0, |items| items.iter().map(depth).max().unwrap_or(0)))
/// }
/// let doc = talos_yaml::parse::parse_documents(b"[[[x]]]").unwrap();
/// assert_eq!(depth(&doc[0]), 4);
/// ```
pub fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}
