//! Tests of the YAML parser against go-yaml v4.0.0-rc.4 behaviour (docs/merge.md §3, §4.1, §11.7,
//! §12 W12/W13, errata 9/10).

use talos_yaml::parse::{YamlError, parse_documents};
use talos_yaml::{CollectionStyle, Node, NodeValue, ScalarStyle};

/// A compact rendering: scalars with a style prefix (`'`, `"`, `|`, `>`, none for plain),
/// collections as `[]`/`{}` (block) or `f[]`/`f{}` (flow), tags as `<tag>` prefixes.
fn dump(n: &Node) -> String {
    let tag = n.tag.as_ref().map(|t| format!("<{t}>")).unwrap_or_default();
    match &n.value {
        NodeValue::Scalar(s) => {
            let st = match s.style {
                ScalarStyle::Plain => "",
                ScalarStyle::SingleQuoted => "'",
                ScalarStyle::DoubleQuoted => "\"",
                ScalarStyle::Literal => "|",
                ScalarStyle::Folded => ">",
                _ => "?",
            };
            format!("{tag}{st}{:?}", s.text)
        }
        NodeValue::Sequence(items, style) => {
            let f = if *style == CollectionStyle::Flow { "f" } else { "" };
            let inner: Vec<String> = items.iter().map(dump).collect();
            format!("{tag}{f}[{}]", inner.join(", "))
        }
        NodeValue::Mapping(entries, style) => {
            let f = if *style == CollectionStyle::Flow { "f" } else { "" };
            let inner: Vec<String> = entries.iter().map(|(k, v)| format!("{}: {}", dump(k), dump(v))).collect();
            format!("{tag}{f}{{{}}}", inner.join(", "))
        }
    }
}

fn docs(input: &str) -> Vec<String> {
    match parse_documents(input.as_bytes()) {
        Ok(d) => d.iter().map(dump).collect(),
        Err(e) => panic!("unexpected error for {input:?}: {e}"),
    }
}

fn one(input: &str) -> Node {
    let mut d = parse_documents(input.as_bytes()).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(d.len(), 1, "{input:?}");
    d.remove(0)
}

fn err(input: &[u8]) -> String {
    match parse_documents(input) {
        Ok(d) => panic!("expected an error, got {:?}", d.iter().map(dump).collect::<Vec<_>>()),
        Err(YamlError { message, .. }) => message,
    }
}

/// (line, column, offset) of a node.
fn pos(n: &Node) -> (usize, usize, usize) {
    (n.mark.line, n.mark.column, n.mark.offset)
}

fn key<'a>(n: &'a Node, k: &str) -> &'a Node {
    n.get(k).unwrap_or_else(|| panic!("no key {k}"))
}

fn key_node<'a>(n: &'a Node, k: &str) -> &'a Node {
    n.as_mapping()
        .and_then(|e| e.iter().find(|(kn, _)| kn.as_scalar().is_some_and(|s| s.text == k)))
        .map(|(kn, _)| kn)
        .unwrap_or_else(|| panic!("no key {k}"))
}

fn item(n: &Node, i: usize) -> &Node {
    &n.as_sequence().expect("sequence")[i]
}

// ---------------------------------------------------------------------------------------------
// Positions

const WORKER_HEAD: &str = "version: v1alpha1\ndebug: false\npersist: true\nmachine:\n    type: worker\n    token: tbywgp.45p3jwyegg4gv2ch\n    ca:\n        crt: LS0t\n        key: \"\"\n    certSANs:\n        - 127.0.0.1\n    kubelet:\n        image: ghcr.io/siderolabs/kubelet:v1.36.3\n        defaultRuntimeSeccompProfileEnabled: true\n    network: {}\n    install:\n        disk: /dev/sda\n        extraKernelArgs: []\ncluster:\n    controlPlane:\n        endpoint: https://10.5.0.2:6443\n    network:\n        podSubnets:\n        - 10.244.0.0/16\n        serviceSubnets: [10.96.0.0/12]\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n";

