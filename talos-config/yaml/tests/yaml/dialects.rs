//! go-yaml v4.0.0-rc.3 (Talos v1.12) against v4.0.0-rc.4 (Talos v1.13): every parser and emitter
//! difference, each input with both releases' results. The expected texts are what the reference
//! programs printed (`oracle patch worker.yaml - @case` of Talos v1.12.11 and v1.13.9), without
//! Talos's own prefixes (`decode error: `); `Accepted` where the release parsed the input (the
//! config decoder may still refuse it, which is not the YAML layer's concern).

use talos_yaml::Dialect;
use talos_yaml::emit_v4::{emit_v4, emit_v4_in, emit_v4_into_in, emit_v4_with_comments, emit_v4_with_comments_in};
use talos_yaml::parse::{
    parse_documents, parse_documents_in, parse_first_document_in, parse_stream_in, parse_stream_partial_in,
};
use talos_yaml::{Node, NodeValue, ScalarStyle};

/// What a release does with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Accepted,
    Error(&'static str),
}
use Outcome::{Accepted, Error};

/// One case: a name (the oracle case file), the input, rc.3's and rc.4's outcome, and whether
/// both releases stop at the same problem (then rc.4's error reworded for rc.3 with
/// `in_dialect` must give rc.3's text, and back).
struct Case {
    name: &'static str,
    input: &'static [u8],
    rc3: Outcome,
    rc4: Outcome,
    same_problem: bool,
}

const fn case(name: &'static str, input: &'static [u8], rc3: Outcome, rc4: Outcome, same_problem: bool) -> Case {
    Case { name, input, rc3, rc4, same_problem }
}

/// `<K1024>`, `<K1025>` and `<K1100>` in an input stand for that many `k`s.
fn expand(input: &[u8]) -> Vec<u8> {
    let mut text = input.to_vec();
    for n in [1024, 1025, 1100] {
        let marker = format!("<K{n}>").into_bytes();
        while let Some(at) = text.windows(marker.len()).position(|w| w == marker.as_slice()) {
            text.splice(at..at + marker.len(), std::iter::repeat_n(b'k', n));
        }
    }
    text
}

/// The deepest flow nesting go-yaml refuses: 10001 `[`.
fn too_deep() -> Vec<u8> {
    let mut text = b"machine:\n  nodeLabels:\n    a: ".to_vec();
    text.extend(std::iter::repeat_n(b'[', 10001));
    text.push(b'\n');
    text
}

