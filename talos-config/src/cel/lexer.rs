//! CEL's tokens as cel-go's ANTLR lexer makes them (CEL.g4's lexer rules): the longest match
//! wins, the earlier rule on a tie; where no rule matches, a `token recognition error` covers
//! what was read up to the character no rule could take, and that character is skipped.

/// Token types, numbered as CEL.g4 declares its lexer rules (ANTLR's numbering); `EOF` is 0
/// here (ANTLR's -1), so that it sorts first as it does in ANTLR's token sets.
pub(crate) mod t {
    pub const EOF: u8 = 0;
    pub const EQUALS: u8 = 1;
    pub const NOT_EQUALS: u8 = 2;
    pub const IN: u8 = 3;
    pub const LESS: u8 = 4;
    pub const LESS_EQUALS: u8 = 5;
    pub const GREATER_EQUALS: u8 = 6;
    pub const GREATER: u8 = 7;
    pub const LOGICAL_AND: u8 = 8;
    pub const LOGICAL_OR: u8 = 9;
    pub const LBRACKET: u8 = 10;
    pub const RPRACKET: u8 = 11;
    pub const LBRACE: u8 = 12;
    pub const RBRACE: u8 = 13;
    pub const LPAREN: u8 = 14;
    pub const RPAREN: u8 = 15;
    pub const DOT: u8 = 16;
    pub const COMMA: u8 = 17;
    pub const MINUS: u8 = 18;
    pub const EXCLAM: u8 = 19;
    pub const QUESTIONMARK: u8 = 20;
    pub const COLON: u8 = 21;
    pub const PLUS: u8 = 22;
    pub const STAR: u8 = 23;
    pub const SLASH: u8 = 24;
    pub const PERCENT: u8 = 25;
    pub const CEL_TRUE: u8 = 26;
    pub const CEL_FALSE: u8 = 27;
    pub const NUL: u8 = 28;
    pub const WHITESPACE: u8 = 29;
    pub const COMMENT: u8 = 30;
    pub const NUM_FLOAT: u8 = 31;
    pub const NUM_INT: u8 = 32;
    pub const NUM_UINT: u8 = 33;
    pub const STRING: u8 = 34;
    pub const BYTES: u8 = 35;
    pub const IDENTIFIER: u8 = 36;
    pub const ESC_IDENTIFIER: u8 = 37;
}

/// How ANTLR names a token type in its messages: the literal in quotes where the rule is one,
/// else the rule's name.
pub(crate) fn display_name(kind: u8) -> &'static str {
    const NAMES: [&str; 38] = [
        "<EOF>",
        "'=='",
        "'!='",
        "'in'",
        "'<'",
        "'<='",
        "'>='",
        "'>'",
        "'&&'",
        "'||'",
        "'['",
        "']'",
        "'{'",
        "'}'",
        "'('",
        "')'",
        "'.'",
        "','",
        "'-'",
        "'!'",
        "'?'",
        "':'",
        "'+'",
        "'*'",
        "'/'",
        "'%'",
        "'true'",
        "'false'",
        "'null'",
        "WHITESPACE",
        "COMMENT",
        "NUM_FLOAT",
        "NUM_INT",
        "NUM_UINT",
        "STRING",
        "BYTES",
        "IDENTIFIER",
        "ESC_IDENTIFIER",
    ];
    NAMES.get(usize::from(kind)).copied().unwrap_or("<INVALID>")
}

/// One token: its type, where it is (character offsets, 1-based line, 0-based column in
/// characters) and whether it is on the hidden channel (white space, comments).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: u8,
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
}

impl Token {
    pub(crate) fn hidden(&self) -> bool {
        self.kind == t::WHITESPACE || self.kind == t::COMMENT
    }
}

/// A lexer error: the message's text and where the token began.
#[derive(Clone, Debug)]
pub(crate) struct LexError {
    /// How many tokens were made before it.
    pub made: usize,
    pub text: String,
    pub line: usize,
    pub column: usize,
}