#[test]
fn positions_in_a_realistic_config() {
    let d = parse_documents(WORKER_HEAD.as_bytes()).unwrap();
    assert_eq!(d.len(), 2);
    let root = &d[0];
    assert_eq!(pos(root), (1, 1, 0));
    assert_eq!(pos(key_node(root, "version")), (1, 1, 0));
    assert_eq!(pos(key(root, "version")), (1, 10, 9));
    assert_eq!(pos(key_node(root, "machine")), (4, 1, 45));
    let machine = key(root, "machine");
    // A block mapping starts at its first key.
    assert_eq!(pos(machine), (5, 5, 58));
    assert_eq!(pos(key(machine, "type")), (5, 11, 64));
    let ca = key(machine, "ca");
    assert_eq!(pos2(ca), (8, 9));
    let sans = key(machine, "certSANs");
    // A block sequence starts at its first `-`.
    assert_eq!((pos(sans).0, pos(sans).1), (11, 9));
    assert_eq!((pos(item(sans, 0)).0, pos(item(sans, 0)).1), (11, 11));
    let kubelet = key(machine, "kubelet");
    assert_eq!((pos(key(kubelet, "image")).0, pos(key(kubelet, "image")).1), (13, 16));
    let network = key(machine, "network");
    assert_eq!((pos(network).0, pos(network).1), (15, 14));
    assert_eq!(dump(network), "f{}");
    let install = key(machine, "install");
    assert_eq!((pos(key(install, "extraKernelArgs")).0, pos(key(install, "extraKernelArgs")).1), (18, 26));
    let cluster = key(root, "cluster");
    let cnet = key(cluster, "network");
    // An indentless sequence starts at its first `-`.
    let pods = key(cnet, "podSubnets");
    assert_eq!((pos(pods).0, pos(pods).1), (24, 9));
    assert_eq!(dump(pods), "[\"10.244.0.0/16\"]");
    let svc = key(cnet, "serviceSubnets");
    assert_eq!((pos(svc).0, pos(svc).1), (25, 25));
    assert_eq!(dump(svc), "f[\"10.96.0.0/12\"]");
    // The second document (after `---` on line 26) starts on line 27.
    assert_eq!((pos(&d[1]).0, pos(&d[1]).1), (27, 1));
    assert_eq!(pos(&d[1]).2, WORKER_HEAD.find("apiVersion").unwrap_or(0));
}

fn pos2(n: &Node) -> (usize, usize) {
    (n.mark.line, n.mark.column)
}

#[test]
fn document_starting_with_dashes_has_its_root_on_line_2() {
    let root = one("---\nkind: mock\napiVersion: v1alpha1\ntest: true\n");
    assert_eq!(pos(&root), (2, 1, 4));
}

#[test]
fn positions_of_properties_empty_values_and_multibyte_text() {
    // A node with an anchor or tag starts at the property.
    let root = one("a: &x\n  b: 1\nc: !!str 2\nd:\ne: [\u{e9}, x]\n");
    assert_eq!(pos2(key(&root, "a")), (1, 4));
    assert_eq!(pos2(key(&root, "c")), (3, 4));
    // An empty value sits right after the `:`.
    assert_eq!(pos2(key(&root, "d")), (4, 3));
    assert_eq!(dump(key(&root, "d")), "\"\"");
    // Columns count characters; offsets count bytes.
    let e = key(&root, "e");
    assert_eq!(pos(item(e, 1)), (5, 8, 35));
}

#[test]
fn crlf_and_bom() {
    let root = parse_documents(b"\xef\xbb\xbfa: 1\r\nb: |\r\n  x\r\n  y\r\n").unwrap();
    assert_eq!(dump(&root[0]), "{\"a\": \"1\", \"b\": |\"x\\ny\\n\"}");
    assert_eq!(pos(&root[0]), (1, 1, 3));
    assert_eq!(pos(key_node(&root[0], "b")), (2, 1, 9));
    // A BOM further on is a character like any other (go-yaml rc.4 skips one at a line start
    // only when its buffer starts with a BOM).
    let root = parse_documents(b"---\n\xef\xbb\xbfmachine: 1\n").unwrap();
    assert_eq!(dump(&root[0]), "{\"\\u{feff}machine\": \"1\"}");
}

