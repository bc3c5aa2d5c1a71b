//! What cel-go's parser does after the grammar: its visitor's refusals (reserved names, the
//! optional syntax, quoted field names, literals, escapes, macros, nesting), and the names the
//! checker will look up.

use super::{Parser, Reported};
use crate::cel::lexer::t::*;

/// A name the checker looks up, where it reports it.
#[derive(Clone)]
pub(crate) struct Reference {
    pub name: String,
    pub at: Pos,
    pub kind: RefKind,
    /// A comprehension's variable, or a use of it in its scope: no reference.
    pub bound: bool,
}

/// What a [`Reference`] names.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum RefKind {
    Variable,
    MessageType,
    Function,
}

impl Parser<'_> {
    pub(super) fn reference(&mut self, name: String, at: Pos, kind: RefKind) {
        self.references.push(Reference { name, at, kind, bound: false });
    }

    /// A message type the checker resolves. Talos's environments know the well-known types
    /// and Talos's resource messages, which are not checked here; any other name is unknown,
    /// and the checker then looks no further into the message. Returns how many references
    /// stay once the message is parsed.
    pub(super) fn message_type(&mut self, name: String, at: Pos) -> Option<usize> {
        let bare = name.strip_prefix('.').unwrap_or(&name);
        if bare.starts_with("google.protobuf.") || bare.starts_with("talos.resource.definitions.") {
            return None;
        }
        self.reference(name, at, RefKind::MessageType);
        Some(self.references.len())
    }

    // --- What cel-go's visitor refuses in a tree the grammar accepted. ---

    pub(super) fn visit_error(&mut self, at: Pos, message: &str) {
        self.visits.push(Reported { at: Some(at), message: message.to_string() });
    }

    /// A selected field's name: a quoted one is refused before cel-go v0.28.
    pub(super) fn check_field_name(&mut self, kind: Kind, at: Pos) {
        if let Some(message) = field_name_error(kind, self.dialect.ident_escapes) {
            self.visit_error(at, message);
        }
    }

    /// The receiver-style macros: `all`, `exists`, `exists_one` and `map`, `filter` take a
    /// variable name first, bound in the other arguments.
    /// `has(e.f)`: a presence test, refused unless its argument selects a field (the call is
    /// then replaced by the error, placed at the argument).
    pub(super) fn has_macro(&mut self, argument: Shape, out: &mut Shape) {
        if argument.kind != Kind::Select {
            self.visit_error(argument.at, "invalid argument to has() macro");
            *out = Shape::other(argument.at, out.depth);
        }
    }

    /// `None` when `name` is no macro for these arguments (a function call), else where the
    /// error is when the macro refuses them.
    pub(super) fn receiver_macro(&mut self, name: &str, args: &[(Shape, usize)]) -> Option<Option<Pos>> {
        let message = match (name, args.len()) {
            ("all" | "exists" | "exists_one", 2) => "argument must be a simple name",
            ("map", 2 | 3) | ("filter", 2) => "argument is not an identifier",
            ("optMap", 2) if self.dialect.optional => "optMap() variable name must be a simple identifier",
            ("optFlatMap", 2) if self.dialect.optional => "optFlatMap() variable name must be a simple identifier",
            _ => return None,
        };
        let (variable, mark) = args[0];
        let optional_macro = name.starts_with("opt");
        match variable.kind {
            // The optional macros bind their name as an accumulator: any name will do.
            Kind::Ident { accumulator } if !accumulator || optional_macro => {
                self.bind(mark, args[1].1);
                return Some(None);
            }
            Kind::Ident { .. } => self.visit_error(variable.at, "iteration variable overwrites accumulator variable"),
            _ => self.visit_error(variable.at, message),
        }
        Some(Some(variable.at))
    }

    /// `optMap` and `optFlatMap` copy their target into the expansion: a plain name always,
    /// anything else before cel-go v0.31. The checker then looks at each copy, so the target's
    /// references (from `target` to the first argument's) are there twice.
    pub(super) fn expand_target(&mut self, name: &str, operand: Shape, target: usize, args: &[(Shape, usize)]) {
        let copied = matches!(operand.kind, Kind::Ident { .. }) || !self.dialect.macro_target_once;
        if !matches!(name, "optMap" | "optFlatMap") || !copied {
            return;
        }
        let end = args.first().map_or(self.references.len(), |a| a.1);
        let copies: Vec<Reference> = self.references[target.min(end)..end].to_vec();
        self.references.extend(copies);
    }

    /// `optional.of(x)` and the other functions of the `optional` namespace (with optional
    /// types): the checker resolves the qualified name as a function, so `optional` is no
    /// variable. Whether the call was one.
    pub(super) fn qualified_function(&mut self, name: &str, operand: Shape, target: usize) -> bool {
        const OPTIONAL: [&str; 4] = ["of", "ofNonZeroValue", "none", "unwrap"];
        if !self.dialect.optional || !matches!(operand.kind, Kind::Ident { .. }) || !OPTIONAL.contains(&name) {
            return false;
        }
        match self.references.get_mut(target) {
            Some(r) if r.kind == RefKind::Variable && r.at == operand.at && r.name == "optional" => {
                r.bound = true;
                true
            }
            _ => false,
        }
    }

    /// A comprehension's variable (the reference at `variable`) is a name, not a reference,
    /// and is no free name in the references from `scope` on.
    pub(super) fn bind(&mut self, variable: usize, scope: usize) {
        let Some(name) = self.references.get(variable).map(|r| r.name.clone()) else { return };
        for (index, other) in self.references.iter_mut().enumerate() {
            if index == variable || (index >= scope && other.kind == RefKind::Variable && other.name == name) {
                other.bound = true;
            }
        }
    }
}