/// The tokens of `chars` (hidden ones included, `EOF` last) and the lexer's errors in order.
pub(crate) fn tokenize(chars: &[char]) -> (Vec<Token>, Vec<LexError>) {
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let (mut pos, mut line, mut column) = (0usize, 1usize, 0usize);
    let advance = |from: usize, to: usize, line: &mut usize, column: &mut usize| {
        for &c in &chars[from..to] {
            if c == '\n' {
                *line += 1;
                *column = 0;
            } else {
                *column += 1;
            }
        }
    };
    while pos < chars.len() {
        let rest = &chars[pos..];
        match longest(rest) {
            Match::Token(kind, len) => {
                tokens.push(Token { kind, start: pos, end: pos + len, line, column });
                advance(pos, pos + len, &mut line, &mut column);
                pos += len;
            }
            Match::None(viable) => {
                // What was read, the character no rule could take included (none at the end).
                let stop = (pos + viable + 1).min(chars.len());
                errors.push(LexError { made: tokens.len(), text: chars[pos..stop].iter().collect(), line, column });
                advance(pos, stop, &mut line, &mut column);
                pos = stop;
            }
        }
    }
    tokens.push(Token { kind: t::EOF, start: chars.len(), end: chars.len(), line, column });
    (tokens, errors)
}

enum Match {
    /// The token type and its length.
    Token(u8, usize),
    /// No rule matched; the longest prefix some rule could still have continued.
    None(usize),
}

/// A rule's reach over the input: the longest prefix it can still continue (`viable`) and the
/// longest it accepts.
#[derive(Clone, Copy, Default)]
struct Reach {
    viable: usize,
    accept: Option<usize>,
}

impl Reach {
    fn or(self, other: Reach) -> Reach {
        Reach { viable: self.viable.max(other.viable), accept: self.accept.max(other.accept) }
    }

    fn shifted(self, by: usize) -> Reach {
        Reach { viable: self.viable + by, accept: self.accept.map(|a| a + by) }
    }
}

const FIXED: [(&str, u8); 28] = [
    ("==", t::EQUALS),
    ("!=", t::NOT_EQUALS),
    ("in", t::IN),
    ("<", t::LESS),
    ("<=", t::LESS_EQUALS),
    (">=", t::GREATER_EQUALS),
    (">", t::GREATER),
    ("&&", t::LOGICAL_AND),
    ("||", t::LOGICAL_OR),
    ("[", t::LBRACKET),
    ("]", t::RPRACKET),
    ("{", t::LBRACE),
    ("}", t::RBRACE),
    ("(", t::LPAREN),
    (")", t::RPAREN),
    (".", t::DOT),
    (",", t::COMMA),
    ("-", t::MINUS),
    ("!", t::EXCLAM),
    ("?", t::QUESTIONMARK),
    (":", t::COLON),
    ("+", t::PLUS),
    ("*", t::STAR),
    ("/", t::SLASH),
    ("%", t::PERCENT),
    ("true", t::CEL_TRUE),
    ("false", t::CEL_FALSE),
    ("null", t::NUL),
];

fn longest(s: &[char]) -> Match {
    let mut rules: Vec<(u8, Reach)> = FIXED.iter().map(|&(lit, kind)| (kind, literal(s, lit))).collect();
    rules.push((t::WHITESPACE, run(s, |c| matches!(c, '\t' | ' ' | '\r' | '\n' | '\u{c}'))));
    rules.push((t::COMMENT, comment(s)));
    rules.push((t::NUM_FLOAT, num_float(s)));
    rules.push((t::NUM_INT, num_int(s)));
    rules.push((t::NUM_UINT, num_uint(s)));
    rules.push((t::STRING, string(s)));
    rules.push((
        t::BYTES,
        if matches!(s.first(), Some('b' | 'B')) { string(&s[1..]).shifted(1) } else { Reach::default() },
    ));
    rules.push((t::IDENTIFIER, identifier(s)));
    rules.push((t::ESC_IDENTIFIER, escaped_identifier(s)));
    let mut best: Option<(u8, usize)> = None;
    let mut viable = 0;
    for (kind, reach) in rules {
        viable = viable.max(reach.viable);
        if let Some(len) = reach.accept.filter(|&l| l > 0)
            && best.is_none_or(|(_, b)| len > b)
        {
            best = Some((kind, len));
        }
    }
    match best {
        Some((kind, len)) => Match::Token(kind, len),
        None => Match::None(viable),
    }
}