// ---------------------------------------------------------------------------------------------
// Styles, tags, scalars

/// The non-specific tag `!` counts as no tag, as in go-yaml's composer.
#[test]
fn scalar_styles_and_tags() {
    assert_eq!(
        docs(
            "a: plain\nb: 'single'\nc: \"double\"\nd: !!str 1\ne: !!binary aGVsbG8=\nf: !custom x\ng: ! y\nh: !<tag:yaml.org,2002:int> 3\ni: !!map {x: y}\n"
        ),
        vec![
            "{\"a\": \"plain\", \"b\": '\"single\", \"c\": \"\"double\", \"d\": <!!str>\"1\", \"e\": <!!binary>\"aGVsbG8=\", \"f\": <!custom>\"x\", \"g\": \"y\", \"h\": <!!int>\"3\", \"i\": <!!map>f{\"x\": \"y\"}}"
        ]
    );
}

#[test]
fn tag_directives() {
    assert_eq!(
        docs("%TAG !e! tag:example.com,2000:\n---\na: !e!foo x\n"),
        vec!["{\"a\": <tag:example.com,2000:foo>\"x\"}"]
    );
    assert_eq!(
        err(b"x: 1\na: !e!foo x\n"),
        "yaml: while parsing a node at line 1, column 4: found undefined tag handle"
    );
}

#[test]
fn block_scalars() {
    assert_eq!(
        docs(
            "a: |\n  x\n\n  y\n\n\nb: |-\n  x\n\nc: |+\n  x\n\n\nd: >\n  a\n  b\n\n  c\n   d\n  e\ne: |4\n      x\n     y\nf: >-\n\n  a\ng: |2-\n   x\nh: >+\n  k\n\n"
        ),
        vec![
            "{\"a\": |\"x\\n\\ny\\n\", \"b\": |\"x\", \"c\": |\"x\\n\\n\\n\", \"d\": >\"a b\\nc\\n d\\ne\\n\", \"e\": |\"  x\\n y\\n\", \"f\": >\"\\na\", \"g\": |\" x\", \"h\": >\"k\\n\\n\"}"
        ]
    );
    // A block scalar in a sequence, and one at the end of the stream without a line break.
    assert_eq!(docs("- |\n  one\n- >-\n  two\n  three"), vec!["[|\"one\\n\", >\"two three\"]"]);
    // Comments after the header; a less indented line ends the scalar.
    assert_eq!(docs("a: | # note\n    x\nb: 1\n"), vec!["{\"a\": |\"x\\n\", \"b\": \"1\"}"]);
}

#[test]
fn quoted_and_plain_folding() {
    assert_eq!(
        docs(
            "a: \"x\n  y\n\n  z\\\n  w \\t\\u00e9\\x41\\U0001F600\"\nb: 'it''s\n  ok'\nc: plain\n  multi\n\n  line\nd: a#b # comment\n"
        ),
        vec![
            "{\"a\": \"\"x y\\nzw \\té\u{41}\u{1F600}\", \"b\": '\"it's ok\", \"c\": \"plain multi\\nline\", \"d\": \"a#b\"}"
        ]
    );
}

#[test]
fn flow_collections() {
    assert_eq!(
        docs("a: [1, [2, 3], {b: c, d: [e]}, f: g]\nh: {i, j: , \"k\":l}\nm: []\nn: {}\n"),
        vec![
            "{\"a\": f[\"1\", f[\"2\", \"3\"], f{\"b\": \"c\", \"d\": f[\"e\"]}, f{\"f\": \"g\"}], \"h\": f{\"i\": \"\", \"j\": \"\", \"\"k\": \"l\"}, \"m\": f[], \"n\": f{}}"
        ]
    );
    // JSON is YAML.
    assert_eq!(
        docs("{\"machine\":{\"nodeLabels\":{\"e\":\"\u{1F600}\"}},\"n\":[1,2.5,true,null]}"),
        vec![
            "f{\"\"machine\": f{\"\"nodeLabels\": f{\"\"e\": \"\"\u{1F600}\"}}, \"\"n\": f[\"1\", \"2.5\", \"true\", \"null\"]}"
        ]
    );
    // Multi-line flow collections.
    assert_eq!(docs("a: [\n  x,\n  y\n]\n"), vec!["{\"a\": f[\"x\", \"y\"]}"]);
}

