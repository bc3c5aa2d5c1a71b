//! CEL's grammar (CEL.g4) parsed as the parser ANTLR generates for cel-go: the same decisions
//! (one token of lookahead where ANTLR's prediction settles on one, more where it looks
//! further), the same error strategy (`DefaultErrorStrategy`: single-token deletion and
//! insertion, `sync` before blocks and loops, recovery to the follow sets of the rules being
//! parsed), cel-go's limits (30 recoveries, 100 reported errors, 250 nested rules of one kind)
//! and what cel-go's visitor then refuses. No tree is built: each rule returns the little the
//! visitor's and checker's later steps look at ([`visit::Shape`], [`Reference`]).

mod primary;
mod rules;
mod sets;
mod visit;

use super::lexer::Token;
use super::lexer::t::*;
use sets::{Follow, Set, bit, quote_escaped, reserved_word_hack, set_display};
use visit::{Pos, Shape};

pub(crate) use visit::{RefKind, Reference};

/// cel-go's limits.
const MAX_RULE_DEPTH: usize = 250;
const MAX_RECOVERIES: usize = 30;
const MAX_SYNTAX_ERRORS: usize = 100;
const MAX_RECOVERY_LOOKAHEAD: usize = 256;
const MAX_VISIT_DEPTH: usize = 250;

/// How many rules the grammar has.
const RULES: usize = Rule::Literal as usize + 1;

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
    depth: [usize; RULES],
    /// The visitor's errors, in the order it would report them.
    visits: Vec<Reported>,
    /// The free names the expression refers to, where they are.
    references: Vec<Reference>,
    /// What the cel-go release and the environment allow.
    dialect: Dialect,
}

/// What a cel-go release and a CEL environment's options change in parsing.
#[derive(Clone, Copy, Default)]
pub(crate) struct Dialect {
    /// A quoted field name (`` disk.`dev_path` ``) is allowed (cel-go v0.28 on).
    pub ident_escapes: bool,
    /// The environment has optional types: the `?` syntax, the `optMap` and `optFlatMap` macros
    /// and the `optional.` functions.
    pub optional: bool,
    /// `optMap` and `optFlatMap` evaluate a target that is not a plain name once (cel-go v0.31
    /// on); before, the target is copied into the expansion twice, and the checker reports what
    /// it finds there twice (as it does for a plain name in every release).
    pub macro_target_once: bool,
}

/// What cel-go's parser makes of an expression: its errors (syntax errors and what its
/// visitor refuses), and, when there are none, the free names it refers to (for the checker).
pub(crate) struct Parsed {
    pub errors: Vec<Reported>,
    pub references: Vec<Reference>,
}

/// An expression parsed as cel-go parses it: its errors in the order reported (syntax errors
/// `Syntax error: ...` with their positions, cel-go's internal errors (limits) without, then
/// what its visitor refuses). `lexer_errors` come with the number of tokens made before each.
pub(crate) fn parse(
    chars: &[char],
    tokens: &[Token],
    lexer_errors: Vec<(usize, Reported)>,
    dialect: Dialect,
) -> Parsed {
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
        depth: [0; RULES],
        visits: Vec::new(),
        references: Vec::new(),
        dialect,
    };
    // cel-go's visitor runs once the parser has finished, not after it stopped at a limit.
    if let Ok(root) = parser.start()
        && parser.report_lexer_errors().is_ok()
    {
        if root.depth > MAX_VISIT_DEPTH {
            parser.errors.push(Reported { at: None, message: "max recursion depth exceeded".to_string() });
        } else {
            parser.errors.append(&mut parser.visits);
        }
    }
    Parsed { errors: parser.errors, references: parser.references }
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

    /// A rule's body, then its error handling: report, recover, return to the caller. The
    /// body fills `out` as it goes: what cel-go's visitor makes of the rule's tree, even when
    /// the rule ends early on an error.
    fn rule<T>(&mut self, rule: Rule, mut out: T, body: impl FnOnce(&mut Self, &mut T) -> Step) -> Result<T, Stop> {
        self.enter(rule)?;
        let result = match body(self, &mut out) {
            Err(Stop::Failed(failure)) => self.report_error(&failure).and_then(|()| self.recover()),
            other => other,
        };
        self.exit(rule);
        result.map(|()| out)
    }

    /// A rule invoked at `state`, followed within the caller by `follow`.
    fn call<T>(
        &mut self,
        state: u16,
        follow: Follow,
        sub: impl FnOnce(&mut Self) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        self.state = state;
        self.frames.push(follow);
        // 250 nested levels of a dozen rules each: more stack than a small thread has.
        let result = talos_yaml::node::deep(|| sub(self));
        self.frames.pop();
        self.state = state;
        result
    }

    fn here(&self) -> Pos {
        self.position(self.p)
    }

    fn position(&self, at: usize) -> Pos {
        let token = self.token(at);
        (token.line, token.column)
    }

    fn text(&self, at: usize) -> String {
        let token = self.token(at);
        self.chars[token.start..token.end].iter().collect()
    }

    /// An expression of no particular kind at the current token (cel-go's error expression).
    fn other_here(&self) -> Shape {
        Shape::other(self.here(), 0)
    }

    /// `Match` for a token whose text or position the visitor needs: the token matched (after
    /// deleting one extraneous token, if so), or `None` where it was conjured as missing.
    fn expect_token(&mut self, kind: u8, state: u16, after: Follow) -> Result<Option<usize>, Stop> {
        let matched = if self.la(1) == kind {
            Some(self.p)
        } else if self.la(2) == kind {
            Some(self.p + 1)
        } else {
            None
        };
        self.expect(kind, state, after)?;
        // A conjured token leaves the stream where it was.
        Ok(matched.filter(|&m| m < self.p))
    }
}
