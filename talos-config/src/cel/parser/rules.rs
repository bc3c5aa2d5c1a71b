//! The rules from `expr` down to `member`: the ternary, `||` and `&&` chains, the
//! precedence loops of relations and arithmetic, unary operators, member selection, calls and
//! indexing.

use super::sets::*;
use super::visit::{Kind, RefKind, Shape};
use super::{Parser, Rule, Step, Stop, SyncKind};
use crate::cel::lexer::t::*;

impl Parser<'_> {
    pub(super) fn start(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Start, out, |p, out| {
            *out = p.call(1, then(bit(EOF)), Self::expr)?;
            p.expect(EOF, 2, END)
        })
    }

    pub(super) fn expr(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Expr, out, |p, out| {
            let condition = p.call(3, then_or_end(bit(QUESTIONMARK)), Self::conditional_or)?;
            *out = condition;
            if p.la(1) == QUESTIONMARK {
                let at = p.here();
                p.expect(QUESTIONMARK, 4, then(FIRST_EXPR))?;
                *out = Shape::other(at, condition.depth + 1);
                let yes = p.call(5, then(bit(COLON)), Self::conditional_or)?;
                out.deepen(yes.depth + 1);
                p.expect(COLON, 6, then(FIRST_EXPR))?;
                let no = p.call(7, END, Self::expr)?;
                out.deepen(no.depth + 1);
            }
            Ok(())
        })
    }

    /// `||` and `&&` chains: cel-go balances them, the middle operator at the root.
    pub(super) fn logic(
        &mut self,
        rule: Rule,
        op: u8,
        term: fn(&mut Self) -> Result<Shape, Stop>,
    ) -> Result<Shape, Stop> {
        let out = self.other_here();
        let (first, next) = if op == LOGICAL_OR { (8, 9) } else { (11, 12) };
        self.rule(rule, out, |p, out| {
            *out = p.call(first, then_or_end(bit(op)), term)?;
            let mut ops = Vec::new();
            while p.la(1) == op {
                ops.push(p.here());
                p.expect(op, next, then(FIRST_EXPR))?;
                *out = Shape::other(ops[ops.len() / 2], out.depth);
                let operand = p.call(next + 1, then_or_end(bit(op)), term)?;
                out.deepen(operand.depth);
            }
            Ok(())
        })
    }

    pub(super) fn conditional_or(&mut self) -> Result<Shape, Stop> {
        self.logic(Rule::ConditionalOr, LOGICAL_OR, Self::conditional_and)
    }

    pub(super) fn conditional_and(&mut self) -> Result<Shape, Stop> {
        self.logic(Rule::ConditionalAnd, LOGICAL_AND, |p| p.relation(0))
    }

    /// A left-recursive rule's loop step: ANTLR signals the rule's exit to listeners at every
    /// iteration, which lowers cel-go's nesting count for the rule.
    pub(super) fn iterate(&mut self, rule: Rule) {
        self.exit(rule);
    }

    /// A binary operator's expression: at the operator, one level deeper than its operands.
    pub(super) fn binary(&mut self, out: &mut Shape, state: u16) {
        *out = Shape::other(self.here(), out.depth + 1);
        self.take(state);
    }

    pub(super) fn relation(&mut self, precedence: u8) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Relation, out, |p, out| {
            *out = p.call(14, then_or_end(REL_OPS), |p| p.calc(0))?;
            while REL_OPS & bit(p.la(1)) != 0 && precedence <= 1 {
                p.iterate(Rule::Relation);
                p.binary(out, 15);
                let right = p.call(16, then_or_end(REL_OPS), |p| p.relation(2))?;
                out.deepen(right.depth + 1);
            }
            Ok(())
        })
    }

    pub(super) fn calc(&mut self, precedence: u8) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Calc, out, |p, out| {
            *out = p.call(17, then_or_end(MUL_OPS | ADD_OPS), Self::unary)?;
            loop {
                let la = bit(p.la(1));
                let right = if MUL_OPS & la != 0 && precedence <= 2 {
                    p.iterate(Rule::Calc);
                    p.binary(out, 18);
                    p.call(19, then_or_end(MUL_OPS | ADD_OPS), |p| p.calc(3))?
                } else if ADD_OPS & la != 0 && precedence <= 1 {
                    p.iterate(Rule::Calc);
                    p.binary(out, 20);
                    p.call(21, then_or_end(MUL_OPS | ADD_OPS), |p| p.calc(2))?
                } else {
                    break;
                };
                out.deepen(right.depth + 1);
            }
            Ok(())
        })
    }

    /// `!`s or `-`s before a member: an odd number is one operator (at the first), an even
    /// number none.
    pub(super) fn prefixed(&mut self, op: u8, states: (u16, u16, u16, u16), out: &mut Shape) -> Step {
        let (block, each, back, operand) = states;
        self.sync(block, bit(op), SyncKind::Block)?;
        let first = self.here();
        let mut count = 0usize;
        loop {
            self.expect(op, each, then(bit(op) | FIRST_PRIMARY))?;
            count += 1;
            self.sync(back, bit(op) | FIRST_PRIMARY, SyncKind::LoopBack)?;
            match self.la(1) {
                EXCLAM if op == EXCLAM => continue,
                MINUS if op == MINUS && (FIRST_PRIMARY | bit(MINUS)) & bit(self.la(2)) != 0 => continue,
                MINUS if op == MINUS => return Err(self.no_viable(2)),
                kind if FIRST_PRIMARY & bit(kind) != 0 => break,
                _ if op == EXCLAM => break,
                _ => return Err(self.no_viable(1)),
            }
        }
        *out = Shape::other(first, 0);
        let member = self.call(operand, END, |p| p.member())?;
        *out = if count.is_multiple_of(2) { member } else { Shape::other(first, member.depth) };
        Ok(())
    }

    pub(super) fn unary(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        self.rule(Rule::Unary, out, |p, out| {
            p.sync(22, FIRST_EXPR, SyncKind::Block)?;
            match p.la(1) {
                EXCLAM => p.prefixed(EXCLAM, (23, 24, 25, 26), out),
                MINUS if NUMBERS & bit(p.la(2)) != 0 => {
                    *out = p.call(27, END, |p| p.member())?;
                    Ok(())
                }
                MINUS if (FIRST_PRIMARY | bit(MINUS)) & bit(p.la(2)) != 0 => p.prefixed(MINUS, (28, 29, 30, 31), out),
                MINUS => Err(p.no_viable(2)),
                kind if FIRST_PRIMARY & bit(kind) != 0 => {
                    *out = p.call(27, END, |p| p.member())?;
                    Ok(())
                }
                _ => Err(p.no_viable(1)),
            }
        })
    }

    pub(super) fn member(&mut self) -> Result<Shape, Stop> {
        let out = self.other_here();
        // Where the references of the chain's target start.
        let target = self.references.len();
        self.rule(Rule::Member, out, |p, out| {
            *out = p.call(32, then_or_end(MEMBER_OPS), Self::primary)?;
            while MEMBER_OPS & bit(p.la(1)) != 0 {
                p.iterate(Rule::Member);
                p.sync(33, MEMBER_OPS, SyncKind::Block)?;
                let operand = *out;
                let at = p.here();
                if p.la(1) == LBRACKET {
                    p.expect(LBRACKET, 34, then(bit(QUESTIONMARK) | FIRST_EXPR))?;
                    *out = Shape::other(at, operand.depth + 1);
                    p.sync(35, bit(QUESTIONMARK) | FIRST_EXPR, SyncKind::Block)?;
                    let optional = p.la(1) == QUESTIONMARK;
                    if optional {
                        p.expect(QUESTIONMARK, 36, then(FIRST_EXPR))?;
                    }
                    let index = p.call(37, then(bit(RPRACKET)), Self::expr)?;
                    out.deepen(index.depth + 1);
                    if optional && !p.dialect.optional {
                        p.visit_error(at, "unsupported syntax '[?'");
                    }
                    p.expect(RPRACKET, 38, then_or_end(MEMBER_OPS))?;
                    continue;
                }
                let select = match p.la(2) {
                    QUESTIONMARK | ESC_IDENTIFIER => true,
                    IDENTIFIER => p.la(3) != LPAREN,
                    _ => return Err(p.no_viable(2)),
                };
                if select {
                    p.expect(DOT, 39, then(bit(QUESTIONMARK) | IDENTS))?;
                    *out = Shape::other(at, operand.depth + 1);
                    p.sync(40, bit(QUESTIONMARK) | IDENTS, SyncKind::Block)?;
                    let optional = p.la(1) == QUESTIONMARK;
                    if optional {
                        p.expect(QUESTIONMARK, 41, then(IDENTS))?;
                    }
                    let field = p.call(42, then_or_end(MEMBER_OPS), Self::escape_ident)?;
                    p.check_field_name(field.kind, field.at);
                    if optional {
                        // An optional selection is an operator call, not a field selection.
                        if !p.dialect.optional {
                            p.visit_error(at, "unsupported syntax '.?'");
                        }
                    } else {
                        *out = Shape { kind: Kind::Select, at, depth: operand.depth + 1 };
                    }
                } else {
                    p.expect(DOT, 43, then(bit(IDENTIFIER)))?;
                    let name = p.expect_token(IDENTIFIER, 44, then(bit(LPAREN)))?.map(|i| p.text(i));
                    let open = p.here();
                    p.expect(LPAREN, 45, then(FIRST_EXPR | bit(RPAREN)))?;
                    *out = Shape::other(open, operand.depth + 1);
                    p.sync(46, FIRST_EXPR | bit(RPAREN), SyncKind::Block)?;
                    let args = if FIRST_EXPR & bit(p.la(1)) != 0 {
                        p.call(47, then(bit(RPAREN)), Self::expr_list)?
                    } else {
                        Vec::new()
                    };
                    out.deepen(args.iter().map(|(a, _)| a.depth + 1).max().unwrap_or(0));
                    if let Some(name) = name {
                        match p.receiver_macro(&name, &args) {
                            // The call is replaced by the error, placed at the argument.
                            Some(Some(at)) => *out = Shape::other(at, out.depth),
                            Some(None) => p.expand_target(&name, operand, target, &args),
                            None if p.qualified_function(&name, operand, target) => {}
                            None => p.reference(name, open, RefKind::Function),
                        }
                    }
                    p.expect(RPAREN, 48, then_or_end(MEMBER_OPS))?;
                }
            }
            Ok(())
        })
    }
}