#[test]
fn complex_keys_and_nested_sequences() {
    assert_eq!(docs("? a\n: b\n? [c]\n: d\n"), vec!["{\"a\": \"b\", f[\"c\"]: \"d\"}"]);
    assert_eq!(docs("- - a\n  - b\n- c: d\n  e: f\n-\n"), vec!["[[\"a\", \"b\"], {\"c\": \"d\", \"e\": \"f\"}, \"\"]"]);
    // Duplicate keys are kept (the decoder rejects them later); merge keys are plain entries.
    assert_eq!(docs("a: 1\na: 2\n<<: {b: 3}\n"), vec!["{\"a\": \"1\", \"a\": \"2\", \"<<\": f{\"b\": \"3\"}}"]);
}

// ---------------------------------------------------------------------------------------------
// Document counting (docs/merge.md errata 10, §3 step 1, §4 step 2)

#[test]
fn document_counting() {
    let count = |s: &str| parse_documents(s.as_bytes()).map(|d| d.len()).unwrap();
    assert_eq!(count(""), 0);
    assert_eq!(count("# only a comment\n"), 0);
    assert_eq!(count("\n\n   \n"), 0);
    assert_eq!(count("a: 1\n"), 1);
    assert_eq!(count("---\na: 1\n"), 1);
    assert_eq!(count("a: 1\n---\n"), 2);
    assert_eq!(count("a: 1\n...\n"), 1);
    assert_eq!(count("a: 1\n...\n...\n"), 1);
    assert_eq!(count("---\n"), 1);
    assert_eq!(count("---\n---\n"), 2);
    assert_eq!(count("a: 1\n---\nb: 2\n"), 2);
    assert_eq!(count("a: 1\n...\n---\nb: 2\n"), 2);
    // After an explicit `...` the next document needs `---`.
    assert_eq!(err(b"a: 1\n...\nb: 2\n"), "yaml: line 2: did not find expected <document start>");
    assert_eq!(count("--- # c\n"), 1);
}

#[test]
fn empty_and_null_documents() {
    assert_eq!(docs("a: 1\n---\n"), vec!["{\"a\": \"1\"}", "\"\""]);
    assert_eq!(docs("---\n"), vec!["\"\""]);
    assert_eq!(docs("~\n"), vec!["\"~\""]);
    assert_eq!(docs("null\n"), vec!["\"null\""]);
    assert_eq!(docs("--- |\n  x\n--- >\n  y\n"), vec!["|\"x\\n\"", ">\"y\\n\""]);
    let d = parse_documents(b"a: 1\n---\n").unwrap();
    let mut empty = Node::plain("");
    empty.mark = d[1].mark;
    assert_eq!(d[1], empty);
}

// ---------------------------------------------------------------------------------------------
// Anchors and aliases

#[test]
fn aliases_are_expanded() {
    assert_eq!(
        docs("a: &x [1, {b: c}]\nd: *x\ne: &y s\nf: *y\ng: &x 2\nh: *x\n"),
        vec![
            "{\"a\": f[\"1\", f{\"b\": \"c\"}], \"d\": f[\"1\", f{\"b\": \"c\"}], \"e\": \"s\", \"f\": \"s\", \"g\": \"2\", \"h\": \"2\"}"
        ]
    );
    // go-yaml's decoder keeps anchors across the documents of a stream.
    assert_eq!(docs("a: &x 1\n---\nb: *x\n"), vec!["{\"a\": \"1\"}", "{\"b\": \"1\"}"]);
    // Merge keys stay ordinary entries.
    assert_eq!(
        docs("base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n"),
        vec!["{\"base\": f{\"x\": \"1\"}, \"c\": {\"<<\": f{\"x\": \"1\"}, \"y\": \"2\"}}"]
    );
}