fn literal(s: &[char], lit: &str) -> Reach {
    let mut n = 0;
    for (i, c) in lit.chars().enumerate() {
        if s.get(i) != Some(&c) {
            return Reach { viable: n, accept: None };
        }
        n += 1;
    }
    Reach { viable: n, accept: Some(n) }
}

fn count(s: &[char], from: usize, pred: impl Fn(char) -> bool) -> usize {
    s.get(from..).map_or(0, |rest| rest.iter().take_while(|&&c| pred(c)).count())
}

fn run(s: &[char], pred: impl Fn(char) -> bool) -> Reach {
    let n = count(s, 0, pred);
    Reach { viable: n, accept: (n > 0).then_some(n) }
}

fn comment(s: &[char]) -> Reach {
    match literal(s, "//") {
        Reach { accept: Some(2), .. } => {
            let n = 2 + count(s, 2, |c| c != '\n');
            Reach { viable: n, accept: Some(n) }
        }
        other => other,
    }
}

fn digit(c: char) -> bool {
    c.is_ascii_digit()
}

/// `EXPONENT` at `at`: how far it can go and where it ends.
fn exponent(s: &[char], at: usize) -> Reach {
    if !matches!(s.get(at), Some('e' | 'E')) {
        return Reach::default();
    }
    let sign = usize::from(matches!(s.get(at + 1), Some('+' | '-')));
    let digits = count(s, at + 1 + sign, digit);
    let len = 1 + sign + digits;
    Reach { viable: len, accept: (digits > 0).then_some(len) }
}

fn num_float(s: &[char]) -> Reach {
    let mut reach = Reach::default();
    let d = count(s, 0, digit);
    if d > 0 {
        reach.viable = d;
        // DIGIT+ '.' DIGIT+ EXPONENT?
        if s.get(d) == Some(&'.') {
            let frac = count(s, d + 1, digit);
            let end = d + 1 + frac;
            if frac == 0 {
                reach = reach.or(Reach { viable: d + 1, accept: None });
            } else {
                reach = reach.or(Reach { viable: end, accept: Some(end) }).or(exponent(s, end).shifted(end));
            }
        }
        // DIGIT+ EXPONENT
        reach = reach.or(exponent(s, d).shifted(d));
    } else if s.first() == Some(&'.') {
        // '.' DIGIT+ EXPONENT?
        let frac = count(s, 1, digit);
        let end = 1 + frac;
        reach = if frac == 0 {
            Reach { viable: 1, accept: None }
        } else {
            Reach { viable: end, accept: Some(end) }.or(exponent(s, end).shifted(end))
        };
    }
    reach
}

fn hex_run(s: &[char]) -> Option<usize> {
    (s.first() == Some(&'0') && s.get(1) == Some(&'x')).then(|| count(s, 2, |c| c.is_ascii_hexdigit()))
}

fn num_int(s: &[char]) -> Reach {
    let d = count(s, 0, digit);
    let mut reach = Reach { viable: d, accept: (d > 0).then_some(d) };
    if let Some(h) = hex_run(s) {
        reach = reach.or(Reach { viable: 2 + h, accept: (h > 0).then_some(2 + h) });
    }
    reach
}

fn num_uint(s: &[char]) -> Reach {
    let suffix = |len: usize| -> Reach {
        if matches!(s.get(len), Some('u' | 'U')) {
            Reach { viable: len + 1, accept: Some(len + 1) }
        } else {
            Reach { viable: len, accept: None }
        }
    };
    let d = count(s, 0, digit);
    let mut reach = if d > 0 { suffix(d) } else { Reach::default() };
    if let Some(h) = hex_run(s) {
        reach = reach.or(if h > 0 { suffix(2 + h) } else { Reach { viable: 2, accept: None } });
    }
    reach
}