const CASES: &[Case] = &[
    // 1.1 Syntax error texts: one line at most in rc.3.
    case(
        "c01",
        b"machine:\n  nodeLabels:\n    a: \"x\n",
        Error("yaml: line 3: found unexpected end of stream"),
        Error("yaml: while scanning a quoted scalar at line 3, column 8: line 4: found unexpected end of stream"),
        true,
    ),
    case(
        "c02",
        b"machine:\n  nodeLabels:\n    @a: b\n",
        Error("yaml: line 3: found character that cannot start any token"),
        Error(
            "yaml: while scanning for the next token at line 3, column 5: found character that cannot start any token",
        ),
        true,
    ),
    case(
        "c03",
        b"machine:\n  nodeLabels:\n    a: b\n    c\n    d: e\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error("yaml: while scanning a simple key at line 4, column 5: line 5, column 5: could not find expected ':'"),
        true,
    ),
    case(
        "c09",
        b"machine:\n  nodeLabels:\n    a: {b: c]\n",
        Error("yaml: line 2: did not find expected ',' or '}'"),
        Error(
            "yaml: while parsing a flow mapping at line 2, column 8: line 2, column 13: did not find expected ',' or '}'",
        ),
        true,
    ),
    case(
        "c10",
        b"machine:\n  nodeLabels:\n    a: 1\n   b: 2\n",
        Error("yaml: line 1: did not find expected key"),
        Error("yaml: while parsing a block mapping at line 1, column 3: line 3, column 4: did not find expected key"),
        true,
    ),
    case(
        "e01",
        b"machine: b: c\n",
        Error("yaml: mapping values are not allowed in this context"),
        Error("yaml: line 1, column 11: mapping values are not allowed in this context"),
        true,
    ),
    case(
        "e02",
        b"machine: [\n",
        Error("yaml: line 1: did not find expected node content"),
        Error("yaml: while parsing a flow node at line 1: did not find expected node content"),
        true,
    ),
    case(
        "e03",
        b"machine:\n\tfoo: bar\n",
        Error("yaml: line 2: found character that cannot start any token"),
        Error("yaml: while scanning for the next token at line 2: found character that cannot start any token"),
        true,
    ),
    case(
        "e04",
        b"machine: {}\n...\nb: 2\n",
        Error("yaml: line 2: did not find expected <document start>"),
        Error("yaml: line 2: did not find expected <document start>"),
        true,
    ),
    case(
        "e05",
        b"%FOO\n---\nmachine: {}\n",
        Error("yaml: found unknown directive name"),
        Error("yaml: while scanning a directive at line 1: line 1, column 5: found unknown directive name"),
        true,
    ),
    case(
        "e06",
        b"machine:\n  nodeLabels:\n    a: |0\n",
        Error("yaml: line 3: found an indentation indicator equal to 0"),
        Error(
            "yaml: while scanning a block scalar at line 3, column 8: line 3, column 9: found an indentation indicator equal to 0",
        ),
        true,
    ),
    case(
        "e07",
        b"machine:\n  nodeLabels:\n    a: \"\\q\"\n",
        Error("yaml: line 3: found unknown escape character"),
        Error(
            "yaml: while scanning a quoted scalar at line 3, column 8: line 3, column 9: found unknown escape character",
        ),
        true,
    ),
    case(
        "e08",
        b"machine:\n  nodeLabels:\n    a: !e!foo x\n",
        Error("yaml: line 2: found undefined tag handle"),
        Error("yaml: while parsing a node at line 2, column 8: found undefined tag handle"),
        true,
    ),
    case(
        "e09",
        b"machine:\n  nodeLabels:\n    a: \"x\n---\n\"\n",
        Error("yaml: line 3: found unexpected document indicator"),
        Error("yaml: while scanning a quoted scalar at line 3, column 8: line 4: found unexpected document indicator"),
        true,
    ),
    case(
        "e10",
        b"machine:\n  nodeLabels:\n    a: \"\\ud800\"\n",
        Error("yaml: line 3: found invalid Unicode character escape code"),
        Error(
            "yaml: while scanning a quoted scalar at line 3, column 8: line 3, column 11: found invalid Unicode character escape code",
        ),
        true,
    ),
    case(
        "e11",
        b"@machine: 1\n",
        Error("yaml: found character that cannot start any token"),
        Error("yaml: while scanning for the next token at line 1: found character that cannot start any token"),
        true,
    ),
    case(
        "e13",
        b"machine:\n  nodeLabels:\n    - a\n  b: - c\n",
        Error("yaml: line 4: block sequence entries are not allowed in this context"),
        Error("yaml: line 4, column 6: block sequence entries are not allowed in this context"),
        true,
    ),
    case("e14", b"machine:\n  nodeLabels:\n    a: b\n    ? c\n", Accepted, Accepted, false),
    case(
        "e15",
        b"machine:\n  nodeLabels:\n    a: 'x\n",
        Error("yaml: line 3: found unexpected end of stream"),
        Error("yaml: while scanning a quoted scalar at line 3, column 8: line 4: found unexpected end of stream"),
        true,
    ),
    case(
        "e16",
        b"machine:\n  nodeLabels:\n    a: >\n   \tx\n",
        Error("yaml: line 3: found a tab character where an indentation space is expected"),
        Error(
            "yaml: while scanning a block scalar at line 3, column 8: line 4, column 4: found a tab character where an indentation space is expected",
        ),
        true,
    ),
    case(
        "e17",
        b"%YAML 1.2\n---\nmachine: {}\n",
        Error("yaml: found incompatible YAML document"),
        Error("yaml: <unknown position>: found incompatible YAML document"),
        true,
    ),
    case(
        "e18",
        b"machine:\n  nodeLabels:\n    a: [b\n",
        Error("yaml: line 2: did not find expected ',' or ']'"),
        Error("yaml: while parsing a flow sequence at line 2, column 8: line 3: did not find expected ',' or ']'"),
        true,
    ),
    case(
        "e19",
        b"machine:\n  nodeLabels: {a: 1, b: [c, d}\n",
        Error("yaml: line 1: did not find expected ',' or ']'"),
        Error(
            "yaml: while parsing a flow sequence at line 1, column 25: line 1, column 30: did not find expected ',' or ']'",
        ),
        true,
    ),
    case(
        "f01",
        b"machine: [a,\n b}\n",
        Error("yaml: line 1: did not find expected ',' or ']'"),
        Error(
            "yaml: while parsing a flow sequence at <unknown position>: line 1, column 3: did not find expected ',' or ']'",
        ),
        true,
    ),
    case(
        "f02",
        b"machine: 'x\n",
        Error("yaml: line 2: found unexpected end of stream"),
        Error("yaml: while scanning a quoted scalar at line 1, column 10: line 2: found unexpected end of stream"),
        true,
    ),
    case(
        "f03",
        b"machine:\n  nodeLabels:\n    a: b\n    c\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error("yaml: while scanning a simple key at line 4, column 5: line 5: could not find expected ':'"),
        true,
    ),
    case(
        "f05",
        b"machine:\n  nodeLabels:\n    a: b\n    [x]\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error("yaml: while scanning a simple key at line 4, column 5: line 5: could not find expected ':'"),
        true,
    ),
    case(
        "j01",
        b"machine: {a: 1]\n",
        Error("yaml: did not find expected ',' or '}'"),
        Error(
            "yaml: while parsing a flow mapping at <unknown position>: <unknown position>: did not find expected ',' or '}'",
        ),
        true,
    ),
    case(
        "j03",
        b"machine:\n  nodeLabels:\n    a: [x, y\n",
        Error("yaml: line 2: did not find expected ',' or ']'"),
        Error("yaml: while parsing a flow sequence at line 2, column 8: line 3: did not find expected ',' or ']'"),
        true,
    ),
    case(
        "j05",
        b"machine:\n  nodeLabels:\n    a: |\n      x\n     y\n",
        Error("yaml: line 2: did not find expected key"),
        Error("yaml: while parsing a block mapping at line 2, column 5: line 4, column 6: did not find expected key"),
        true,
    ),
    case(
        "j06",
        b"- a\nb: c\n",
        Error("yaml: line 1: did not find expected '-' indicator"),
        Error(
            "yaml: while parsing a block collection at <unknown position>: line 1: did not find expected '-' indicator",
        ),
        true,
    ),
    // 1.2 Reader errors: no offset in rc.3; DEL and C1 controls other than NEL refused by rc.3.
    case(
        "c08",
        b"machine:\n  nodeLabels:\n    a: b\xff\n",
        Error("yaml: invalid leading UTF-8 octet"),
        Error("yaml: offset 31: invalid leading UTF-8 octet"),
        true,
    ),
    case(
        "c07",
        b"machine:\n  nodeLabels:\n    a: b\x7f\n",
        Error("yaml: control characters are not allowed"),
        Accepted,
        false,
    ),
    case(
        "d09",
        b"machine:\n  nodeLabels:\n    a: b\xc2\x80\n",
        Error("yaml: control characters are not allowed"),
        Accepted,
        false,
    ),
    case(
        "x08",
        b"machine:\n  nodeLabels:\n    a: b\xc2\x9f\n",
        Error("yaml: control characters are not allowed"),
        Accepted,
        false,
    ),
    // NEL is a line break in both.
    case(
        "x08b",
        b"machine:\n  nodeLabels:\n    a: b\xc2\x85c\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error("yaml: while scanning a simple key at line 4: line 5: could not find expected ':'"),
        true,
    ),
    // The reader error wins over a later unknown anchor in rc.3, which refuses DEL.
    case(
        "x20",
        b"machine:\n  nodeLabels:\n    a: b\x7f\n    c: *x\n",
        Error("yaml: control characters are not allowed"),
        Error("yaml: line 4, column 9: unknown anchor 'x' referenced"),
        false,
    ),
    // 1.3 Unknown anchors: no position in rc.3.
    case(
        "c04",
        b"machine:\n  nodeLabels:\n    a: *x\n",
        Error("yaml: unknown anchor 'x' referenced"),
        Error("yaml: line 3, column 9: unknown anchor 'x' referenced"),
        true,
    ),
    case(
        "j02",
        b"machine: *x\n",
        Error("yaml: unknown anchor 'x' referenced"),
        Error("yaml: line 1, column 11: unknown anchor 'x' referenced"),
        true,
    ),
    // 1.4 Tags: rc.3's URI characters include `,` `[` `]` (not `{` `}`) for every tag, and a
    // tag must end at a blank; rc.4 names the character that ends a short tag.
    case(
        "c06",
        b"machine:\n  nodeLabels:\n    a: !x{y} b\n",
        Error("yaml: line 3: did not find expected whitespace or line break"),
        Error(
            "yaml: while parsing a tag at line 3, column 8: line 3, column 10: found character '{' that is not allowed in a YAML tag",
        ),
        false,
    ),
    case(
        "f12",
        b"machine:\n  nodeLabels:\n    a: !!str, b\n",
        Accepted,
        Error(
            "yaml: while parsing a tag at line 3, column 8: line 3, column 13: found character ',' that is not allowed in a YAML tag",
        ),
        false,
    ),
    case(
        "d07",
        b"machine:\n  nodeLabels: [!!str, a]\n",
        Accepted,
        Error(
            "yaml: while parsing a tag at line 2, column 16: line 2, column 21: found character ',' that is not allowed in a YAML tag",
        ),
        false,
    ),
    case(
        "x10",
        b"machine:\n  nodeLabels:\n    a: !t[x] b\n",
        Accepted,
        Error(
            "yaml: while parsing a tag at line 3, column 8: line 3, column 10: found character '[' that is not allowed in a YAML tag",
        ),
        false,
    ),
    case(
        "x09",
        b"machine:\n  nodeLabels: {x: !t}\n",
        Error("yaml: line 2: did not find expected whitespace or line break"),
        Error(
            "yaml: while parsing a tag at line 2, column 19: line 2, column 21: found character '}' that is not allowed in a YAML tag",
        ),
        false,
    ),
    case(
        "f10",
        b"machine:\n  nodeLabels:\n    a: !<x{y}> b\n",
        Error("yaml: line 3: did not find the expected '>'"),
        Accepted,
        false,
    ),
    case("f11", b"machine:\n  nodeLabels:\n    a: ! x\n", Accepted, Accepted, false),
    case(
        "j04",
        b"%TAG !e! tag:x{y}\n---\nmachine: {}\n",
        Error("yaml: did not find expected whitespace or line break"),
        Accepted,
        false,
    ),
    case("x21", b"%TAG !e! tag:x,y[]\n---\nmachine:\n  nodeLabels:\n    a: !e!z b\n", Accepted, Accepted, false),
    // A verbatim tag must end at a blank in both: rc.4's flow-comma leniency is for short tags.
    case(
        "x22",
        b"machine:\n  certSANs: [!<x>, b]\n",
        Error("yaml: line 2: did not find expected whitespace or line break"),
        Error(
            "yaml: while scanning a tag at line 2, column 14: line 2, column 18: did not find expected whitespace or line break",
        ),
        true,
    ),
    case(
        "x23",
        b"machine:\n  certSANs: [!<tag:yaml.org,2002:str>, b]\n",
        Error("yaml: line 2: did not find expected whitespace or line break"),
        Error(
            "yaml: while scanning a tag at line 2, column 14: line 2, column 38: did not find expected whitespace or line break",
        ),
        true,
    ),
    // 3.1 Implicit keys: rc.3's 1024-character limit, and a stale required key fails at the `:`.
    case("x01", b"machine:\n  nodeLabels:\n    a: b\n    <K1024>: c\n", Accepted, Accepted, false),
    case(
        "x02",
        b"machine:\n  nodeLabels:\n    a: b\n    <K1025>: c\n",
        Error("yaml: line 4: could not find expected ':'"),
        Accepted,
        false,
    ),
    case(
        "d08",
        b"machine:\n  nodeLabels:\n    a: b\n    <K1100>: c\n",
        Error("yaml: line 4: could not find expected ':'"),
        Accepted,
        false,
    ),
    case(
        "f07",
        b"machine:\n  nodeLabels:\n    <K1100>: c\n",
        Error("yaml: line 3: mapping values are not allowed in this context"),
        Accepted,
        false,
    ),
    case(
        "x17",
        b"machine:\n  nodeLabels:\n    \"<K1100>\": c\n",
        Error("yaml: line 3: mapping values are not allowed in this context"),
        Accepted,
        false,
    ),
    case(
        "f06",
        b"machine:\n  nodeLabels: {<K1100>: c}\n",
        Error("yaml: line 1: did not find expected ',' or '}'"),
        Accepted,
        false,
    ),
    case(
        "f04",
        b"machine:\n  nodeLabels:\n    a: b\n    c\n    : d\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error("yaml: while scanning a simple key at line 4, column 5: line 5, column 7: could not find expected ':'"),
        true,
    ),
    case(
        "i01",
        b"machine:\n  nodeLabels:\n    a: b\n    c\n    : @\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error(
            "yaml: while scanning for the next token at line 5, column 7: found character that cannot start any token",
        ),
        false,
    ),
    case(
        "i02",
        b"machine:\n  nodeLabels:\n    a: b\n    c\n    :\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error("yaml: while scanning a simple key at line 4, column 5: line 6: could not find expected ':'"),
        true,
    ),
    case(
        "i03",
        b"machine:\n  nodeLabels:\n    a: b\n    c\n    : \t@\n",
        Error("yaml: line 4: could not find expected ':'"),
        Error(
            "yaml: while scanning for the next token at line 5, column 7: found character that cannot start any token",
        ),
        false,
    ),
    // 3.2 A `:` right after `[` or `,` in a flow collection: a plain scalar in rc.4 only.
    case(
        "c05",
        b"machine:\n  nodeLabels:\n    a: [:x]\n",
        Error("yaml: line 2: did not find expected node content"),
        Accepted,
        false,
    ),
    case(
        "f08",
        b"machine:\n  nodeLabels: [a, :b]\n",
        Error("yaml: line 1: did not find expected node content"),
        Accepted,
        false,
    ),
    case(
        "f09",
        b"machine:\n  nodeLabels:\n    a: [{x: 1}, :b]\n",
        Error("yaml: line 2: did not find expected node content"),
        Accepted,
        false,
    ),
    case(
        "x12",
        b"machine:\n  nodeLabels: {x: 1, :b}\n",
        Error("yaml: line 1: did not find expected node content"),
        Accepted,
        false,
    ),
    case(
        "x19",
        b"machine:\n  nodeLabels: [:: A]\n",
        Error("yaml: line 1: did not find expected node content"),
        Accepted,
        false,
    ),
];