#[test]
fn alias_errors() {
    // go-yaml v4 rc.4's own test data: `a: *b` is `line 1, column 5` (the column printed is the
    // alias's 1-based column plus one).
    assert_eq!(err(b"a: *b\n"), "yaml: line 1, column 5: unknown anchor 'b' referenced");
    assert_eq!(err(b"b: *a\na: &a {c: 1}\n"), "yaml: line 1, column 5: unknown anchor 'a' referenced");
    assert_eq!(
        err(b"machine:\n  nodeLabels:\n    kubernetes.io/hostname: *undefined\n"),
        "yaml: line 3, column 30: unknown anchor 'undefined' referenced"
    );
    assert_eq!(err(b"a: &x [*x]\n"), "yaml: anchor 'x' value contains itself");
    let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
    for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().zip(["b", "c", "d", "e", "f", "g", "h", "i"]) {
        bomb.push_str(&format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 10].join(",")));
    }
    assert_eq!(err(bomb.as_bytes()), "yaml: document contains excessive aliasing");
}

// ---------------------------------------------------------------------------------------------
// Error texts

#[test]
fn tab_instead_of_spaces() {
    // docs/merge.md §11.7 "tab instead of spaces".
    assert_eq!(
        err(b"---\nkind: mock\napiVersion: v1alpha1\nspec:\n\tfoo: bar\n"),
        "yaml: while scanning for the next token at line 5: found character that cannot start any token"
    );
}

#[test]
fn w12_block_scalar_indicator_output_does_not_reload() {
    let out = "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster:\n    controlPlane: null\n    inlineManifests:\n        - name: m\n          contents: |4\n             x: 1\n";
    assert_eq!(
        err(out.as_bytes()),
        "yaml: while parsing a block mapping at line 8, column 11: line 10, column 14: did not find expected key"
    );
}

