//! Probe tables S1-S64 and K1-K12 of docs/merge.md §9.5 (yaml.v2 column). Generated from docs/merge.md
//! tables; each test emits a whole document and compares every byte.

use talos_yaml::Node;
use talos_yaml::emit_v2::emit_v2;

fn map1(k: &str, v: Node) -> Node {
    Node::mapping(vec![(Node::go_string(k), v)])
}

/// `machine.nodeLabels.k` (key at column 8 in v4, column 4 in yaml.v2).
fn labels_v4(v: Node) -> Node {
    map1("machine", map1("nodeLabels", map1("k", v)))
}

/// `machine.kubelet.extraArgs.k` (key at column 12 in v4).
#[allow(dead_code)]
fn args_v4(v: Node) -> Node {
    map1("machine", map1("kubelet", map1("extraArgs", map1("k", v))))
}

/// `machine.nodeLabels` with one key and the value `v`.
fn labels_key(key: &str) -> Node {
    map1("machine", map1("nodeLabels", map1(key, Node::go_string("v"))))
}

#[test]
fn s1_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("on"))), "machine:\n  nodeLabels:\n    k: \"on\"\n");
}

#[test]
fn s2_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("yes"))), "machine:\n  nodeLabels:\n    k: \"yes\"\n");
}

#[test]
fn s3_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("y"))), "machine:\n  nodeLabels:\n    k: \"y\"\n");
}

#[test]
fn s4_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("Off"))), "machine:\n  nodeLabels:\n    k: \"Off\"\n");
}

#[test]
fn s5_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("true"))), "machine:\n  nodeLabels:\n    k: \"true\"\n");
}

#[test]
fn s6_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("1.0"))), "machine:\n  nodeLabels:\n    k: \"1.0\"\n");
}

#[test]
fn s7_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("0x1F"))), "machine:\n  nodeLabels:\n    k: \"0x1F\"\n");
}

#[test]
fn s8_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("0o17"))), "machine:\n  nodeLabels:\n    k: \"0o17\"\n");
}

#[test]
fn s9_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("0755"))), "machine:\n  nodeLabels:\n    k: \"0755\"\n");
}

#[test]
fn s10_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("1_000"))), "machine:\n  nodeLabels:\n    k: \"1_000\"\n");
}

#[test]
fn s11_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("10249"))), "machine:\n  nodeLabels:\n    k: \"10249\"\n");
}

#[test]
fn s12_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("-0"))), "machine:\n  nodeLabels:\n    k: \"-0\"\n");
}

#[test]
fn s13_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string(".5"))), "machine:\n  nodeLabels:\n    k: \".5\"\n");
}

#[test]
fn s14_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string(".inf"))), "machine:\n  nodeLabels:\n    k: \".inf\"\n");
}

#[test]
fn s15_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("1e400"))), "machine:\n  nodeLabels:\n    k: 1e400\n");
}

#[test]
fn s16_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("0x1p3"))), "machine:\n  nodeLabels:\n    k: 0x1p3\n");
}

#[test]
fn s17_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("~"))), "machine:\n  nodeLabels:\n    k: \"~\"\n");
}

#[test]
fn s18_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("null"))), "machine:\n  nodeLabels:\n    k: \"null\"\n");
}

#[test]
fn s19_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string(""))), "machine:\n  nodeLabels:\n    k: \"\"\n");
}

#[test]
fn s20_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("  lead"))), "machine:\n  nodeLabels:\n    k: '  lead'\n");
}

#[test]
fn s21_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("trail "))), "machine:\n  nodeLabels:\n    k: 'trail '\n");
}

#[test]
fn s22_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a: b"))), "machine:\n  nodeLabels:\n    k: 'a: b'\n");
}

#[test]
fn s23_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a:b"))), "machine:\n  nodeLabels:\n    k: a:b\n");
}

#[test]
fn s24_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("x:"))), "machine:\n  nodeLabels:\n    k: 'x:'\n");
}

#[test]
fn s25_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a #b"))), "machine:\n  nodeLabels:\n    k: 'a #b'\n");
}

#[test]
fn s26_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a#b"))), "machine:\n  nodeLabels:\n    k: a#b\n");
}

#[test]
fn s27_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("#x"))), "machine:\n  nodeLabels:\n    k: '#x'\n");
}

#[test]
fn s28_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("- x"))), "machine:\n  nodeLabels:\n    k: '- x'\n");
}

#[test]
fn s29_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("-x"))), "machine:\n  nodeLabels:\n    k: -x\n");
}

#[test]
fn s30_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("?x"))), "machine:\n  nodeLabels:\n    k: ?x\n");
}

#[test]
fn s31_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string("*.example.com"))),
        "machine:\n  nodeLabels:\n    k: '*.example.com'\n"
    );
}

#[test]
fn s32_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("'q"))), "machine:\n  nodeLabels:\n    k: '''q'\n");
}

#[test]
fn s33_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("it's"))), "machine:\n  nodeLabels:\n    k: it's\n");
}

#[test]
fn s34_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("---a"))), "machine:\n  nodeLabels:\n    k: '---a'\n");
}

#[test]
fn s35_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("1:20"))), "machine:\n  nodeLabels:\n    k: \"1:20\"\n");
}

#[test]
fn s36_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("1:60"))), "machine:\n  nodeLabels:\n    k: 1:60\n");
}

#[test]
fn s37_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("12:30"))), "machine:\n  nodeLabels:\n    k: \"12:30\"\n");
}

#[test]
fn s38_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("2024-01-01"))), "machine:\n  nodeLabels:\n    k: \"2024-01-01\"\n");
}

#[test]
fn s39_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string("2024-01-01T10:00:00Z"))),
        "machine:\n  nodeLabels:\n    k: \"2024-01-01T10:00:00Z\"\n"
    );
}