fn outcome(result: Result<Vec<Node>, talos_yaml::parse::YamlError>) -> Outcome {
    match result {
        Ok(_) => Accepted,
        Err(e) => Error(Box::leak(e.message.into_boxed_str())),
    }
}

#[test]
fn each_release_accepts_and_words_errors_as_go_yaml_does() {
    let mut failures = Vec::new();
    for c in CASES {
        let input = expand(c.input);
        for (dialect, want) in [(Dialect::V4Rc3, c.rc3), (Dialect::V4Rc4, c.rc4)] {
            let got = outcome(parse_documents_in(&input, dialect));
            if got != want {
                failures.push(format!("{} {dialect:?}:\n  want {want:?}\n  got  {got:?}", c.name));
            }
        }
        // The functions without a dialect are rc.4's.
        let got = outcome(parse_documents(&input));
        if got != c.rc4 {
            failures.push(format!("{} default:\n  want {:?}\n  got  {got:?}", c.name, c.rc4));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_reworded_for_the_other_release() {
    for c in CASES.iter().filter(|c| c.same_problem) {
        let input = expand(c.input);
        let (Error(rc3), Error(rc4)) = (c.rc3, c.rc4) else { panic!("{}: same problem, but not two errors", c.name) };
        let from_rc4 = parse_documents(&input).expect_err(c.name);
        let position = (from_rc4.line, from_rc4.column);
        let reworded = from_rc4.in_dialect(Dialect::V4Rc3);
        assert_eq!(reworded.message, rc3, "{}: rc.4's error in rc.3's words", c.name);
        // The position fields stay as they were.
        assert_eq!((reworded.line, reworded.column), position, "{}", c.name);
        let from_rc3 = parse_documents_in(&input, Dialect::V4Rc3).expect_err(c.name);
        // rc.3 finds a stale required key at the `:` already (f04, i02): the same problem at
        // another place, which rc.4's words would show.
        if (from_rc3.line, from_rc3.column) == position {
            let back = from_rc3.clone().in_dialect(Dialect::V4Rc4).message;
            assert_eq!(back, rc4, "{}: rc.3's error in rc.4's words", c.name);
        }
        assert_eq!(from_rc3.in_dialect(Dialect::V4Rc3).message, rc3, "{}: rewording is idempotent", c.name);
    }
}

#[test]
fn max_depth_in_both_releases() {
    let input = too_deep();
    assert_eq!(
        parse_documents_in(&input, Dialect::V4Rc3).unwrap_err().message,
        "yaml: line 3: exceeded max depth of 10000"
    );
    let rc4 = parse_documents_in(&input, Dialect::V4Rc4).unwrap_err();
    assert_eq!(rc4.message, "yaml: while increasing flow level at line 3, column 10008: exceeded max depth of 10000");
    assert_eq!(rc4.in_dialect(Dialect::V4Rc3).message, "yaml: line 3: exceeded max depth of 10000");
}

/// `machine.nodeLabels.a` of a parsed patch.
fn label_a(doc: &Node) -> &Node {
    doc.get("machine").and_then(|m| m.get("nodeLabels")).and_then(|l| l.get("a")).expect("machine.nodeLabels.a")
}

fn text(n: &Node) -> &str {
    n.as_scalar().map(|s| s.text.as_str()).expect("a scalar")
}

#[test]
fn what_the_accepted_inputs_hold() {
    // rc.3's tags may hold `,` `[` `]`: `!!str,` is the tag `tag:yaml.org,2002:str,`.
    let d = &parse_documents_in(b"machine:\n  nodeLabels:\n    a: !!str, b\n", Dialect::V4Rc3).unwrap()[0];
    assert_eq!((label_a(d).tag.as_deref(), text(label_a(d))), (Some("!!str,"), "b"));
    let d = &parse_documents_in(b"machine:\n  nodeLabels:\n    a: !t[x] b\n", Dialect::V4Rc3).unwrap()[0];
    assert_eq!((label_a(d).tag.as_deref(), text(label_a(d))), (Some("!t[x]"), "b"));
    // d07: rc.3 reads `[!!str, a]` as a one-item sequence (the tag eats the comma).
    let d = &parse_documents_in(b"machine:\n  nodeLabels: [!!str, a]\n", Dialect::V4Rc3).unwrap()[0];
    let labels = d.get("machine").and_then(|m| m.get("nodeLabels")).unwrap();
    let items = labels.as_sequence().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!((items[0].tag.as_deref(), text(&items[0])), (Some("!!str,"), "a"));
    // rc.4 reads `[:x]` as the plain scalar `:x`.
    let d = &parse_documents_in(b"machine:\n  nodeLabels:\n    a: [:x]\n", Dialect::V4Rc4).unwrap()[0];
    assert_eq!(text(&label_a(d).as_sequence().unwrap()[0]), ":x");
    // rc.4 keeps DEL and C1 controls in the text.
    let d = &parse_documents_in(b"machine:\n  nodeLabels:\n    a: b\x7f\n", Dialect::V4Rc4).unwrap()[0];
    assert_eq!(text(label_a(d)), "b\u{7f}");
    let d = &parse_documents_in(b"machine:\n  nodeLabels:\n    a: b\xc2\x80\n", Dialect::V4Rc4).unwrap()[0];
    assert_eq!(text(label_a(d)), "b\u{80}");
    // Keys of exactly 1024 characters are keys in rc.3 too.
    let input = expand(b"machine:\n  nodeLabels:\n    a: b\n    <K1024>: c\n");
    let d = &parse_documents_in(&input, Dialect::V4Rc3).unwrap()[0];
    let key = "k".repeat(1024);
    assert_eq!(d.get("machine").and_then(|m| m.get("nodeLabels")).and_then(|l| l.get(&key)).map(text), Some("c"));
}

#[test]
fn every_entry_point_takes_the_dialect() {
    let input = b"a: 1\n---\nb: [:x]\n";
    let (docs, err) = parse_stream_partial_in(input, Dialect::V4Rc3);
    assert_eq!(docs.len(), 1);
    assert_eq!(err.unwrap().message, "yaml: line 2: did not find expected node content");
    let (docs, err) = parse_stream_partial_in(input, Dialect::V4Rc4);
    assert_eq!((docs.len(), err), (2, None));
    assert_eq!(
        parse_stream_in(input, Dialect::V4Rc3).unwrap_err().message,
        "yaml: line 2: did not find expected node content"
    );
    assert_eq!(parse_stream_in(input, Dialect::V4Rc4).unwrap().len(), 2);
    // Only the first document is read.
    assert!(parse_first_document_in(input, Dialect::V4Rc3).unwrap().is_some());
    let err = parse_first_document_in(b"a: [:x]\n", Dialect::V4Rc3).unwrap_err();
    assert_eq!(err.message, "yaml: did not find expected node content");
    // A reader error of a later chunk, after a good first document: in rc.3's words.
    let mut late = b"a: 1\n---\n".to_vec();
    late.extend(std::iter::repeat_n(b'#', 600));
    late.extend(b"\nb: \xff\n");
    let (_, err) = parse_stream_partial_in(&late, Dialect::V4Rc3);
    assert_eq!(err.unwrap().message, "yaml: invalid leading UTF-8 octet");
    let (_, err) = parse_stream_partial_in(&late, Dialect::V4Rc4);
    assert_eq!(err.unwrap().message, "yaml: offset 613: invalid leading UTF-8 octet");
}

// ---------------------------------------------------------------------------------------------
// Emitter

fn map1(k: &str, v: Node) -> Node {
    Node::mapping(vec![(Node::go_string(k), v)])
}

#[test]
fn block_scalar_hint_before_a_leading_line_break() {
    // d06: a file whose content starts with a line break (Talos encodes Go strings).
    let file = Node::mapping(vec![
        (Node::go_string("content"), Node::go_string("\nfoo\n")),
        (Node::go_string("permissions"), Node::plain("0o644")),
    ]);
    let doc = map1("machine", map1("files", Node::sequence(vec![file])));
    let rc3 = "machine:\n    files:\n        - content: |4\n\n            foo\n          permissions: 0o644\n";
    let rc4 = "machine:\n    files:\n        - content: |\n\n            foo\n          permissions: 0o644\n";
    assert_eq!(emit_v4_in(&doc, Dialect::V4Rc3), rc3);
    assert_eq!(emit_v4_in(&doc, Dialect::V4Rc4), rc4);
    assert_eq!(emit_v4(&doc), rc4);
    let mut out = String::from("---\n");
    emit_v4_into_in(&doc, &mut out, Dialect::V4Rc3);
    assert_eq!(out, format!("---\n{rc3}"));
    // A leading space gets the hint in both.
    let doc = map1("k", Node::go_string(" x\ny\n"));
    assert_eq!(emit_v4_in(&doc, Dialect::V4Rc3), "k: |4\n     x\n    y\n");
    assert_eq!(emit_v4_in(&doc, Dialect::V4Rc4), "k: |4\n     x\n    y\n");
}

#[test]
fn parsed_block_scalars_re_emitted_with_comments() {
    // x04/x05: the unknown-keys summary re-encodes the parsed nodes.
    for (input, rc3, rc4) in [
        (
            "machine:\n  bar: >-\n\n    foo\n",
            "machine:\n    bar: >4-\n\n        foo\n",
            "machine:\n    bar: >-\n\n        foo\n",
        ),
        (
            "machine:\n  bar: |\n\n    foo\n",
            "machine:\n    bar: |4\n\n        foo\n",
            "machine:\n    bar: |\n\n        foo\n",
        ),
    ] {
        let doc = &parse_documents(input.as_bytes()).unwrap()[0];
        assert_eq!(emit_v4_with_comments_in(doc, Dialect::V4Rc3), rc3, "{input:?}");
        assert_eq!(emit_v4_with_comments_in(doc, Dialect::V4Rc4), rc4, "{input:?}");
        assert_eq!(emit_v4_with_comments(doc), rc4, "{input:?}");
    }
}

/// A `yaml.Node` scalar with a tag it was not written with.
fn tagged(text: &str, style: ScalarStyle, tag: &str) -> Node {
    let mut node = Node::scalar(text, style);
    node.tag = Some(tag.to_string());
    node
}

#[test]
fn str_tagged_merge_text() {
    // Not reachable from a Talos v1.12 config (no custom marshaler builds such a node there);
    // expected bytes from the serializers' rule (rc.3 encode.go, rc.4 serializer.go): a
    // `!!str` node whose text resolves to another tag is double-quoted, and rc.3 resolves a
    // plain `<<` to `!!str`, rc.4 to `!!merge`.
    let go_node = map1("k", Node::scalar("<<", ScalarStyle::GoNode));
    assert_eq!(emit_v4_in(&go_node, Dialect::V4Rc3), "k: <<\n");
    assert_eq!(emit_v4_in(&go_node, Dialect::V4Rc4), "k: \"<<\"\n");
    let str_tagged = map1("k", tagged("<<", ScalarStyle::Plain, "!!str"));
    assert_eq!(emit_v4_in(&str_tagged, Dialect::V4Rc3), "k: <<\n");
    assert_eq!(emit_v4_in(&str_tagged, Dialect::V4Rc4), "k: \"<<\"\n");
    // rc.3 keeps a `!!merge` tag on `<<` (its resolver says `!!str`).
    let merge_tagged = map1("k", tagged("<<", ScalarStyle::Plain, "!!merge"));
    assert_eq!(emit_v4_in(&merge_tagged, Dialect::V4Rc3), "k: !!merge <<\n");
    // A Go string `<<` is quoted by both (go-yaml's `looksLikeMerge`).
    let go_string = map1("k", Node::go_string("<<"));
    assert_eq!(emit_v4_in(&go_string, Dialect::V4Rc3), "k: \"<<\"\n");
    assert_eq!(emit_v4_in(&go_string, Dialect::V4Rc4), "k: \"<<\"\n");
    // Other nodes are the same in both.
    let other = map1("k", Node::scalar("on", ScalarStyle::GoNode));
    assert_eq!(emit_v4_in(&other, Dialect::V4Rc3), emit_v4_in(&other, Dialect::V4Rc4));
    assert!(matches!(other.value, NodeValue::Mapping(..)));
}
