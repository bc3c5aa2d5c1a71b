//! Probe tables S1-S64 and K1-K12 of docs/merge.md §9.5 (go-yaml v4 columns). Generated from the
//! spec tables; each test emits a whole document and compares every byte.

use talos_yaml::emit_v4::emit_v4;
use talos_yaml::{Node, ScalarStyle};

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
fn s1_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("on"))), "machine:\n    nodeLabels:\n        k: \"on\"\n");
}

#[test]
fn s1_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("on", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: on\n"
    );
}

#[test]
fn s2_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("yes"))), "machine:\n    nodeLabels:\n        k: \"yes\"\n");
}

#[test]
fn s2_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("yes", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: yes\n"
    );
}

#[test]
fn s3_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("y"))), "machine:\n    nodeLabels:\n        k: \"y\"\n");
}

#[test]
fn s3_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("y", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: y\n"
    );
}

#[test]
fn s4_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("Off"))), "machine:\n    nodeLabels:\n        k: \"Off\"\n");
}

#[test]
fn s4_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("Off", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: Off\n"
    );
}

#[test]
fn s5_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("true"))), "machine:\n    nodeLabels:\n        k: \"true\"\n");
}

#[test]
fn s5_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("true", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"true\"\n"
    );
}

#[test]
fn s6_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("1.0"))), "machine:\n    nodeLabels:\n        k: \"1.0\"\n");
}

#[test]
fn s6_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("1.0", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"1.0\"\n"
    );
}

#[test]
fn s7_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("0x1F"))), "machine:\n    nodeLabels:\n        k: \"0x1F\"\n");
}

#[test]
fn s7_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("0x1F", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"0x1F\"\n"
    );
}

#[test]
fn s8_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("0o17"))), "machine:\n    nodeLabels:\n        k: \"0o17\"\n");
}

#[test]
fn s8_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("0o17", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"0o17\"\n"
    );
}

#[test]
fn s9_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("0755"))), "machine:\n    nodeLabels:\n        k: \"0755\"\n");
}

#[test]
fn s9_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("0755", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"0755\"\n"
    );
}

#[test]
fn s10_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("1_000"))), "machine:\n    nodeLabels:\n        k: \"1_000\"\n");
}

#[test]
fn s10_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("1_000", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"1_000\"\n"
    );
}

#[test]
fn s11_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("10249"))), "machine:\n    nodeLabels:\n        k: \"10249\"\n");
}

#[test]
fn s11_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("10249", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"10249\"\n"
    );
}

#[test]
fn s12_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("-0"))), "machine:\n    nodeLabels:\n        k: \"-0\"\n");
}

#[test]
fn s12_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("-0", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"-0\"\n"
    );
}

#[test]
fn s13_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string(".5"))), "machine:\n    nodeLabels:\n        k: \".5\"\n");
}

#[test]
fn s13_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar(".5", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \".5\"\n"
    );
}

#[test]
fn s14_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string(".inf"))), "machine:\n    nodeLabels:\n        k: \".inf\"\n");
}

#[test]
fn s14_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar(".inf", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \".inf\"\n"
    );
}

#[test]
fn s15_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("1e400"))), "machine:\n    nodeLabels:\n        k: 1e400\n");
}

#[test]
fn s15_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("1e400", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 1e400\n"
    );
}

#[test]
fn s16_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("0x1p3"))), "machine:\n    nodeLabels:\n        k: 0x1p3\n");
}

#[test]
fn s16_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("0x1p3", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 0x1p3\n"
    );
}

#[test]
fn s17_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("~"))), "machine:\n    nodeLabels:\n        k: \"~\"\n");
}

#[test]
fn s17_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("~", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"~\"\n"
    );
}

#[test]
fn s18_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("null"))), "machine:\n    nodeLabels:\n        k: \"null\"\n");
}

#[test]
fn s18_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("null", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"null\"\n"
    );
}

#[test]
fn s19_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string(""))), "machine:\n    nodeLabels:\n        k: \"\"\n");
}

#[test]
fn s19_argvalue() {
    assert_eq!(emit_v4(&args_v4(Node::null())), "machine:\n    kubelet:\n        extraArgs:\n            k: null\n");
}