#[test]
fn s40_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("2024-1-2"))), "machine:\n  nodeLabels:\n    k: \"2024-1-2\"\n");
}

#[test]
fn s41_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("<<"))), "machine:\n  nodeLabels:\n    k: <<\n");
}

#[test]
fn s42_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string("$(POD_IP):10249"))),
        "machine:\n  nodeLabels:\n    k: $(POD_IP):10249\n"
    );
}

#[test]
fn s43_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string("https://a:6443"))),
        "machine:\n  nodeLabels:\n    k: https://a:6443\n"
    );
}

#[test]
fn s44_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\tb"))), "machine:\n  nodeLabels:\n    k: \"a\\tb\"\n");
}

#[test]
fn s45_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("é"))), "machine:\n  nodeLabels:\n    k: é\n");
}

#[test]
fn s46_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{a0}x"))), "machine:\n  nodeLabels:\n    k: \u{a0}x\n");
}

#[test]
fn s47_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{1f600}"))), "machine:\n  nodeLabels:\n    k: \"\\U0001F600\"\n");
}

#[test]
fn s48_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{feff}x"))), "machine:\n  nodeLabels:\n    k: \"\\uFEFF\\x78\"\n");
}

#[test]
fn s49_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{7}"))), "machine:\n  nodeLabels:\n    k: \"\\a\"\n");
}

#[test]
fn s50_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{7f}"))), "machine:\n  nodeLabels:\n    k: \"\\x7F\"\n");
}

#[test]
fn s51_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{85}"))), "machine:\n  nodeLabels:\n    k: \"\\N\"\n");
}

#[test]
fn s52_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\u{2028}"))), "machine:\n  nodeLabels:\n    k: '\u{2028}'\n");
}

#[test]
fn s53_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\nb"))), "machine:\n  nodeLabels:\n    k: |-\n      a\n      b\n");
}

#[test]
fn s54_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\nb\n"))), "machine:\n  nodeLabels:\n    k: |\n      a\n      b\n");
}

#[test]
fn s55_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string("a\nb\n\n"))),
        "machine:\n  nodeLabels:\n    k: |+\n      a\n      b\n\n"
    );
}

#[test]
fn s56_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\n"))), "machine:\n  nodeLabels:\n    k: |2+\n\n");
}

#[test]
fn s57_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("\na"))), "machine:\n  nodeLabels:\n    k: |2-\n\n      a\n");
}

#[test]
fn s58_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string(" a\nb"))),
        "machine:\n  nodeLabels:\n    k: |2-\n       a\n      b\n"
    );
}

#[test]
fn s59_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a \nb"))), "machine:\n  nodeLabels:\n    k: \"a \\nb\"\n");
}

#[test]
fn s60_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\nb "))), "machine:\n  nodeLabels:\n    k: \"a\\nb \"\n");
}

#[test]
fn s61_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\n  \nb"))), "machine:\n  nodeLabels:\n    k: \"a\\n  \\nb\"\n");
}

#[test]
fn s62_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\tb\nc"))), "machine:\n  nodeLabels:\n    k: \"a\\tb\\nc\"\n");
}

#[test]
fn s63_v2() {
    assert_eq!(emit_v2(&labels_v4(Node::go_string("a\r\nb"))), "machine:\n  nodeLabels:\n    k: \"a\\r\\nb\"\n");
}

#[test]
fn s64_v2() {
    assert_eq!(
        emit_v2(&labels_v4(Node::go_string(
            "abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd"
        ))),
        "machine:\n  nodeLabels:\n    k: abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n      abcd abcd abcd abcd abcd\n"
    );
}

#[test]
fn k1_key_v2() {
    assert_eq!(emit_v2(&labels_key("on")), "machine:\n  nodeLabels:\n    \"on\": v\n");
}

#[test]
fn k2_key_v2() {
    assert_eq!(emit_v2(&labels_key("y")), "machine:\n  nodeLabels:\n    \"y\": v\n");
}

#[test]
fn k3_key_v2() {
    assert_eq!(emit_v2(&labels_key("1")), "machine:\n  nodeLabels:\n    \"1\": v\n");
}

#[test]
fn k4_key_v2() {
    assert_eq!(emit_v2(&labels_key("")), "machine:\n  nodeLabels:\n    \"\": v\n");
}

#[test]
fn k5_key_v2() {
    assert_eq!(emit_v2(&labels_key("a b")), "machine:\n  nodeLabels:\n    a b: v\n");
}

#[test]
fn k6_key_v2() {
    assert_eq!(emit_v2(&labels_key("a: b")), "machine:\n  nodeLabels:\n    'a: b': v\n");
}

#[test]
fn k7_key_v2() {
    assert_eq!(emit_v2(&labels_key("#k")), "machine:\n  nodeLabels:\n    '#k': v\n");
}

#[test]
fn k8_key_v2() {
    assert_eq!(emit_v2(&labels_key("<<")), "machine:\n  nodeLabels:\n    <<: v\n");
}

#[test]
fn k9_key_v2() {
    assert_eq!(emit_v2(&labels_key("é")), "machine:\n  nodeLabels:\n    é: v\n");
}

#[test]
fn k10_key_v2() {
    assert_eq!(emit_v2(&labels_key("\u{1f600}")), "machine:\n  nodeLabels:\n    \"\\U0001F600\": v\n");
}

#[test]
fn k11_key_v2() {
    assert_eq!(emit_v2(&labels_key("a\nb")), "machine:\n  nodeLabels:\n    ? |-\n      a\n      b\n    : v\n");
}

#[test]
fn k12_key_v2() {
    assert_eq!(
        emit_v2(&labels_key(
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        )),
        "machine:\n  nodeLabels:\n    ? xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n    : v\n"
    );
}
