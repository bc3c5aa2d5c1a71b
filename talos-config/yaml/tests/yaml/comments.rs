//! Comments: where the parser attaches them (go-yaml's head, line and foot comments, with its
//! scanner's empty-line and indentation rules and its composer's moves) and how the v4 emitter
//! writes them back. The placement rules were checked against go-yaml's own node test cases
//! (64 decode cases and the 13 comment round trips without document comments) when they were
//! written; these cases pin them.

use talos_yaml::emit_v4::{emit_v4, emit_v4_with_comments};
use talos_yaml::parse::parse_documents;
use talos_yaml::{Node, NodeValue};

/// One line per node that has a comment: its path, then `head`, `line` and `foot`.
fn placement(node: &Node) -> String {
    fn walk(node: &Node, path: &str, out: &mut String) {
        if let Some(origin) = &node.origin {
            let c = &origin.comments;
            for (name, text) in [("head", &c.head), ("line", &c.line), ("foot", &c.foot)] {
                if !text.is_empty() {
                    out.push_str(&format!("{path} {name}: {}\n", text.replace('\n', "|")));
                }
            }
        }
        match &node.value {
            NodeValue::Scalar(_) => {}
            NodeValue::Sequence(items, _) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), out);
                }
            }
            NodeValue::Mapping(entries, _) => {
                for (k, v) in entries {
                    let name = k.as_scalar().map_or("?", |s| s.text.as_str());
                    walk(k, &format!("{path}.<{name}>"), out);
                    walk(v, &format!("{path}.{name}"), out);
                }
            }
        }
    }
    let mut out = String::new();
    walk(node, "$", &mut out);
    out
}

/// The placement of every comment, then the emitted text.
fn round(input: &str) -> String {
    let docs = parse_documents(input.as_bytes()).unwrap();
    format!("{}---\n{}", placement(&docs[0]), emit_v4_with_comments(&docs[0]))
}

#[test]
fn head_line_and_foot_comments_of_a_block_mapping() {
    insta::assert_snapshot!(round("# about a\na: 1 # one\n# after a\n\n# about b\nb:\n  # about c\n  c: [x] # list\n  # after c\n\n# end\n"), @r"
        $.<a> head: # about a
        $.<a> foot: # after a
        $.a line: # one
        $.<b> head: # about b
        $.b.<c> head: # about c
        $.b.<c> foot: # after c
        $.b.c line: # list
        ---
        # about a
        a: 1 # one
        # after a

        # about b
        b:
            # about c
            c: [x] # list
            # after c
        ");
}

#[test]
fn a_comment_right_above_content_heads_it_and_an_empty_line_splits_foot_from_head() {
    insta::assert_snapshot!(round("list:\n  - a # on a\n  # above b\n  - b\n  # below b\n\n  # above c\n  - c\n"), @r"
        $.list[0] line: # on a
        $.list[1] head: # above b
        $.list[1] foot: # below b
        $.list[2] head: # above c
        ---
        list:
            - a # on a
            # above b
            - b
            # below b

            # above c
            - c
        ");
}

#[test]
fn a_comment_after_a_lone_dash_heads_the_item() {
    insta::assert_snapshot!(round("- # names the map\n  k: v\n- # names the scalar\n  s\n"), @r"
        $[0].<k> head: # names the map
        $[1] head: # names the scalar
        ---
        - # names the map
          k: v
        # names the scalar
        - s
        ");
}

#[test]
fn a_key_line_comment_goes_with_a_block_value() {
    insta::assert_snapshot!(round("a: # about the map\n  b: c\nd: # about the scalar\n  e\n"), @r"
        $.<a> line: # about the map
        $.<d> line: # about the scalar
        ---
        a: # about the map
            b: c
        d: e # about the scalar
        ");
}

#[test]
fn comments_inside_flow_collections() {
    insta::assert_snapshot!(round("f: [\n  # first\n  a, # after a\n  b\n]\ng: {x: 1, # after x\n  y: 2}\n"), @r"
        $.f[0] head: # first
        $.f[0] line: # after a
        $.g.x line: # after x
        ---
        f: [
            # first
            a, # after a
            b]
        g: {x: 1, # after x
            y: 2}
        ");
}

#[test]
fn block_scalar_header_and_document_head_comments() {
    insta::assert_snapshot!(round("# the document\n\n# the key\nk: | # the header\n  text\n"), @r"
        $.<k> head: # the key
        $.k line: # the header
        ---
        # the key
        k: | # the header
            text
        ");
}

#[test]
fn comments_never_change_the_plain_emitter_or_node_equality() {
    let with = parse_documents(b"a: 1 # l\n# f\n").unwrap();
    let without = parse_documents(b"a: 1\n").unwrap();
    assert_eq!(with, without);
    assert_eq!(emit_v4(&with[0]), "a: 1\n");
}