#[test]
fn w13_surrogate_escapes_are_rejected() {
    assert_eq!(
        err(br#"{"machine":{"nodeLabels":{"e":"\ud83d\ude00"}}}"#),
        "yaml: while scanning a quoted scalar at line 1, column 31: line 1, column 34: found invalid Unicode character escape code"
    );
}

#[test]
fn other_syntax_errors() {
    assert_eq!(err(b"a: b: c\n"), "yaml: line 1, column 5: mapping values are not allowed in this context");
    assert_eq!(
        err(b"key: value\n  bad: x\n"),
        "yaml: line 2, column 6: mapping values are not allowed in this context"
    );
    assert_eq!(
        err(b"x:\n  - a\n  b: c\n"),
        "yaml: while parsing a block collection at line 1, column 3: line 2, column 3: did not find expected '-' indicator"
    );
    // go-yaml prints parser marks with a 0-based line; line 0 is `<unknown position>`.
    assert_eq!(
        err(b"- a\nb: c\n"),
        "yaml: while parsing a block collection at <unknown position>: line 1: did not find expected '-' indicator"
    );
    assert_eq!(
        err(b"a: [1, 2\n"),
        "yaml: while parsing a flow sequence at <unknown position>: line 1: did not find expected ',' or ']'"
    );
    assert_eq!(
        err(b"x: 1\na: {b: 1\n"),
        "yaml: while parsing a flow mapping at line 1, column 4: line 2: did not find expected ',' or '}'"
    );
    assert_eq!(
        err(b"a: 'x\n"),
        "yaml: while scanning a quoted scalar at line 1, column 4: line 2: found unexpected end of stream"
    );
    assert_eq!(
        err(b"a: \"\\q\"\n"),
        "yaml: while scanning a quoted scalar at line 1, column 4: line 1, column 5: found unknown escape character"
    );
    assert_eq!(
        err(b"a: |0\n"),
        "yaml: while scanning a block scalar at line 1, column 4: line 1, column 5: found an indentation indicator equal to 0"
    );
    assert_eq!(
        err(b"a: |x\n"),
        "yaml: while scanning a block scalar at line 1, column 4: line 1, column 5: did not find expected comment or line break"
    );
    assert_eq!(
        err(b"a: b\n- c\n"),
        "yaml: while parsing a block mapping at <unknown position>: line 1: did not find expected key"
    );
    assert_eq!(err(b"a\nb: c\n"), "yaml: line 2, column 2: mapping values are not allowed in this context");
    assert_eq!(err(b"a:\n  b\n  c: d\n"), "yaml: line 3, column 4: mapping values are not allowed in this context");
    assert_eq!(
        err(b"a: 1\nb\nc: 2\n"),
        "yaml: while scanning a simple key at line 2: line 3: could not find expected ':'"
    );
    assert_eq!(
        err(b"&\n"),
        "yaml: while scanning an anchor at line 1: line 1, column 2: did not find expected alphabetic or numeric character"
    );
    assert_eq!(
        err(b"a: `x`\n"),
        "yaml: while scanning for the next token at line 1, column 4: found character that cannot start any token"
    );
    assert_eq!(
        err(b"%FOO\n---\na\n"),
        "yaml: while scanning a directive at line 1: line 1, column 5: found unknown directive name"
    );
    // go-yaml reads YAML 1.1 documents only; the mark of this parser error is line 0.
    assert_eq!(err(b"%YAML 1.2\n---\nmachine: {}\n"), "yaml: <unknown position>: found incompatible YAML document");
    assert_eq!(err(b"%YAML 2.1\n---\na\n"), "yaml: <unknown position>: found incompatible YAML document");
    assert_eq!(parse_documents(b"%YAML 1.1\n---\na: b\n").map(|d| d.len()), Ok(1));
}

/// Runs `f` on a thread with a 256 KiB stack.
fn on_small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new().stack_size(256 * 1024).spawn_scoped(scope, f).unwrap().join().unwrap()
    })
}

