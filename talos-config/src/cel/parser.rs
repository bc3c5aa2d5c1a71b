//! CEL's grammar (CEL.g4) parsed as the parser ANTLR generates for cel-go, for its syntax
//! errors: the same decisions (one token of lookahead where ANTLR's prediction settles on one,
//! more where it looks further), the same error strategy (`DefaultErrorStrategy`: single-token
//! deletion and insertion, `sync` before blocks and loops, recovery to the follow sets of the
//! rules being parsed) and cel-go's limits (30 recoveries, 100 reported errors, 250 nested
//! rules of one kind). No tree is built: only the messages and their positions are wanted.

use super::lexer::t::*;
use super::lexer::{Token, display_name};

/// A set of token types (bit `n` is type `n`; bit 0 is end of input).
type Set = u64;

const fn bit(kind: u8) -> Set {
    1 << kind
}

const fn bits(kinds: &[u8]) -> Set {
    let mut set = 0;
    let mut i = 0;
    while i < kinds.len() {
        set |= bit(kinds[i]);
        i += 1;
    }
    set
}

const FIRST_PRIMARY: Set = bits(&[
    LBRACKET, LBRACE, LPAREN, DOT, MINUS, CEL_TRUE, CEL_FALSE, NUL, NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES,
    IDENTIFIER,
]);
const FIRST_EXPR: Set = FIRST_PRIMARY | bit(EXCLAM);
const FIRST_OPT_EXPR: Set = FIRST_EXPR | bit(QUESTIONMARK);
const FIRST_FIELD: Set = bits(&[QUESTIONMARK, IDENTIFIER, ESC_IDENTIFIER]);
const FIRST_LITERAL: Set = bits(&[MINUS, NUM_INT, NUM_UINT, NUM_FLOAT, STRING, BYTES, CEL_TRUE, CEL_FALSE, NUL]);
const IDENTS: Set = bits(&[IDENTIFIER, ESC_IDENTIFIER]);
const NUMBERS: Set = bits(&[NUM_INT, NUM_FLOAT]);
const REL_OPS: Set = bits(&[EQUALS, NOT_EQUALS, IN, LESS, LESS_EQUALS, GREATER_EQUALS, GREATER]);
const MUL_OPS: Set = bits(&[STAR, SLASH, PERCENT]);
const ADD_OPS: Set = bits(&[PLUS, MINUS]);
const MEMBER_OPS: Set = bits(&[DOT, LBRACKET]);

/// What may follow a point within its rule: tokens, and whether the rule may end there.
#[derive(Clone, Copy)]
struct Follow {
    set: Set,
    end: bool,
}

const fn then(set: Set) -> Follow {
    Follow { set, end: false }
}

const fn then_or_end(set: Set) -> Follow {
    Follow { set, end: true }
}

const END: Follow = then_or_end(0);

/// cel-go's limits.
const MAX_RULE_DEPTH: usize = 250;
const MAX_RECOVERIES: usize = 30;
const MAX_SYNTAX_ERRORS: usize = 100;
const MAX_RECOVERY_LOOKAHEAD: usize = 256;

/// Rule numbers, for the per-rule nesting limit.
#[derive(Clone, Copy)]
enum Rule {
    Start,
    Expr,
    ConditionalOr,
    ConditionalAnd,
    Relation,
    Calc,
    Unary,
    Member,
    Primary,
    ExprList,
    ListInit,
    FieldInitializerList,
    OptField,
    MapInitializerList,
    EscapeIdent,
    OptExpr,
    Literal,
}

/// A recognition error on its way to its rule's recovery.
enum Failure {
    /// The token at `at` is not one of `expected`.
    Mismatch { at: usize, expected: Set },
    /// No alternative of a decision starting at `start` takes the tokens up to `at`.
    NoViable { start: usize, at: usize },
}

/// Why parsing stopped early: a recognition error (recovered by the rule that catches it) or
/// one of cel-go's limits (parsing ends).
enum Stop {
    Failed(Failure),
    Abort,
}

