//! The `primary` rule (names, calls, parentheses, lists, maps, messages, literals) and the
//! rules inside its brackets.

use super::sets::*;
use super::visit::{Kind, Pos, RefKind, Shape, field_name_error, is_accumulator, is_reserved, literal_error};
use super::{Parser, Rule, Step, Stop, SyncKind};
use crate::cel::lexer::t::*;

impl Parser<'_> {
    /// Decision among `Ident`, `GlobalCall` and `CreateMessage` for a (dotted) name at `at`:
    /// ANTLR looks past the dots to the token after the name.
    pub(super) fn name_alternative(&self, at: usize) -> Primary {
        let kind = |i: usize| {
            self.read.set(self.read.get().max(i));
            self.token(i).kind
        };
        match kind(at + 1) {
            LPAREN => return Primary::Call,
            LBRACE => return Primary::Message,
            _ => {}
        }
        let mut end = at;
        while kind(end + 1) == DOT && kind(end + 2) == IDENTIFIER {
            end += 2;
        }
        if end > at && kind(end + 1) == LBRACE { Primary::Message } else { Primary::Ident }
    }

    /// A leading `.` and a name: the name's token, if matched.
    pub(super) fn dotted_name(&mut self, states: (u16, u16, u16), after: Follow) -> Result<Option<usize>, Stop> {
        let (block, dot, name) = states;
        self.sync(block, bits(&[DOT, IDENTIFIER]), SyncKind::Block)?;
        if self.la(1) == DOT {
            self.expect(DOT, dot, then(bit(IDENTIFIER)))?;
        }
        self.expect_token(IDENTIFIER, name, after)
    }

    pub(super) fn primary(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Primary, out, |p, out| {
            p.sync(49, FIRST_PRIMARY, SyncKind::Block)?;
            let alternative = match p.la(1) {
                DOT if p.la(2) == IDENTIFIER => p.name_alternative(p.p + 1),
                DOT => return Err(p.no_viable(2)),
                IDENTIFIER => p.name_alternative(p.p),
                LPAREN => Primary::Nested,
                LBRACKET => Primary::List,
                LBRACE => Primary::Map,
                kind if FIRST_LITERAL & bit(kind) != 0 => Primary::Literal,
                _ => return Err(p.no_viable(1)),
            };
            match alternative {
                Primary::Ident => p.name(out),
                Primary::Call => p.global_call(out),
                Primary::Nested => {
                    p.expect(LPAREN, 60, then(FIRST_EXPR))?;
                    *out = p.call(61, then(bit(RPAREN)), Self::expr)?;
                    p.expect(RPAREN, 62, END)
                }
                Primary::List => p.collection(out, (LBRACKET, RPRACKET), (63, 64, 65, 66, 67), Self::list_init),
                Primary::Map => p.collection(out, (LBRACE, RBRACE), (68, 69, 70, 71, 72), Self::map_initializer_list),
                Primary::Message => p.message(out),
                Primary::Literal => {
                    *out = p.call(85, END, Self::literal)?;
                    Ok(())
                }
            }
        })
    }

    /// `'.'? IDENTIFIER`: a variable (or a reserved name, refused).
    fn name(&mut self, out: &mut Shape) -> Step {
        let (start, leading_dot) = (self.here(), self.la(1) == DOT);
        let Some(name) = self.dotted_name((50, 51, 52), END)? else { return Ok(()) };
        let text = self.text(name);
        if is_reserved(&text) {
            self.visit_error(start, &format!("reserved identifier: {text}"));
            *out = Shape::other(start, 0);
            return Ok(());
        }
        let accumulator = !leading_dot && is_accumulator(&text);
        let at = self.position(name);
        let name = if leading_dot { format!(".{text}") } else { text };
        // Talos's environments know message types under these names.
        let qualified_type = matches!(name.as_str(), "google" | "talos") && self.la(1) == DOT;
        if !qualified_type {
            self.reference(name, at, RefKind::Variable);
        }
        *out = Shape { kind: Kind::Ident { accumulator }, at, depth: 0 };
        Ok(())
    }

    /// `'.'? IDENTIFIER '(' exprList? ')'`: a function call, or the `has` macro.
    fn global_call(&mut self, out: &mut Shape) -> Step {
        let (start, leading_dot) = (self.here(), self.la(1) == DOT);
        let name = self.dotted_name((53, 54, 55), then(bit(LPAREN)))?.map(|i| self.text(i));
        let open = self.here();
        self.expect(LPAREN, 56, then(FIRST_EXPR | bit(RPAREN)))?;
        *out = Shape::other(open, 0);
        self.sync(57, FIRST_EXPR | bit(RPAREN), SyncKind::Block)?;
        let mark = self.visits.len();
        let args: Vec<Shape> = if FIRST_EXPR & bit(self.la(1)) != 0 {
            self.call(58, then(bit(RPAREN)), Self::expr_list)?.into_iter().map(|(a, _)| a).collect()
        } else {
            Vec::new()
        };
        out.deepen(args.iter().map(|a| a.depth).max().unwrap_or(0));
        match name {
            // A reserved name is refused before its arguments are looked at.
            Some(name) if is_reserved(&name) => {
                self.visits.truncate(mark);
                self.visit_error(start, &format!("reserved identifier: {name}"));
                *out = Shape::other(start, 0);
            }
            Some(name) if name == "has" && !leading_dot && args.len() == 1 => self.has_macro(args[0], out),
            Some(name) => {
                let name = if leading_dot { format!(".{name}") } else { name };
                self.reference(name, open, RefKind::Function);
            }
            None => {}
        }
        self.expect(RPAREN, 59, END)
    }

    /// A list `[...]` or a map `{...}`: the brackets, the elements (`inside` gives their
    /// deepest nesting), an optional trailing comma.
    fn collection(
        &mut self,
        out: &mut Shape,
        (open, close): (u8, u8),
        (opened, entered, elements, comma, closed): (u16, u16, u16, u16, u16),
        inside: fn(&mut Self) -> Result<usize, Stop>,
    ) -> Step {
        let body = FIRST_OPT_EXPR | bits(&[COMMA, close]);
        *out = Shape::other(self.here(), 0);
        self.expect(open, opened, then(body))?;
        self.sync(entered, body, SyncKind::Block)?;
        if FIRST_OPT_EXPR & bit(self.la(1)) != 0 {
            let depth = self.call(elements, then(bits(&[COMMA, close])), inside)?;
            out.deepen(depth);
        }
        self.trailing_comma(comma, close)?;
        self.expect(close, closed, END)
    }

    /// `'.'? IDENTIFIER ('.' IDENTIFIER)* '{' fieldInitializerList? ','? '}'`: a message.
    fn message(&mut self, out: &mut Shape) -> Step {
        let leading_dot = self.la(1) == DOT;
        let mut name: Vec<String> = Vec::new();
        let first = self.dotted_name((73, 74, 75), then(bits(&[DOT, LBRACE])))?;
        name.extend(first.map(|i| self.text(i)));
        self.sync(76, bits(&[DOT, LBRACE]), SyncKind::Block)?;
        while self.la(1) == DOT {
            self.expect(DOT, 77, then(bit(IDENTIFIER)))?;
            let part = self.expect_token(IDENTIFIER, 78, then(bits(&[DOT, LBRACE])))?;
            name.extend(part.map(|i| self.text(i)));
            self.sync(79, bits(&[DOT, LBRACE]), SyncKind::LoopBack)?;
        }
        let inside = FIRST_FIELD | bits(&[COMMA, RBRACE]);
        let open = self.here();
        *out = Shape::other(open, 0);
        let name = format!("{}{}", if leading_dot { "." } else { "" }, name.join("."));
        let unknown = self.message_type(name, open);
        self.expect(LBRACE, 80, then(inside))?;
        self.sync(81, inside, SyncKind::Block)?;
        if FIRST_FIELD & bit(self.la(1)) != 0 {
            let depth = self.call(82, then(bits(&[COMMA, RBRACE])), Self::field_initializer_list)?;
            out.deepen(depth);
        }
        if let Some(kept) = unknown {
            self.references.truncate(kept);
        }
        self.trailing_comma(83, RBRACE)?;
        self.expect(RBRACE, 84, END)
    }

    /// `','?` before a closing bracket or brace.
    pub(super) fn trailing_comma(&mut self, state: u16, close: u8) -> Step {
        self.sync(state, bits(&[COMMA, close]), SyncKind::Block)?;
        if self.la(1) == COMMA {
            self.expect(COMMA, state + 100, then(bit(close)))?;
        }
        Ok(())
    }

    /// Call arguments, each with where its references begin.
    pub(super) fn expr_list(&mut self) -> Result<Vec<(Shape, usize)>, Stop> {
        self.rule(Rule::ExprList, Vec::new(), |p, out| {
            let mark = p.references.len();
            out.push((p.call(86, then_or_end(bit(COMMA)), Self::expr)?, mark));
            while p.la(1) == COMMA {
                p.expect(COMMA, 87, then(FIRST_EXPR))?;
                let mark = p.references.len();
                out.push((p.call(88, then_or_end(bit(COMMA)), Self::expr)?, mark));
            }
            Ok(())
        })
    }

    /// A list loop's decision: another element only when one starts after the comma (else the
    /// comma is the trailing one).
    pub(super) fn another(&self, first: Set) -> bool {
        self.la(1) == COMMA && first & bit(self.la(2)) != 0
    }

    /// A list's elements; each optional one (`?e`) is refused after it was looked at. The
    /// deepest element's depth.
    pub(super) fn list_init(&mut self) -> Result<usize, Stop> {
        self.rule(Rule::ListInit, 0, |p, depth| {
            let element = |p: &mut Self, depth: &mut usize, state: u16| -> Step {
                let (shape, optional) = p.call(state, then_or_end(bit(COMMA)), Self::opt_expr)?;
                *depth = (*depth).max(shape.depth);
                if let Some(at) = optional.filter(|_| !p.dialect.optional) {
                    p.visit_error(at, "unsupported syntax '?'");
                }
                Ok(())
            };
            element(p, depth, 89)?;
            while p.another(FIRST_OPT_EXPR) {
                p.expect(COMMA, 90, then(FIRST_OPT_EXPR))?;
                element(p, depth, 91)?;
            }
            Ok(())
        })
    }

    /// A message's fields: an optional one (`?f`) or one whose name is not a plain identifier
    /// is refused and its value not looked at. The deepest value's depth.
    pub(super) fn field_initializer_list(&mut self) -> Result<usize, Stop> {
        let start = self.here();
        self.rule(Rule::FieldInitializerList, 0, |p, depth| {
            let field = |p: &mut Self, depth: &mut usize, states: (u16, u16, u16)| -> Step {
                let (name_state, colon, value_state) = states;
                let (optional, name) = p.call(name_state, then(bit(COLON)), Self::opt_field)?;
                p.expect(COLON, colon, then(FIRST_EXPR))?;
                let mark = p.visits.len();
                let value = p.call(value_state, then_or_end(bit(COMMA)), Self::expr)?;
                if let Some(at) = optional.filter(|_| !p.dialect.optional) {
                    p.visits.truncate(mark);
                    p.visit_error(at, "unsupported syntax '?'");
                } else if let Some(message) = field_name_error(name.kind, p.dialect.ident_escapes) {
                    p.visits.truncate(mark);
                    p.visit_error(start, message);
                } else {
                    *depth = (*depth).max(value.depth);
                }
                Ok(())
            };
            field(p, depth, (92, 93, 94))?;
            while p.another(FIRST_FIELD) {
                p.expect(COMMA, 95, then(FIRST_FIELD))?;
                field(p, depth, (96, 97, 98))?;
            }
            Ok(())
        })
    }

    /// `'?'? escapeIdent`: where the `?` was, and the name.
    pub(super) fn opt_field(&mut self) -> Result<(Option<Pos>, Shape), Stop> {
        let out = (None, self.other_here());
        self.rule(Rule::OptField, out, |p, out| {
            p.sync(99, FIRST_FIELD, SyncKind::Block)?;
            if p.la(1) == QUESTIONMARK {
                out.0 = Some(p.here());
                p.expect(QUESTIONMARK, 100, then(IDENTS))?;
            }
            out.1 = p.call(101, END, Self::escape_ident)?;
            Ok(())
        })
    }

    /// A map's entries: an optional key (`?k`) is refused and neither key nor value looked at.
    /// The deepest key's or value's depth.
    pub(super) fn map_initializer_list(&mut self) -> Result<usize, Stop> {
        self.rule(Rule::MapInitializerList, 0, |p, depth| {
            let entry = |p: &mut Self, depth: &mut usize, states: (u16, u16, u16)| -> Step {
                let (key_state, colon, value_state) = states;
                let mark = p.visits.len();
                let (key, optional) = p.call(key_state, then(bit(COLON)), Self::opt_expr)?;
                if let Err(stop) = p.expect(COLON, colon, then(FIRST_EXPR)) {
                    // An entry without its colon is not looked at.
                    p.visits.truncate(mark);
                    return Err(stop);
                }
                let value = p.call(value_state, then_or_end(bit(COMMA)), Self::expr)?;
                if let Some(at) = optional.filter(|_| !p.dialect.optional) {
                    p.visits.truncate(mark);
                    p.visit_error(at, "unsupported syntax '?'");
                } else {
                    *depth = (*depth).max(key.depth).max(value.depth);
                }
                Ok(())
            };
            entry(p, depth, (102, 103, 104))?;
            while p.another(FIRST_OPT_EXPR) {
                p.expect(COMMA, 105, then(FIRST_OPT_EXPR))?;
                entry(p, depth, (106, 107, 108))?;
            }
            Ok(())
        })
    }

    /// A field name: `Ident` for a plain one, `Escaped` for a quoted one, anything else where
    /// no alternative was taken.
    pub(super) fn escape_ident(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::EscapeIdent, out, |p, out| {
            p.sync(109, IDENTS, SyncKind::Block)?;
            match p.la(1) {
                IDENTIFIER => {
                    out.kind = Kind::Ident { accumulator: false };
                    p.expect(IDENTIFIER, 110, END)
                }
                ESC_IDENTIFIER => {
                    out.kind = Kind::Escaped;
                    p.expect(ESC_IDENTIFIER, 111, END)
                }
                _ => Err(p.no_viable(1)),
            }
        })
    }

    /// `'?'? expr`: the expression and where the `?` was.
    pub(super) fn opt_expr(&mut self) -> Result<(Shape, Option<Pos>), Stop> {
        let out = (self.other_here(), None);
        self.rule(Rule::OptExpr, out, |p, out| {
            p.sync(112, bit(QUESTIONMARK) | FIRST_EXPR, SyncKind::Block)?;
            if p.la(1) == QUESTIONMARK {
                out.1 = Some(p.here());
                p.expect(QUESTIONMARK, 113, then(FIRST_EXPR))?;
            }
            out.0 = p.call(114, END, Self::expr)?;
            Ok(())
        })
    }

    pub(super) fn literal(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Literal, out, |p, out| {
            p.sync(115, FIRST_LITERAL, SyncKind::Block)?;
            let (kind, signed) = match (p.la(1), p.la(2)) {
                (MINUS, next @ (NUM_INT | NUM_FLOAT)) => (next, true),
                (MINUS, _) => return Err(p.no_viable(2)),
                (kind, _) if FIRST_LITERAL & bit(kind) != 0 => (kind, false),
                _ => return Err(p.no_viable(1)),
            };
            if matches!(kind, NUM_INT | NUM_FLOAT) {
                p.sync(116, bits(&[MINUS, kind]), SyncKind::Block)?;
                if signed {
                    p.expect(MINUS, 117, then(bit(kind)))?;
                }
            }
            let token = p.expect_token(kind, 118, END)?;
            if let Some(message) = token.and_then(|t| literal_error(kind, signed, &p.text(t))) {
                p.visit_error(out.at, message);
            }
            Ok(())
        })
    }
}

/// The alternatives of `primary`.
#[derive(Clone, Copy)]
pub(super) enum Primary {
    Ident,
    Call,
    Nested,
    List,
    Map,
    Message,
    Literal,
}