#[test]
fn deepest_trees_parse_emit_clone_compare_and_drop_on_a_small_stack() {
    let flow_seq = format!("{}1{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let flow_map = format!("{}1{}\n", "{a: ".repeat(10_000), "}".repeat(10_000));
    let block_seq = format!("{}1\n", "- ".repeat(10_000));
    let block_map: String =
        (0..10_000).map(|i| format!("{}a:{}\n", " ".repeat(i), if i == 9_999 { " 1" } else { "" })).collect();
    for (shape, text) in [
        ("flow sequence", flow_seq),
        ("flow mapping", flow_map),
        ("block sequence", block_seq),
        ("block mapping", block_map),
    ] {
        on_small_stack(|| {
            let docs = parse_documents(text.as_bytes()).unwrap_or_else(|e| panic!("{shape}: {e}"));
            let copy = docs.clone();
            assert!(copy == docs, "{shape}");
            let v4 = talos_yaml::emit_v4::emit_v4(&docs[0]);
            let v2 = talos_yaml::emit_v2::emit_v2(&docs[0]);
            let reparsed = parse_documents(v4.as_bytes()).unwrap_or_else(|e| panic!("{shape}: {e}"));
            assert!(talos_yaml::emit_v4::emit_v4(&reparsed[0]) == v4, "{shape}");
            assert!(v2.len() >= 20_000, "{shape}");
            assert!(format!("{copy:?}").len() > 10_000, "{shape}");
            drop((docs, copy));
        });
    }
}

#[test]
fn depth_limits() {
    let ok = format!("{}{}", "[".repeat(10000), "]".repeat(10000));
    assert_eq!(parse_documents(ok.as_bytes()).map(|d| d.len()), Ok(1));
    let too_deep = format!("{}{}", "[".repeat(10001), "]".repeat(10001));
    assert_eq!(
        err(too_deep.as_bytes()),
        "yaml: while increasing flow level at line 1, column 10001: exceeded max depth of 10000"
    );
    let block = format!("{}x\n", "- ".repeat(10001));
    assert_eq!(
        err(block.as_bytes()),
        "yaml: while increasing indent level at line 1: line 1, column 20001: exceeded max depth of 10000"
    );
}

// ---------------------------------------------------------------------------------------------
// Input decoding

#[test]
fn invalid_utf8() {
    // docs/merge.md §11.7 "internal error".
    assert_eq!(err(b":   \xea"), "yaml: offset 4: incomplete UTF-8 octet sequence");
    assert_eq!(err(b"a: \xff"), "yaml: offset 3: invalid leading UTF-8 octet");
    assert_eq!(err(b"a: \xe2\x28\xa1"), "yaml: offset 4: invalid trailing UTF-8 octet");
    assert_eq!(err(b"a: \xc0\x80"), "yaml: offset 3: invalid length of a UTF-8 sequence");
    assert_eq!(err(b"a: \xed\xa0\x80"), "yaml: offset 3: invalid Unicode character");
    assert_eq!(err(b"a: \x00"), "yaml: offset 3: control characters are not allowed");
    assert_eq!(err(b"a: \x01"), "yaml: offset 3: control characters are not allowed");
    // go-yaml v4 rc.4 allows DEL and the C1 controls (YAML 1.2).
    assert_eq!(docs("a: \u{7f}\u{80}\u{9f}"), vec!["{\"a\": \"\\u{7f}\\u{80}\\u{9f}\"}"]);
    // The offset counts the BOM.
    assert_eq!(err(b"\xef\xbb\xbfa: \xff"), "yaml: offset 6: invalid leading UTF-8 octet");
    // NEL, NBSP and other printable characters are fine.
    assert_eq!(docs("a: b\u{a0}\u{fffd}\u{10000}"), vec!["{\"a\": \"b\\u{a0}\u{fffd}\u{10000}\"}"]);
}

#[test]
fn decoding_errors_surface_by_chunk() {
    // go-yaml decodes 512-byte chunks: a bad byte in the first chunk wins over any syntax error.
    assert_eq!(err(b"a: b: c\n\xff"), "yaml: offset 8: invalid leading UTF-8 octet");
    // A syntax error that the scanner meets before it needs a later chunk comes first.
    let mut s = b"a: b: c\n".to_vec();
    s.extend(std::iter::repeat_n(b'#', 1200));
    s.push(0xff);
    assert_eq!(err(&s), "yaml: line 1, column 5: mapping values are not allowed in this context");
    // A valid prefix spanning chunks, then a bad byte.
    let mut s = b"a: ".to_vec();
    s.extend(std::iter::repeat_n(b'x', 2000));
    s.extend(b"\n\xea");
    assert_eq!(err(&s), "yaml: offset 2004: incomplete UTF-8 octet sequence");
}

// ---------------------------------------------------------------------------------------------
// Robustness and performance

#[test]
fn large_literal_blocks_parse_quickly() {
    let mut s = String::from("machine:\n  files:\n");
    let line = "        abcdefghijklmnopqrstuvwxyz0123456789 abcdefghijklmnopqrstuvwxyz0123456789 abcdefghij\n";
    for i in 0..40 {
        s.push_str(&format!("    - path: /f{i}\n      content: |\n"));
        for _ in 0..3000 {
            s.push_str(line);
        }
    }
    assert!(s.len() > 10 << 20);
    let t = std::time::Instant::now();
    let d = parse_documents(s.as_bytes()).unwrap();
    let took = t.elapsed();
    let files = key(key(&d[0], "machine"), "files");
    assert_eq!(files.as_sequence().map(<[Node]>::len), Some(40));
    let content = key(item(files, 39), "content").as_scalar().map(|s| s.text.len());
    assert_eq!(content, Some(3000 * (line.len() - 8)));
    if !cfg!(debug_assertions) {
        assert!(took < std::time::Duration::from_secs(1), "took {took:?}");
    }
}

#[test]
fn never_panics_on_mangled_configs() {
    let base = WORKER_HEAD.as_bytes();
    let specials = [
        b'\t', b'-', b':', b'[', b'{', b'"', b'\'', b'|', b'>', b'&', b'*', b'!', b'#', b'\n', b' ', 0xff, 0xe2, b'?',
        b'%', b'\\',
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for round in 0..3000 {
        let mut v = base.to_vec();
        for _ in 0..(1 + round % 5) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed as usize) % v.len();
            let c = specials[(seed >> 32) as usize % specials.len()];
            match (seed >> 40) % 3 {
                0 => v[at] = c,
                1 => v.insert(at, c),
                _ => {
                    v.remove(at);
                }
            }
        }
        let _ = parse_documents(&v);
    }
}