type Step = Result<(), Stop>;

/// An error and where it is (1-based line, 0-based column in characters); `None` for cel-go's
/// errors without a location.
pub(crate) struct Reported {
    pub at: Option<(usize, usize)>,
    pub message: String,
}

/// How a `sync` point fails: before a block (or loop entry) it may delete one token or fail;
/// at a loop's back edge it reports and skips.
#[derive(Clone, Copy)]
enum SyncKind {
    Block,
    LoopBack,
}

struct Parser<'s> {
    chars: &'s [char],
    tokens: &'s [Token],
    /// Indices of the tokens the parser sees (hidden ones left out); the last is the end.
    on: Vec<usize>,
    p: usize,
    recovering: bool,
    last_error_index: Option<usize>,
    last_error_states: Vec<u16>,
    state: u16,
    frames: Vec<Follow>,
    errors: Vec<Reported>,
    reports: usize,
    /// The lexer's errors, each with the number of tokens made before it: cel-go's lexer runs
    /// as the parser reads ahead, so an error is reported once the parser has read past it.
    lexer_errors: Vec<(usize, Reported)>,
    next_lexer_error: usize,
    /// The furthest token (among those the parser sees) read so far.
    read: std::cell::Cell<usize>,
    recoveries: usize,
    depth: [usize; 17],
}

/// The syntax errors of an expression as cel-go's parser reports them, in the order reported,
/// each `Syntax error: ...` with its position; cel-go's internal errors (limits) have none.
/// `lexer_errors` come with the number of tokens made before each.
pub(crate) fn syntax_errors(chars: &[char], tokens: &[Token], lexer_errors: Vec<(usize, Reported)>) -> Vec<Reported> {
    let on: Vec<usize> = tokens.iter().enumerate().filter(|(_, t)| !t.hidden()).map(|(i, _)| i).collect();
    let mut parser = Parser {
        chars,
        tokens,
        on,
        p: 0,
        recovering: false,
        last_error_index: None,
        last_error_states: Vec::new(),
        state: 0,
        frames: Vec::new(),
        reports: 0,
        errors: Vec::new(),
        lexer_errors,
        next_lexer_error: 0,
        read: std::cell::Cell::new(0),
        recoveries: 0,
        depth: [0; 17],
    };
    if parser.start().is_ok() {
        let _ = parser.report_lexer_errors();
    }
    parser.errors
}