#[test]
fn s20_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("  lead"))), "machine:\n    nodeLabels:\n        k: '  lead'\n");
}

#[test]
fn s20_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("  lead", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '  lead'\n"
    );
}

#[test]
fn s21_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("trail "))), "machine:\n    nodeLabels:\n        k: 'trail '\n");
}

#[test]
fn s21_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("trail ", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 'trail '\n"
    );
}

#[test]
fn s22_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a: b"))), "machine:\n    nodeLabels:\n        k: 'a: b'\n");
}

#[test]
fn s22_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a: b", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 'a: b'\n"
    );
}

#[test]
fn s23_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a:b"))), "machine:\n    nodeLabels:\n        k: a:b\n");
}

#[test]
fn s23_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a:b", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: a:b\n"
    );
}

#[test]
fn s24_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("x:"))), "machine:\n    nodeLabels:\n        k: 'x:'\n");
}

#[test]
fn s24_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("x:", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 'x:'\n"
    );
}

#[test]
fn s25_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a #b"))), "machine:\n    nodeLabels:\n        k: 'a #b'\n");
}

#[test]
fn s25_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a #b", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 'a #b'\n"
    );
}

#[test]
fn s26_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a#b"))), "machine:\n    nodeLabels:\n        k: a#b\n");
}

#[test]
fn s26_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a#b", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: a#b\n"
    );
}

#[test]
fn s27_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("#x"))), "machine:\n    nodeLabels:\n        k: '#x'\n");
}

#[test]
fn s27_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("#x", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '#x'\n"
    );
}

#[test]
fn s28_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("- x"))), "machine:\n    nodeLabels:\n        k: '- x'\n");
}

#[test]
fn s28_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("- x", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '- x'\n"
    );
}

#[test]
fn s29_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("-x"))), "machine:\n    nodeLabels:\n        k: -x\n");
}

#[test]
fn s29_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("-x", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: -x\n"
    );
}

#[test]
fn s30_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("?x"))), "machine:\n    nodeLabels:\n        k: ?x\n");
}

#[test]
fn s30_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("?x", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: ?x\n"
    );
}

#[test]
fn s31_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("*.example.com"))),
        "machine:\n    nodeLabels:\n        k: '*.example.com'\n"
    );
}

#[test]
fn s31_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("*.example.com", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '*.example.com'\n"
    );
}

#[test]
fn s32_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("'q"))), "machine:\n    nodeLabels:\n        k: '''q'\n");
}

