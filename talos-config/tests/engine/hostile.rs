//! Hostile inputs either work or fail with a clear error, within the bounds README "Limits"
//! documents: alias bombs, huge scalars, many documents, many keys, long keys, bad encodings.

use talos_config::{Config, PatchSource, apply_patches, load_patches};

fn load_error(text: &[u8]) -> String {
    Config::from_bytes(text).err().map(|e| e.to_string()).unwrap_or_default()
}

const WORKER: &str = "version: v1alpha1\nmachine:\n  type: worker\n";

#[test]
fn billion_laughs_stop_at_go_yamls_alias_ratio() {
    let mut text = String::from(
        "version: v1alpha1\ncluster:\n  apiServer:\n    auditPolicy:\n      l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for level in 1..10 {
        text.push_str(&format!("      l{level}: &l{level} [{}]\n", vec![format!("*l{}", level - 1); 10].join(", ")));
    }
    assert_eq!(load_error(text.as_bytes()), "decode error: yaml: document contains excessive aliasing");
}

#[test]
fn aliases_may_not_repeat_more_text_than_the_input_plus_one_mib() {
    let big = "x".repeat(1 << 20);
    let aliases = |n: usize| vec!["*s"; n].join(", ");
    let text = |n: usize| {
        format!(
            "version: v1alpha1\ncluster:\n  apiServer:\n    auditPolicy:\n      s: &s {big}\n      l: [{}]\n",
            aliases(n)
        )
    };
    // Once more than the input's own size plus 1 MiB: still fine.
    assert!(Config::from_bytes(text(2).as_bytes()).is_ok());
    let input = text(3);
    assert_eq!(
        load_error(input.as_bytes()),
        format!(
            "decode error: yaml: document contains excessive aliasing: aliases repeat more than {} bytes of text (the input's size plus 1 MiB); write the text out where it is needed instead",
            input.len() + (1 << 20)
        )
    );
}

#[test]
fn a_100_mib_scalar_merges() {
    let mut base = String::from(
        "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  inlineManifests:\n    - name: big\n      contents: ",
    );
    base.push_str(&"y".repeat(100 << 20));
    base.push('\n');
    let patches = load_patches([PatchSource::new("p", "machine: {nodeLabels: {a: b}}")]).unwrap();
    let out = apply_patches(base.as_bytes(), &patches).unwrap();
    let head = "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        a: b\ncluster:\n    controlPlane: null\n    inlineManifests:\n        - name: big\n          contents: ";
    assert_eq!(out.len(), head.len() + (100 << 20) + 1);
    assert!(out.starts_with(head.as_bytes()) && out.ends_with(b"yyyy\n"));
}

#[test]
fn a_hundred_thousand_documents_merge() {
    let mut base = String::from(WORKER);
    for i in 0..100_000 {
        base.push_str(&format!("---\napiVersion: v1alpha1\nkind: DummyLinkConfig\nname: d{i:06}\n"));
    }
    let patch = "apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: d099999\nhardwareAddr: 2e:3c:4d:5e:6f:70\n";
    let patches = load_patches([PatchSource::new("p", patch)]).unwrap();
    let out = String::from_utf8(apply_patches(base.as_bytes(), &patches).unwrap()).unwrap();
    assert_eq!(out.matches("kind: DummyLinkConfig").count(), 100_000);
    assert!(out.ends_with("name: d099999\nhardwareAddr: 2e:3c:4d:5e:6f:70\n"));
    let duplicate = format!("{base}---\napiVersion: v1alpha1\nkind: DummyLinkConfig\nname: d000000\n");
    assert_eq!(
        load_error(duplicate.as_bytes()),
        "duplicate document v1alpha1/DummyLinkConfig/d000000 is not allowed (line 400005)"
    );
}

#[test]
fn a_million_keys_load() {
    let mut text = String::from("version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n");
    for i in 0..1_000_000 {
        text.push_str(&format!("    k{i:07}: v\n"));
    }
    let config = Config::from_bytes(text.as_bytes()).unwrap();
    let out = config.encode();
    assert_eq!(out.matches(": v\n").count(), 1_000_000);
}

#[test]
fn long_keys_follow_go_yaml() {
    // go-yaml v4 rc.4 puts no length limit on an implicit key (libyaml's 1,024 characters are
    // gone): only its line counts.
    let implicit = format!("{WORKER}  nodeLabels:\n    {}: v\n", "k".repeat(100_000));
    let config = Config::from_bytes(implicit.as_bytes()).unwrap();
    assert!(config.encode().contains(&format!("        ? {}\n        : v\n", "k".repeat(100_000))));
    // An explicit key may be as long as the input; the encoder writes keys over 128 characters
    // in the explicit form, as go-yaml does.
    let explicit = format!("{WORKER}  nodeLabels:\n    ? {}\n    : v\n", "k".repeat(1 << 20));
    let config = Config::from_bytes(explicit.as_bytes()).unwrap();
    assert!(
        config
            .encode()
            .ends_with(&format!("    nodeLabels:\n        ? {}\n        : v\ncluster: null\n", "k".repeat(1 << 20)))
    );
}

#[test]
fn utf16_input_is_read_and_bad_encodings_fail_with_go_yamls_texts() {
    let utf16 = |little: bool| -> Vec<u8> {
        let mut out = if little { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for unit in WORKER.encode_utf16() {
            out.extend(if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
        }
        out
    };
    let expected = Config::from_bytes(WORKER.as_bytes()).unwrap().encode();
    assert_eq!(Config::from_bytes(&utf16(true)).unwrap().encode(), expected);
    assert_eq!(Config::from_bytes(&utf16(false)).unwrap().encode(), expected);
    assert_eq!(
        load_error(b"\xff\xfea\x00:\x00 \x00\x00\xdc"),
        "decode error: yaml: offset 8: unexpected low surrogate area"
    );
    assert_eq!(
        load_error(b"\xff\xfea\x00:\x00 \x00\x00\xd8b\x00"),
        "decode error: yaml: offset 10: expected low surrogate area"
    );
    assert_eq!(load_error(b"\xff\xfea\x00:"), "decode error: yaml: offset 4: incomplete UTF-16 character");
    assert_eq!(load_error(b"\xfe\xff\x00a\xd8\x00"), "decode error: yaml: offset 4: incomplete UTF-16 surrogate pair");
    assert_eq!(
        load_error(b"version: v1alpha1\nmachine:\n  type: wor\xff\xfeker\n"),
        "decode error: yaml: offset 38: invalid leading UTF-8 octet"
    );
}