/// `ESC_SEQ` at `at` (a backslash): its length, or how far it got before failing.
fn escape(s: &[char], at: usize) -> Result<usize, usize> {
    let hex = |from: usize, n: usize| -> Result<usize, usize> {
        let got = count(s, from, |c| c.is_ascii_hexdigit()).min(n);
        if got == n { Ok(from - at + n) } else { Err(from - at + got) }
    };
    match s.get(at + 1) {
        Some('a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '"' | '\'' | '\\' | '?' | '`') => Ok(2),
        Some('0'..='3') => {
            let got = count(s, at + 2, |c| ('0'..='7').contains(&c)).min(2);
            if got == 2 { Ok(4) } else { Err(2 + got) }
        }
        Some('x' | 'X') => hex(at + 2, 2),
        Some('u') => hex(at + 2, 4),
        Some('U') => hex(at + 2, 8),
        _ => Err(1),
    }
}

fn string(s: &[char]) -> Reach {
    let mut reach = Reach::default();
    for q in ['"', '\''] {
        reach = reach.or(quoted(s, q, true)).or(triple(s, q, true));
        if matches!(s.first(), Some('r' | 'R')) {
            reach = reach.or(quoted(&s[1..], q, false).shifted(1)).or(triple(&s[1..], q, false).shifted(1));
        }
    }
    reach
}

/// `'"' (ESC_SEQ | ~('\\'|'"'|'\n'|'\r'))* '"'`, or without escapes (a backslash is a character)
/// after `r`: `RAW '"' ~('"'|'\n'|'\r')* '"'`.
fn quoted(s: &[char], q: char, escapes: bool) -> Reach {
    if s.first() != Some(&q) {
        return Reach::default();
    }
    let mut i = 1;
    loop {
        match s.get(i) {
            Some(&c) if c == q => return Reach { viable: i + 1, accept: Some(i + 1) },
            Some('\\') if escapes => match escape(s, i) {
                Ok(n) => i += n,
                Err(n) => return Reach { viable: i + n, accept: None },
            },
            Some('\n' | '\r') | None => return Reach { viable: i, accept: None },
            Some(_) => i += 1,
        }
    }
}

fn closes_triple(s: &[char], at: usize, q: char) -> bool {
    s.get(at..at + 3).is_some_and(|w| w.iter().all(|&c| c == q))
}

/// `'"""' (ESC_SEQ | ~('\\'))*? '"""'`, or `RAW '"""' .*? '"""'` after `r` (no escapes): ends at
/// the first closing triple.
fn triple(s: &[char], q: char, escapes: bool) -> Reach {
    let opened = count(s, 0, |c| c == q).min(3);
    if opened < 3 {
        return Reach { viable: opened, accept: None };
    }
    let mut i = 3;
    loop {
        if closes_triple(s, i, q) {
            return Reach { viable: i + 3, accept: Some(i + 3) };
        }
        match s.get(i) {
            Some('\\') if escapes => match escape(s, i) {
                Ok(n) => i += n,
                Err(n) => return Reach { viable: i + n, accept: None },
            },
            Some(_) => i += 1,
            None => return Reach { viable: i, accept: None },
        }
    }
}

fn identifier(s: &[char]) -> Reach {
    match s.first() {
        Some(&c) if c.is_ascii_alphabetic() || c == '_' => {
            let n = 1 + count(s, 1, |c| c.is_ascii_alphanumeric() || c == '_');
            Reach { viable: n, accept: Some(n) }
        }
        _ => Reach::default(),
    }
}

/// '`' (LETTER | DIGIT | '_' | '.' | '-' | '/' | ' ')+ '`'.
fn escaped_identifier(s: &[char]) -> Reach {
    if s.first() != Some(&'`') {
        return Reach::default();
    }
    let n = count(s, 1, |c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | ' '));
    if n > 0 && s.get(1 + n) == Some(&'`') {
        Reach { viable: n + 2, accept: Some(n + 2) }
    } else {
        Reach { viable: 1 + n, accept: None }
    }
}