#[test]
fn s32_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("'q", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '''q'\n"
    );
}

#[test]
fn s33_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("it's"))), "machine:\n    nodeLabels:\n        k: it's\n");
}

#[test]
fn s33_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("it's", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: it's\n"
    );
}

#[test]
fn s34_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("---a"))), "machine:\n    nodeLabels:\n        k: '---a'\n");
}

#[test]
fn s34_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("---a", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '---a'\n"
    );
}

#[test]
fn s35_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("1:20"))), "machine:\n    nodeLabels:\n        k: \"1:20\"\n");
}

#[test]
fn s35_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("1:20", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 1:20\n"
    );
}

#[test]
fn s36_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("1:60"))), "machine:\n    nodeLabels:\n        k: 1:60\n");
}

#[test]
fn s36_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("1:60", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 1:60\n"
    );
}

#[test]
fn s37_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("12:30"))), "machine:\n    nodeLabels:\n        k: \"12:30\"\n");
}

#[test]
fn s37_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("12:30", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: 12:30\n"
    );
}

#[test]
fn s38_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("2024-01-01"))),
        "machine:\n    nodeLabels:\n        k: \"2024-01-01\"\n"
    );
}

#[test]
fn s38_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("2024-01-01", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"2024-01-01\"\n"
    );
}

#[test]
fn s39_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("2024-01-01T10:00:00Z"))),
        "machine:\n    nodeLabels:\n        k: \"2024-01-01T10:00:00Z\"\n"
    );
}

#[test]
fn s39_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("2024-01-01T10:00:00Z", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"2024-01-01T10:00:00Z\"\n"
    );
}

#[test]
fn s40_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("2024-1-2"))),
        "machine:\n    nodeLabels:\n        k: \"2024-1-2\"\n"
    );
}

#[test]
fn s40_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("2024-1-2", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"2024-1-2\"\n"
    );
}

#[test]
fn s41_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("<<"))), "machine:\n    nodeLabels:\n        k: \"<<\"\n");
}

#[test]
fn s41_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("<<", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"<<\"\n"
    );
}

#[test]
fn s42_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("$(POD_IP):10249"))),
        "machine:\n    nodeLabels:\n        k: $(POD_IP):10249\n"
    );
}

#[test]
fn s42_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("$(POD_IP):10249", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: $(POD_IP):10249\n"
    );
}

#[test]
fn s43_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("https://a:6443"))),
        "machine:\n    nodeLabels:\n        k: https://a:6443\n"
    );
}

#[test]
fn s43_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("https://a:6443", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: https://a:6443\n"
    );
}

#[test]
fn s44_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a\tb"))), "machine:\n    nodeLabels:\n        k: \"a\\tb\"\n");
}

#[test]
fn s44_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\tb", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"a\\tb\"\n"
    );
}

#[test]
fn s45_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("é"))), "machine:\n    nodeLabels:\n        k: é\n");
}

#[test]
fn s45_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("é", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: é\n"
    );
}

#[test]
fn s46_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("\u{a0}x"))), "machine:\n    nodeLabels:\n        k: \u{a0}x\n");
}

#[test]
fn s46_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{a0}x", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \u{a0}x\n"
    );
}

#[test]
fn s47_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("\u{1f600}"))),
        "machine:\n    nodeLabels:\n        k: \"\\U0001F600\"\n"
    );
}

#[test]
fn s47_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{1f600}", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"\\U0001F600\"\n"
    );
}

#[test]
fn s48_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("\u{feff}x"))),
        "machine:\n    nodeLabels:\n        k: \"\\uFEFF\\x78\"\n"
    );
}

#[test]
fn s48_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{feff}x", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"\\uFEFF\\x78\"\n"
    );
}

#[test]
fn s49_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("\u{7}"))), "machine:\n    nodeLabels:\n        k: \"\\a\"\n");
}

#[test]
fn s49_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{7}", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"\\a\"\n"
    );
}

#[test]
fn s50_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("\u{7f}"))), "machine:\n    nodeLabels:\n        k: \"\\x7F\"\n");
}

#[test]
fn s50_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{7f}", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"\\x7F\"\n"
    );
}

#[test]
fn s51_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("\u{85}"))), "machine:\n    nodeLabels:\n        k: \"\\N\"\n");
}

#[test]
fn s51_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{85}", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"\\N\"\n"
    );
}

#[test]
fn s52_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("\u{2028}"))), "machine:\n    nodeLabels:\n        k: '\u{2028}'\n");
}

#[test]
fn s52_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\u{2028}", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: '\u{2028}'\n"
    );
}

#[test]
fn s53_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("a\nb"))),
        "machine:\n    nodeLabels:\n        k: |-\n            a\n            b\n"
    );
}

#[test]
fn s53_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\nb", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |-\n                a\n                b\n"
    );
}

#[test]
fn s54_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("a\nb\n"))),
        "machine:\n    nodeLabels:\n        k: |\n            a\n            b\n"
    );
}

#[test]
fn s54_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\nb\n", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |\n                a\n                b\n"
    );
}

#[test]
fn s55_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("a\nb\n\n"))),
        "machine:\n    nodeLabels:\n        k: |+\n            a\n            b\n\n"
    );
}

#[test]
fn s55_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\nb\n\n", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |+\n                a\n                b\n\n"
    );
}

#[test]
fn s56_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("\n"))), "machine:\n    nodeLabels:\n        k: \"\\n\"\n");
}

#[test]
fn s56_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\n", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |+\n\n"
    );
}

#[test]
fn s57_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("\na"))),
        "machine:\n    nodeLabels:\n        k: |-\n\n            a\n"
    );
}

#[test]
fn s57_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("\na", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |-\n\n                a\n"
    );
}

#[test]
fn s58_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string(" a\nb"))),
        "machine:\n    nodeLabels:\n        k: |4-\n             a\n            b\n"
    );
}

#[test]
fn s58_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar(" a\nb", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |4-\n                 a\n                b\n"
    );
}

#[test]
fn s59_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a \nb"))), "machine:\n    nodeLabels:\n        k: \"a \\nb\"\n");
}

#[test]
fn s59_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a \nb", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"a \\nb\"\n"
    );
}

#[test]
fn s60_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a\nb "))), "machine:\n    nodeLabels:\n        k: \"a\\nb \"\n");
}

#[test]
fn s60_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\nb ", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"a\\nb \"\n"
    );
}

#[test]
fn s61_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("a\n  \nb"))),
        "machine:\n    nodeLabels:\n        k: \"a\\n  \\nb\"\n"
    );
}

#[test]
fn s61_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\n  \nb", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"a\\n  \\nb\"\n"
    );
}

#[test]
fn s62_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string("a\tb\nc"))),
        "machine:\n    nodeLabels:\n        k: |-\n            a\tb\n            c\n"
    );
}

#[test]
fn s62_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\tb\nc", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: |-\n                a\tb\n                c\n"
    );
}

#[test]
fn s63_string() {
    assert_eq!(emit_v4(&labels_v4(Node::go_string("a\r\nb"))), "machine:\n    nodeLabels:\n        k: \"a\\r\\nb\"\n");
}

#[test]
fn s63_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar("a\r\nb", ScalarStyle::GoNode))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: \"a\\r\\nb\"\n"
    );
}

#[test]
fn s64_string() {
    assert_eq!(
        emit_v4(&labels_v4(Node::go_string(
            "abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd"
        ))),
        "machine:\n    nodeLabels:\n        k: abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n"
    );
}

#[test]
fn s64_argvalue() {
    assert_eq!(
        emit_v4(&args_v4(Node::scalar(
            "abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd",
            ScalarStyle::GoNode
        ))),
        "machine:\n    kubelet:\n        extraArgs:\n            k: abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n"
    );
}

#[test]
fn k1_key() {
    assert_eq!(emit_v4(&labels_key("on")), "machine:\n    nodeLabels:\n        \"on\": v\n");
}

#[test]
fn k2_key() {
    assert_eq!(emit_v4(&labels_key("y")), "machine:\n    nodeLabels:\n        \"y\": v\n");
}

#[test]
fn k3_key() {
    assert_eq!(emit_v4(&labels_key("1")), "machine:\n    nodeLabels:\n        \"1\": v\n");
}

#[test]
fn k4_key() {
    assert_eq!(emit_v4(&labels_key("")), "machine:\n    nodeLabels:\n        \"\": v\n");
}

#[test]
fn k5_key() {
    assert_eq!(emit_v4(&labels_key("a b")), "machine:\n    nodeLabels:\n        a b: v\n");
}

#[test]
fn k6_key() {
    assert_eq!(emit_v4(&labels_key("a: b")), "machine:\n    nodeLabels:\n        'a: b': v\n");
}

#[test]
fn k7_key() {
    assert_eq!(emit_v4(&labels_key("#k")), "machine:\n    nodeLabels:\n        '#k': v\n");
}

#[test]
fn k8_key() {
    assert_eq!(emit_v4(&labels_key("<<")), "machine:\n    nodeLabels:\n        \"<<\": v\n");
}

#[test]
fn k9_key() {
    assert_eq!(emit_v4(&labels_key("é")), "machine:\n    nodeLabels:\n        é: v\n");
}

#[test]
fn k10_key() {
    assert_eq!(emit_v4(&labels_key("\u{1f600}")), "machine:\n    nodeLabels:\n        \"\\U0001F600\": v\n");
}

#[test]
fn k11_key() {
    assert_eq!(
        emit_v4(&labels_key("a\nb")),
        "machine:\n    nodeLabels:\n        ? |-\n            a\n            b\n        : v\n"
    );
}

#[test]
fn k12_key() {
    assert_eq!(
        emit_v4(&labels_key(
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        )),
        "machine:\n    nodeLabels:\n        ? xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n        : v\n"
    );
}