// ---------------------------------------------------------------------------------------------
// go-yaml v4 rc.4's scanner (texts from its own test data, testdata/unmarshal_errors.yaml and
// internal/libyaml/testdata/scanner.yaml at v4.0.0-rc.4)

#[test]
fn short_tags_name_the_character_that_ends_them() {
    assert_eq!(
        err(b"!foo,bar value"),
        "yaml: while parsing a tag at line 1: line 1, column 5: found character ',' that is not allowed in a YAML tag"
    );
    assert_eq!(
        err(b"a: !!str}\n"),
        "yaml: while parsing a tag at line 1, column 4: line 1, column 9: found character '}' that is not allowed in a YAML tag"
    );
    // A verbatim tag may hold flow indicators.
    assert_eq!(docs("a: !<x,y> b\n"), vec!["{\"a\": <x,y>\"b\"}".to_string()]);
}

#[test]
fn missing_colons() {
    assert_eq!(err(b"a:\n  1:\nb\n  2:\n"), "yaml: line 4, column 4: mapping values are not allowed in this context");
    assert_eq!(
        err(b"a: 1\nb: 2\nc 2\nd: 3\n"),
        "yaml: while scanning a simple key at line 3: line 4: could not find expected ':'"
    );
}

/// go-yaml keeps two tokens queued ahead of the parser: a scanner error that close wins over
/// the parser's own error on the current token.
#[test]
fn scanner_errors_two_tokens_ahead_come_first() {
    assert_eq!(
        err(b"a: 1\n- b\n`\n"),
        "yaml: while scanning for the next token at line 3: found character that cannot start any token"
    );
    assert_eq!(
        err(b"a: 1\n- b\nc\n"),
        "yaml: while parsing a block mapping at <unknown position>: line 1: did not find expected key"
    );
}

/// In a flow, `?` and `:` start a plain scalar unless a blank follows (and `:` right after `[`
/// or `,` of a sequence does too); an implicit key has no length limit.
#[test]
fn flow_indicators_glued_to_text() {
    assert_eq!(docs("{?x: 1}"), vec!["f{\"?x\": \"1\"}".to_string()]);
    assert_eq!(docs("[?x, a?b]"), vec!["f[\"?x\", \"a?b\"]".to_string()]);
    assert_eq!(docs("[:x, a:b]"), vec!["f[\":x\", \"a:b\"]".to_string()]);
    let long = format!("{}: v\n", "k".repeat(2000));
    assert_eq!(docs(&long), vec![format!("{{\"{}\": \"v\"}}", "k".repeat(2000))]);
}

/// go-yaml v4 rc.4: an anchor name is any printable ASCII but blanks, `:` and flow indicators.
#[test]
fn anchor_names_take_printable_ascii() {
    assert_eq!(docs("foo: &b./ar bar\n*b./ar : quz\n"), vec!["{\"foo\": \"bar\", \"bar\": \"quz\"}".to_string()]);
    // A colon ends the name.
    assert_eq!(docs("a: &x:y b\n"), vec!["{\"a\": \":y b\"}".to_string()]);
    assert_eq!(
        err(b"foo: &bar: bar\n*bar: : quz\n"),
        "yaml: line 1, column 10: mapping values are not allowed in this context"
    );
}