/// A position: 1-based line, 0-based column in characters.
pub(super) type Pos = (usize, usize);

/// What cel-go's visitor makes of a tree, as far as its later checks look: a name, a field
/// selection, a quoted field name, or anything else; where cel-go places it; how deep its
/// visit nests (cel-go stops at 250).
#[derive(Clone, Copy)]
pub(super) struct Shape {
    pub(super) kind: Kind,
    pub(super) at: Pos,
    pub(super) depth: usize,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    /// A name; `accumulator` when it is the name cel-go's comprehensions use.
    Ident {
        accumulator: bool,
    },
    Select,
    Escaped,
    Other,
}

impl Shape {
    pub(super) fn other(at: Pos, depth: usize) -> Shape {
        Shape { kind: Kind::Other, at, depth }
    }

    pub(super) fn deepen(&mut self, depth: usize) {
        self.depth = self.depth.max(depth);
    }
}

/// Names cel-go keeps for itself.
pub(super) fn is_reserved(name: &str) -> bool {
    const RESERVED: [&str; 21] = [
        "as",
        "break",
        "const",
        "continue",
        "else",
        "false",
        "for",
        "function",
        "if",
        "import",
        "in",
        "let",
        "loop",
        "package",
        "namespace",
        "null",
        "return",
        "true",
        "var",
        "void",
        "while",
    ];
    RESERVED.contains(&name)
}

/// The accumulator names of cel-go's comprehensions.
pub(super) fn is_accumulator(name: &str) -> bool {
    name == "__result__" || name == "@result"
}

pub(super) fn field_name_error(kind: Kind, ident_escapes: bool) -> Option<&'static str> {
    match kind {
        Kind::Ident { .. } => None,
        Kind::Escaped if ident_escapes => None,
        Kind::Escaped => Some("unsupported syntax: '`'"),
        _ => Some("unsupported ident kind"),
    }
}

/// cel-go's checks of a literal's value: integers in range, doubles finite, escapes that name
/// a character (strings) or a byte (bytes).
pub(super) fn literal_error(kind: u8, signed: bool, text: &str) -> Option<&'static str> {
    match kind {
        NUM_INT => {
            let (digits, radix) = text.strip_prefix("0x").map_or((text, 10), |hex| (hex, 16));
            let value = if signed { format!("-{digits}") } else { digits.to_string() };
            i64::from_str_radix(&value, radix).is_err().then_some("invalid int literal")
        }
        NUM_UINT => {
            let text = &text[..text.len() - 1];
            let (digits, radix) = text.strip_prefix("0x").map_or((text, 10), |hex| (hex, 16));
            u64::from_str_radix(digits, radix).is_err().then_some("invalid uint literal")
        }
        NUM_FLOAT => {
            let value = if signed { format!("-{text}") } else { text.to_string() };
            value.parse::<f64>().map_or(true, f64::is_infinite).then_some("invalid double literal")
        }
        STRING => escape_error(text, false),
        BYTES => escape_error(&text[1..], true),
        _ => None,
    }
}

/// What cel-go's `unescape` refuses in a string the lexer accepted: `\u`/`\U` in bytes, and
/// code points that are not characters in strings. Raw strings have no escapes.
pub(super) fn escape_error(text: &str, bytes: bool) -> Option<&'static str> {
    if text.starts_with(['r', 'R']) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '\\' {
            i += 1;
            continue;
        }
        let digits = match chars.get(i + 1) {
            Some('u') => 4,
            Some('U') => 8,
            _ => {
                i += 2;
                continue;
            }
        };
        if bytes {
            return Some("unable to unescape string");
        }
        let hex: String = chars.iter().skip(i + 2).take(digits).collect();
        let valid = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).is_some();
        if !valid {
            return Some("invalid unicode code point");
        }
        i += 2 + digits;
    }
    None
}