impl Parser<'_> {
    // --- The token stream. ---

    fn la(&self, k: usize) -> u8 {
        let at = self.p + k - 1;
        self.read.set(self.read.get().max(at));
        self.token(at).kind
    }

    fn token(&self, index: usize) -> Token {
        let at = index.min(self.on.len() - 1);
        self.tokens[self.on[at]]
    }

    fn consume(&mut self) {
        if self.la(1) != EOF {
            self.p += 1;
            self.la(1);
        }
    }

    // --- Reporting. ---

    /// Reports the lexer's errors met in the tokens read so far.
    fn report_lexer_errors(&mut self) -> Step {
        let read = self.on[self.read.get().min(self.on.len() - 1)];
        while let Some((made, error)) = self.lexer_errors.get(self.next_lexer_error) {
            if *made > read {
                break;
            }
            let (position, message) = (error.at, error.message.clone());
            self.next_lexer_error += 1;
            self.report(position, message)?;
        }
        Ok(())
    }

    fn notify(&mut self, at: usize, message: String) -> Step {
        self.report_lexer_errors()?;
        let token = self.token(at);
        self.report(Some((token.line, token.column)), format!("Syntax error: {message}"))
    }

    /// cel-go's listener: at most 100 syntax errors, then one saying so, and parsing stops.
    fn report(&mut self, position: Option<(usize, usize)>, message: String) -> Step {
        if self.reports < MAX_SYNTAX_ERRORS {
            self.reports += 1;
            self.errors.push(Reported { at: position, message });
            Ok(())
        } else {
            self.errors.push(Reported {
                at: position,
                message: format!("Syntax error: More than {MAX_SYNTAX_ERRORS} syntax errors"),
            });
            Err(Stop::Abort)
        }
    }

    fn internal_error(&mut self, message: String) -> Stop {
        self.errors.push(Reported { at: None, message });
        Stop::Abort
    }

    fn token_display(&self, at: usize) -> String {
        let token = self.token(at);
        if token.kind == EOF {
            return quote_escaped("<EOF>");
        }
        quote_escaped(&self.chars[token.start..token.end].iter().collect::<String>())
    }

    fn report_error(&mut self, failure: &Failure) -> Step {
        if self.recovering {
            return Ok(());
        }
        self.recovering = true;
        match *failure {
            Failure::Mismatch { at, expected } => {
                let message =
                    format!("mismatched input {} expecting {}", self.token_display(at), set_display(expected));
                self.notify(at, message)
            }
            Failure::NoViable { start, at } => {
                let input = if self.token(start).kind == EOF {
                    quote_escaped("<EOF>")
                } else {
                    let (first, last) = (self.on[start.min(self.on.len() - 1)], self.on[at.min(self.on.len() - 1)]);
                    let text: String = self.tokens[first..=last]
                        .iter()
                        .filter(|t| t.kind != EOF)
                        .flat_map(|t| self.chars[t.start..t.end].iter())
                        .collect();
                    quote_escaped(&text)
                };
                let message = reserved_word_hack(format!("no viable alternative at input {input}"));
                self.notify(at, message)
            }
        }
    }

    fn report_unwanted(&mut self, expected: Set) -> Step {
        if self.recovering {
            return Ok(());
        }
        self.recovering = true;
        let message = format!("extraneous input {} expecting {}", self.token_display(self.p), set_display(expected));
        self.notify(self.p, message)
    }

    fn report_missing(&mut self, expected: Set) -> Step {
        if self.recovering {
            return Ok(());
        }
        self.recovering = true;
        let message = format!("missing {} at {}", set_display(expected), self.token_display(self.p));
        self.notify(self.p, message)
    }

    fn report_match(&mut self) {
        self.recovering = false;
        self.last_error_states.clear();
        self.last_error_index = None;
    }

    // --- Recovery. ---

    /// The tokens that may follow `follow` given the rules being parsed.
    fn in_context(&self, follow: Follow) -> Set {
        let (mut set, mut end) = (follow.set, follow.end);
        for frame in self.frames.iter().rev() {
            if !end {
                break;
            }
            set |= frame.set;
            end = frame.end;
        }
        if end { set | bit(EOF) } else { set }
    }

    /// Every token that may follow one of the rules being parsed.
    fn recovery_set(&self) -> Set {
        self.frames.iter().fold(0, |set, frame| set | frame.set)
    }

    fn count_recovery(&mut self) -> Step {
        if self.recoveries == MAX_RECOVERIES {
            self.recoveries += 1;
            self.notify(self.p, format!("error recovery attempt limit exceeded: {MAX_RECOVERIES}"))?;
            return Err(Stop::Abort);
        }
        self.recoveries += 1;
        Ok(())
    }

    fn consume_until(&mut self, set: Set, limit: Option<&mut usize>) -> Step {
        let mut budget = limit;
        while self.la(1) != EOF && set & bit(self.la(1)) == 0 {
            if let Some(used) = budget.as_deref_mut() {
                if *used >= MAX_RECOVERY_LOOKAHEAD {
                    return Err(self.internal_error(format!(
                        "error recovery token lookahead limit exceeded: {MAX_RECOVERY_LOOKAHEAD}"
                    )));
                }
                *used += 1;
            }
            self.consume();
        }
        Ok(())
    }

    /// A rule's recovery after its error was reported: skip to what may follow.
    fn recover(&mut self) -> Step {
        self.count_recovery()?;
        let mut used = 0;
        if self.last_error_index == Some(self.p) && self.last_error_states.contains(&self.state) {
            used += 1;
            self.consume();
        }
        self.last_error_index = Some(self.p);
        self.last_error_states.push(self.state);
        let set = self.recovery_set();
        self.consume_until(set, Some(&mut used))
    }

    fn single_token_deletion(&mut self, expected: Set) -> Result<bool, Stop> {
        if expected & bit(self.la(2)) == 0 {
            return Ok(false);
        }
        self.report_unwanted(expected)?;
        self.consume();
        self.report_match();
        Ok(true)
    }

    fn sync(&mut self, state: u16, expected: Set, kind: SyncKind) -> Step {
        self.state = state;
        if self.recovering || expected & bit(self.la(1)) != 0 {
            return Ok(());
        }
        match kind {
            SyncKind::Block => {
                if self.single_token_deletion(expected)? {
                    Ok(())
                } else {
                    Err(Stop::Failed(Failure::Mismatch { at: self.p, expected }))
                }
            }
            SyncKind::LoopBack => {
                self.report_unwanted(expected)?;
                let set = expected | self.recovery_set();
                self.consume_until(set, None)
            }
        }
    }

    /// `Match(kind)`, where `after` is what may follow the token within its rule.
    fn expect(&mut self, kind: u8, state: u16, after: Follow) -> Step {
        self.state = state;
        if self.la(1) == kind {
            self.report_match();
            self.consume();
            return Ok(());
        }
        self.count_recovery()?;
        if self.single_token_deletion(bit(kind))? {
            self.consume();
            return Ok(());
        }
        if self.in_context(after) & bit(self.la(1)) != 0 {
            return self.report_missing(bit(kind));
        }
        Err(Stop::Failed(Failure::Mismatch { at: self.p, expected: bit(kind) }))
    }

    /// An operator a loop decided to take.
    fn take(&mut self, state: u16) {
        self.state = state;
        self.report_match();
        self.consume();
    }

    fn no_viable(&self, lookahead: usize) -> Stop {
        Stop::Failed(Failure::NoViable { start: self.p, at: self.p + lookahead - 1 })
    }

    // --- Rules. ---

    fn enter(&mut self, rule: Rule) -> Step {
        let depth = &mut self.depth[rule as usize];
        *depth += 1;
        if *depth > MAX_RULE_DEPTH {
            return Err(self.internal_error(format!("expression recursion limit exceeded: {MAX_RULE_DEPTH}")));
        }
        Ok(())
    }

    fn exit(&mut self, rule: Rule) {
        let depth = &mut self.depth[rule as usize];
        *depth = depth.saturating_sub(1);
    }

    /// A rule's body, then its error handling: report, recover, return to the caller.
    fn rule(&mut self, rule: Rule, body: impl FnOnce(&mut Self) -> Step) -> Step {
        self.enter(rule)?;
        let result = match body(self) {
            Err(Stop::Failed(failure)) => self.report_error(&failure).and_then(|()| self.recover()),
            other => other,
        };
        self.exit(rule);
        result
    }

    /// A rule invoked at `state`, followed within the caller by `follow`.
    fn call(&mut self, state: u16, follow: Follow, sub: impl FnOnce(&mut Self) -> Step) -> Step {
        self.state = state;
        self.frames.push(follow);
        // 250 nested levels of a dozen rules each: more stack than a small thread has.
        let result = talos_yaml::node::deep(|| sub(self));
        self.frames.pop();
        self.state = state;
        result
    }

    fn start(&mut self) -> Step {
        self.rule(Rule::Start, |p| {
            p.call(1, then(bit(EOF)), Self::expr)?;
            p.expect(EOF, 2, END)
        })
    }

    fn expr(&mut self) -> Step {
        self.rule(Rule::Expr, |p| {
            p.call(3, then_or_end(bit(QUESTIONMARK)), Self::conditional_or)?;
            if p.la(1) == QUESTIONMARK {
                p.expect(QUESTIONMARK, 4, then(FIRST_EXPR))?;
                p.call(5, then(bit(COLON)), Self::conditional_or)?;
                p.expect(COLON, 6, then(FIRST_EXPR))?;
                p.call(7, END, Self::expr)?;
            }
            Ok(())
        })
    }

    fn conditional_or(&mut self) -> Step {
        self.rule(Rule::ConditionalOr, |p| {
            p.call(8, then_or_end(bit(LOGICAL_OR)), Self::conditional_and)?;
            while p.la(1) == LOGICAL_OR {
                p.expect(LOGICAL_OR, 9, then(FIRST_EXPR))?;
                p.call(10, then_or_end(bit(LOGICAL_OR)), Self::conditional_and)?;
            }
            Ok(())
        })
    }

    fn conditional_and(&mut self) -> Step {
        self.rule(Rule::ConditionalAnd, |p| {
            p.call(11, then_or_end(bit(LOGICAL_AND)), |p| p.relation(0))?;
            while p.la(1) == LOGICAL_AND {
                p.expect(LOGICAL_AND, 12, then(FIRST_EXPR))?;
                p.call(13, then_or_end(bit(LOGICAL_AND)), |p| p.relation(0))?;
            }
            Ok(())
        })
    }

    /// A left-recursive rule's loop step: ANTLR signals the rule's exit to listeners at every
    /// iteration, which lowers cel-go's nesting count for the rule.
    fn iterate(&mut self, rule: Rule) {
        self.exit(rule);
    }

    fn relation(&mut self, precedence: u8) -> Step {
        self.rule(Rule::Relation, |p| {
            p.call(14, then_or_end(REL_OPS), |p| p.calc(0))?;
            while REL_OPS & bit(p.la(1)) != 0 && precedence <= 1 {
                p.iterate(Rule::Relation);
                p.take(15);
                p.call(16, then_or_end(REL_OPS), |p| p.relation(2))?;
            }
            Ok(())
        })
    }

    fn calc(&mut self, precedence: u8) -> Step {
        self.rule(Rule::Calc, |p| {
            p.call(17, then_or_end(MUL_OPS | ADD_OPS), Self::unary)?;
            loop {
                let la = bit(p.la(1));
                if MUL_OPS & la != 0 && precedence <= 2 {
                    p.iterate(Rule::Calc);
                    p.take(18);
                    p.call(19, then_or_end(MUL_OPS | ADD_OPS), |p| p.calc(3))?;
                } else if ADD_OPS & la != 0 && precedence <= 1 {
                    p.iterate(Rule::Calc);
                    p.take(20);
                    p.call(21, then_or_end(MUL_OPS | ADD_OPS), |p| p.calc(2))?;
                } else {
                    break;
                }
            }
            Ok(())
        })
    }

    fn unary(&mut self) -> Step {
        self.rule(Rule::Unary, |p| {
            p.sync(22, FIRST_EXPR, SyncKind::Block)?;
            match p.la(1) {
                EXCLAM => {
                    p.sync(23, bit(EXCLAM), SyncKind::Block)?;
                    loop {
                        p.expect(EXCLAM, 24, then(bit(EXCLAM) | FIRST_PRIMARY))?;
                        p.sync(25, bit(EXCLAM) | FIRST_PRIMARY, SyncKind::LoopBack)?;
                        if p.la(1) != EXCLAM {
                            break;
                        }
                    }
                    p.call(26, END, |p| p.member())
                }
                MINUS if NUMBERS & bit(p.la(2)) != 0 => p.call(27, END, |p| p.member()),
                MINUS if (FIRST_PRIMARY | bit(MINUS)) & bit(p.la(2)) != 0 => {
                    p.sync(28, bit(MINUS), SyncKind::Block)?;
                    loop {
                        p.expect(MINUS, 29, then(bit(MINUS) | FIRST_PRIMARY))?;
                        p.sync(30, bit(MINUS) | FIRST_PRIMARY, SyncKind::LoopBack)?;
                        match p.la(1) {
                            MINUS if (FIRST_PRIMARY | bit(MINUS)) & bit(p.la(2)) != 0 => continue,
                            MINUS => return Err(p.no_viable(2)),
                            kind if FIRST_PRIMARY & bit(kind) != 0 => break,
                            _ => return Err(p.no_viable(1)),
                        }
                    }
                    p.call(31, END, |p| p.member())
                }
                MINUS => Err(p.no_viable(2)),
                kind if FIRST_PRIMARY & bit(kind) != 0 => p.call(27, END, |p| p.member()),
                _ => Err(p.no_viable(1)),
            }
        })
    }

    fn member(&mut self) -> Step {
        self.rule(Rule::Member, |p| {
            p.call(32, then_or_end(MEMBER_OPS), Self::primary)?;
            while MEMBER_OPS & bit(p.la(1)) != 0 {
                p.iterate(Rule::Member);
                p.sync(33, MEMBER_OPS, SyncKind::Block)?;
                if p.la(1) == LBRACKET {
                    p.expect(LBRACKET, 34, then(bit(QUESTIONMARK) | FIRST_EXPR))?;
                    p.sync(35, bit(QUESTIONMARK) | FIRST_EXPR, SyncKind::Block)?;
                    if p.la(1) == QUESTIONMARK {
                        p.expect(QUESTIONMARK, 36, then(FIRST_EXPR))?;
                    }
                    p.call(37, then(bit(RPRACKET)), Self::expr)?;
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
                    p.sync(40, bit(QUESTIONMARK) | IDENTS, SyncKind::Block)?;
                    if p.la(1) == QUESTIONMARK {
                        p.expect(QUESTIONMARK, 41, then(IDENTS))?;
                    }
                    p.call(42, then_or_end(MEMBER_OPS), Self::escape_ident)?;
                } else {
                    p.expect(DOT, 43, then(bit(IDENTIFIER)))?;
                    p.expect(IDENTIFIER, 44, then(bit(LPAREN)))?;
                    p.expect(LPAREN, 45, then(FIRST_EXPR | bit(RPAREN)))?;
                    p.sync(46, FIRST_EXPR | bit(RPAREN), SyncKind::Block)?;
                    if FIRST_EXPR & bit(p.la(1)) != 0 {
                        p.call(47, then(bit(RPAREN)), Self::expr_list)?;
                    }
                    p.expect(RPAREN, 48, then_or_end(MEMBER_OPS))?;
                }
            }
            Ok(())
        })
    }

    /// Decision among `Ident`, `GlobalCall` and `CreateMessage` for a (dotted) name at `at`:
    /// ANTLR looks past the dots to the token after the name.
    fn name_alternative(&self, at: usize) -> Primary {
        let kind = |i: usize| self.token(i).kind;
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

    fn primary(&mut self) -> Step {
        self.rule(Rule::Primary, |p| {
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
                Primary::Ident => {
                    p.sync(50, bits(&[DOT, IDENTIFIER]), SyncKind::Block)?;
                    if p.la(1) == DOT {
                        p.expect(DOT, 51, then(bit(IDENTIFIER)))?;
                    }
                    p.expect(IDENTIFIER, 52, END)
                }
                Primary::Call => {
                    p.sync(53, bits(&[DOT, IDENTIFIER]), SyncKind::Block)?;
                    if p.la(1) == DOT {
                        p.expect(DOT, 54, then(bit(IDENTIFIER)))?;
                    }
                    p.expect(IDENTIFIER, 55, then(bit(LPAREN)))?;
                    p.expect(LPAREN, 56, then(FIRST_EXPR | bit(RPAREN)))?;
                    p.sync(57, FIRST_EXPR | bit(RPAREN), SyncKind::Block)?;
                    if FIRST_EXPR & bit(p.la(1)) != 0 {
                        p.call(58, then(bit(RPAREN)), Self::expr_list)?;
                    }
                    p.expect(RPAREN, 59, END)
                }
                Primary::Nested => {
                    p.expect(LPAREN, 60, then(FIRST_EXPR))?;
                    p.call(61, then(bit(RPAREN)), Self::expr)?;
                    p.expect(RPAREN, 62, END)
                }
                Primary::List => {
                    let inside = FIRST_OPT_EXPR | bits(&[COMMA, RPRACKET]);
                    p.expect(LBRACKET, 63, then(inside))?;
                    p.sync(64, inside, SyncKind::Block)?;
                    if FIRST_OPT_EXPR & bit(p.la(1)) != 0 {
                        p.call(65, then(bits(&[COMMA, RPRACKET])), Self::list_init)?;
                    }
                    p.trailing_comma(66, RPRACKET)?;
                    p.expect(RPRACKET, 67, END)
                }
                Primary::Map => {
                    let inside = FIRST_OPT_EXPR | bits(&[COMMA, RBRACE]);
                    p.expect(LBRACE, 68, then(inside))?;
                    p.sync(69, inside, SyncKind::Block)?;
                    if FIRST_OPT_EXPR & bit(p.la(1)) != 0 {
                        p.call(70, then(bits(&[COMMA, RBRACE])), Self::map_initializer_list)?;
                    }
                    p.trailing_comma(71, RBRACE)?;
                    p.expect(RBRACE, 72, END)
                }
                Primary::Message => {
                    p.sync(73, bits(&[DOT, IDENTIFIER]), SyncKind::Block)?;
                    if p.la(1) == DOT {
                        p.expect(DOT, 74, then(bit(IDENTIFIER)))?;
                    }
                    p.expect(IDENTIFIER, 75, then(bits(&[DOT, LBRACE])))?;
                    p.sync(76, bits(&[DOT, LBRACE]), SyncKind::Block)?;
                    while p.la(1) == DOT {
                        p.expect(DOT, 77, then(bit(IDENTIFIER)))?;
                        p.expect(IDENTIFIER, 78, then(bits(&[DOT, LBRACE])))?;
                        p.sync(79, bits(&[DOT, LBRACE]), SyncKind::LoopBack)?;
                    }
                    let inside = FIRST_FIELD | bits(&[COMMA, RBRACE]);
                    p.expect(LBRACE, 80, then(inside))?;
                    p.sync(81, inside, SyncKind::Block)?;
                    if FIRST_FIELD & bit(p.la(1)) != 0 {
                        p.call(82, then(bits(&[COMMA, RBRACE])), Self::field_initializer_list)?;
                    }
                    p.trailing_comma(83, RBRACE)?;
                    p.expect(RBRACE, 84, END)
                }
                Primary::Literal => p.call(85, END, Self::literal),
            }
        })
    }

    /// `','?` before a closing bracket or brace.
    fn trailing_comma(&mut self, state: u16, close: u8) -> Step {
        self.sync(state, bits(&[COMMA, close]), SyncKind::Block)?;
        if self.la(1) == COMMA {
            self.expect(COMMA, state + 100, then(bit(close)))?;
        }
        Ok(())
    }

    fn expr_list(&mut self) -> Step {
        self.rule(Rule::ExprList, |p| {
            p.call(86, then_or_end(bit(COMMA)), Self::expr)?;
            while p.la(1) == COMMA {
                p.expect(COMMA, 87, then(FIRST_EXPR))?;
                p.call(88, then_or_end(bit(COMMA)), Self::expr)?;
            }
            Ok(())
        })
    }

    /// A list loop's decision: another element only when one starts after the comma (else the
    /// comma is the trailing one).
    fn another(&self, first: Set) -> bool {
        self.la(1) == COMMA && first & bit(self.la(2)) != 0
    }

    fn list_init(&mut self) -> Step {
        self.rule(Rule::ListInit, |p| {
            p.call(89, then_or_end(bit(COMMA)), Self::opt_expr)?;
            while p.another(FIRST_OPT_EXPR) {
                p.expect(COMMA, 90, then(FIRST_OPT_EXPR))?;
                p.call(91, then_or_end(bit(COMMA)), Self::opt_expr)?;
            }
            Ok(())
        })
    }

    fn field_initializer_list(&mut self) -> Step {
        self.rule(Rule::FieldInitializerList, |p| {
            p.call(92, then(bit(COLON)), Self::opt_field)?;
            p.expect(COLON, 93, then(FIRST_EXPR))?;
            p.call(94, then_or_end(bit(COMMA)), Self::expr)?;
            while p.another(FIRST_FIELD) {
                p.expect(COMMA, 95, then(FIRST_FIELD))?;
                p.call(96, then(bit(COLON)), Self::opt_field)?;
                p.expect(COLON, 97, then(FIRST_EXPR))?;
                p.call(98, then_or_end(bit(COMMA)), Self::expr)?;
            }
            Ok(())
        })
    }

    fn opt_field(&mut self) -> Step {
        self.rule(Rule::OptField, |p| {
            p.sync(99, FIRST_FIELD, SyncKind::Block)?;
            if p.la(1) == QUESTIONMARK {
                p.expect(QUESTIONMARK, 100, then(IDENTS))?;
            }
            p.call(101, END, Self::escape_ident)
        })
    }

    fn map_initializer_list(&mut self) -> Step {
        self.rule(Rule::MapInitializerList, |p| {
            p.call(102, then(bit(COLON)), Self::opt_expr)?;
            p.expect(COLON, 103, then(FIRST_EXPR))?;
            p.call(104, then_or_end(bit(COMMA)), Self::expr)?;
            while p.another(FIRST_OPT_EXPR) {
                p.expect(COMMA, 105, then(FIRST_OPT_EXPR))?;
                p.call(106, then(bit(COLON)), Self::opt_expr)?;
                p.expect(COLON, 107, then(FIRST_EXPR))?;
                p.call(108, then_or_end(bit(COMMA)), Self::expr)?;
            }
            Ok(())
        })
    }

    fn escape_ident(&mut self) -> Step {
        self.rule(Rule::EscapeIdent, |p| {
            p.sync(109, IDENTS, SyncKind::Block)?;
            match p.la(1) {
                IDENTIFIER => p.expect(IDENTIFIER, 110, END),
                ESC_IDENTIFIER => p.expect(ESC_IDENTIFIER, 111, END),
                _ => Err(p.no_viable(1)),
            }
        })
    }

    fn opt_expr(&mut self) -> Step {
        self.rule(Rule::OptExpr, |p| {
            p.sync(112, bit(QUESTIONMARK) | FIRST_EXPR, SyncKind::Block)?;
            if p.la(1) == QUESTIONMARK {
                p.expect(QUESTIONMARK, 113, then(FIRST_EXPR))?;
            }
            p.call(114, END, Self::expr)
        })
    }

    fn literal(&mut self) -> Step {
        self.rule(Rule::Literal, |p| {
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
            p.expect(kind, 118, END)
        })
    }
}

#[derive(Clone, Copy)]
enum Primary {
    Ident,
    Call,
    Nested,
    List,
    Map,
    Message,
    Literal,
}

/// ANTLR's `escapeWSAndQuote`.
fn quote_escaped(text: &str) -> String {
    format!("'{}'", text.replace('\n', "\\n").replace('\r', "\\r").replace('\t', "\\t"))
}

/// ANTLR's way of printing a token set: one name alone, several in braces.
fn set_display(set: Set) -> String {
    let names: Vec<&str> = (0..64u8).filter(|&k| set & bit(k) != 0).map(display_name).collect();
    match names.as_slice() {
        [one] => (*one).to_string(),
        _ => format!("{{{}}}", names.join(", ")),
    }
}

/// cel-go rewrites "no viable alternative at input '.true'" (a reserved word after one
/// character) as "mismatched input 'true' expecting IDENTIFIER", where the pattern matches.
fn reserved_word_hack(message: String) -> String {
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
