//! End-to-end JSON6902 vectors (docs/merge.md §1.2, §3, §11.3, §12 W2/W9/W11). These run through
//! the YAML parser, the yaml.v1.1 resolver and the yaml.v2 emitter.

use crate::common;

use talos_config::testing::{JsonPatch, YamlListError, apply_json6902};

const W1: &str = "version: v1alpha1\nmachine:\n  type: worker\n";
const MULTI: &str = "JSON6902 patches are not supported for multi-document machine configuration";

fn json(p: &str) -> JsonPatch {
    match JsonPatch::from_json(p.as_bytes()) {
        Ok(p) => p,
        Err(e) => panic!("from_json({p:?}): {e}"),
    }
}

fn yaml(p: &str) -> JsonPatch {
    match JsonPatch::from_yaml_list(p.as_bytes()) {
        Ok(p) => p,
        Err(e) => panic!("from_yaml_list({p:?}): {e}"),
    }
}

fn apply(config: &str, patch: &JsonPatch) -> Result<String, String> {
    apply_json6902(config.as_bytes(), patch)
}

#[test]
fn upstream_test_json6902() {
    let p = json(r#"[{"op": "add", "path": "/machine/kubelet/extraArgs", "value": {"cloud-provider": "external"}}]"#);
    assert_eq!(
        apply("machine:\n  kubelet: {}\n", &p).as_deref().map_err(String::as_str),
        Ok("machine:\n  kubelet:\n    extraArgs:\n      cloud-provider: external\n")
    );
}

#[test]
fn w2_json_only() {
    let p = json(r#"[{"op":"add","path":"/machine/certSANs","value":["a.example.com"]}]"#);
    assert_eq!(
        apply(W1, &p).as_deref().map_err(String::as_str),
        Ok("machine:\n  certSANs:\n  - a.example.com\n  type: worker\nversion: v1alpha1\n")
    );
}

#[test]
fn w9_empty_patches_reencode_single_documents() {
    let want = "machine:\n  type: worker\nversion: v1alpha1\n";
    for text in ["", " ", "# only a comment\n", "~", "null"] {
        let p = yaml(text);
        assert!(p.is_empty(), "{text:?}");
        assert_eq!(apply(W1, &p).as_deref().map_err(String::as_str), Ok(want), "{text:?}");
    }
    let p = json("[]");
    assert!(p.is_empty());
    assert_eq!(apply(W1, &p).as_deref().map_err(String::as_str), Ok(want));
    assert_eq!(yaml("[]").len(), 0);
}

#[test]
fn w9_multi_document_refusal() {
    let empty = JsonPatch::default();
    for config in [
        "version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nhostname: x\n",
        "",
        "# comment only\n",
        "machine:\n  type: worker\n---\n",
    ] {
        assert_eq!(apply(config, &empty).as_deref().map_err(String::as_str), Err(MULTI), "{config:?}");
    }
    // A trailing document end marker does not add a document.
    assert_eq!(
        apply("machine:\n  type: worker\n...\n", &empty).as_deref().map_err(String::as_str),
        Ok("machine:\n  type: worker\n")
    );
}

#[test]
fn w11_yaml11_rereading_changes_words() {
    let base = "version: v1alpha1\nmachine:\n    type: worker\n    kubelet:\n        extraArgs:\n            a: on\n";
    let p = json(r#"[{"op":"replace","path":"/machine/type","value":"worker"}]"#);
    assert_eq!(
        apply(base, &p).as_deref().map_err(String::as_str),
        Ok("machine:\n  kubelet:\n    extraArgs:\n      a: true\n  type: worker\nversion: v1alpha1\n")
    );
    assert_eq!(
        apply("machine:\n  files:\n    - permissions: 0o644\n", &JsonPatch::default())
            .as_deref()
            .map_err(String::as_str),
        Ok("machine:\n  files:\n  - permissions: 420\n")
    );
}

#[test]
fn load_rows_of_section_1_2() {
    assert_eq!(
        JsonPatch::from_json(b"[1, 2]").err().as_deref(),
        Some("json: cannot unmarshal number into Go value of type jsonpatch.Operation")
    );
    // `[1, 2]` is not a list of mappings for go-yaml either.
    assert!(matches!(
        JsonPatch::decode_yaml_list(b"[1, 2]", talos_yaml::Dialect::V4Rc4),
        Err(YamlListError::Decode(_))
    ));

    let p = yaml("- foo: bar\n");
    assert_eq!(p.op_kinds(), vec!["unknown"]);
    assert_eq!(
        apply(W1, &p).as_deref().map_err(String::as_str),
        Err("failure applying rfc6902 patches to talos machine config: Unexpected kind: unknown")
    );

    let crash = json(r#"[{"op":"crash","path":"/x"}]"#);
    assert_eq!(
        apply(W1, &crash).as_deref().map_err(String::as_str),
        Err("failure applying rfc6902 patches to talos machine config: Unexpected kind: crash")
    );

    let text = r#"[{"op": "add", "path": "/x", "value": }]"#;
    assert_eq!(
        JsonPatch::from_json(text.as_bytes()).err().as_deref(),
        Some("invalid character '}' looking for beginning of value")
    );
    let p = yaml(text);
    assert_eq!(p.ops_json(), vec![r#"{"op":"add","path":"/x","value":null}"#]);
    assert_eq!(
        apply(W1, &p).as_deref().map_err(String::as_str),
        Ok("machine:\n  type: worker\nversion: v1alpha1\nx: null\n")
    );

    // A list of scalars is not a JSON patch.
    assert!(matches!(
        JsonPatch::decode_yaml_list(b"- a\n- b\n", talos_yaml::Dialect::V4Rc4),
        Err(YamlListError::Decode(_))
    ));
    // A mapping is not a JSON patch.
    assert!(matches!(
        JsonPatch::decode_yaml_list(b"machine: {}\n", talos_yaml::Dialect::V4Rc4),
        Err(YamlListError::Decode(_))
    ));
}

#[test]
fn yaml_list_values_use_go_yaml_v4_rules() {
    let p =
        yaml("- op: add\n  path: /a\n  value: [yes, on, 0x10, 017, 0o17, 1_000, 1.0, ~, 2024-01-01, \"1.0\", 1e3]\n");
    assert_eq!(
        p.ops_json(),
        vec![r#"{"op":"add","path":"/a","value":["yes","on",16,15,15,1000,1,null,"2024-01-01T00:00:00Z","1.0",1000]}"#]
    );
    assert_eq!(
        JsonPatch::decode_yaml_list(b"- op: add\n  path: /a\n  value: .nan\n", talos_yaml::Dialect::V4Rc4),
        Err(YamlListError::Marshal("json: unsupported value: NaN".into()))
    );
    assert_eq!(
        JsonPatch::decode_yaml_list(b"- op: add\n  path: /a\n  value: {1: x}\n", talos_yaml::Dialect::V4Rc4),
        Err(YamlListError::Marshal("json: unsupported type: map[interface {}]interface {}".into()))
    );
    // Only the first document counts.
    assert_eq!(yaml("- op: add\n  path: /a\n---\n- op: remove\n  path: /b\n").len(), 1);
}

#[test]
fn output_number_formatting() {
    let p = json(
        r#"[{"op":"add","path":"/n","value":[-0, 1.0, 1.10, 3.0e2, 1000000.0, 0.000001, 1.5e-7, -0.0, 12345678901234567890, 100000000000000000000, 1E400]}]"#,
    );
    assert_eq!(
        apply("a: b\n", &p).as_deref().map_err(String::as_str),
        Ok(
            "a: b\n\"n\":\n- 0\n- 1\n- 1.1\n- 300\n- 1e+06\n- 1e-06\n- 1.5e-07\n- -0\n- 12345678901234567890\n- 1e+20\n- 1E400\n"
        )
    );
}

#[test]
fn json_to_yaml_text_limits() {
    let p = json(r#"[{"op":"add","path":"/e","value":"\ud83d\ude00"}]"#);
    assert_eq!(
        apply("a: b\n", &p).as_deref().map_err(String::as_str),
        Err(
            "failure converting talos machine config from json to yaml: yaml: found invalid Unicode character escape code"
        )
    );
    let p = json("[{\"op\":\"add\",\"path\":\"/e\",\"value\":\"a\u{7f}\"}]");
    assert_eq!(
        apply("a: b\n", &p).as_deref().map_err(String::as_str),
        Err("failure converting talos machine config from json to yaml: yaml: control characters are not allowed")
    );
    let p = json(r#"[{"op":"add","path":"/e","value":"\u007f"}]"#);
    assert_eq!(apply("a: b\n", &p).as_deref().map_err(String::as_str), Ok("a: b\ne: \"\\x7F\"\n"));
    let p = json("[{\"op\":\"add\",\"path\":\"/e\",\"value\":\"😀\"}]");
    assert_eq!(apply("a: b\n", &p).as_deref().map_err(String::as_str), Ok("a: b\ne: \"\\U0001F600\"\n"));
}

#[test]
fn config_side_errors() {
    assert_eq!(
        apply("a: .inf\n", &JsonPatch::default()).as_deref().map_err(String::as_str),
        Err("failure converting talos machine config to json: json: unsupported value: +Inf")
    );
    assert_eq!(
        apply("foo\n", &JsonPatch::default()).as_deref().map_err(String::as_str),
        Err(
            "failure applying rfc6902 patches to talos machine config: json: cannot unmarshal string into Go value of type jsonpatch.partialDoc"
        )
    );
    assert!(
        apply("a: [\n", &JsonPatch::default())
            .err()
            .is_some_and(|e| e.starts_with("failure decoding talos machine config: yaml: "))
    );
}

#[test]
fn spec_error_texts_end_to_end() {
    let config = "machine:\n  certSANs: [a, b]\ncluster:\n  apiServer: {}\n";
    let cases = [
        (
            r#"[{"op":"remove","path":"/cluster/apiServer/admissionControl/0"}]"#,
            "failure applying rfc6902 patches to talos machine config: remove operation does not apply: doc is missing path: \"/cluster/apiServer/admissionControl/0\": missing value",
        ),
        (
            r#"[{"op":"replace","path":"/machine/certSANs/2","value":"c"}]"#,
            "failure applying rfc6902 patches to talos machine config: replace operation does not apply: doc is missing key: /machine/certSANs/2: missing value",
        ),
        (
            r#"[{"op":"add","path":"/machine/certSANs/x","value":"c"}]"#,
            "failure applying rfc6902 patches to talos machine config: error in add for path: '/machine/certSANs/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
        ),
        (
            r#"[{"op":"move","from":"/machine/x","path":"/machine/y"}]"#,
            "failure applying rfc6902 patches to talos machine config: error in move for path: 'x': Unable to remove nonexistent key: x: missing value",
        ),
    ];
    for (patch, want) in cases {
        assert_eq!(apply(config, &json(patch)).as_deref().map_err(String::as_str), Err(want), "{patch}");
    }
    // Negative add indices and copy of a missing key.
    let p = json(
        r#"[{"op":"add","path":"/machine/certSANs/-1","value":"c"},{"op":"add","path":"/machine/certSANs/-4","value":"z"},{"op":"copy","from":"/machine/none","path":"/machine/n"}]"#,
    );
    assert_eq!(
        apply(config, &p).as_deref().map_err(String::as_str),
        Ok("cluster:\n  apiServer: {}\nmachine:\n  certSANs:\n  - z\n  - a\n  - b\n  - c\n  \"n\": null\n")
    );
}

#[test]
fn peer_apply_jsonpatch1_and_2() {
    let Some(dir) = common::peer_dir() else { return };
    let read = |p: &str| match std::fs::read(dir.join("configpatcher/testdata").join(p)) {
        Ok(b) => b,
        Err(e) => panic!("{p}: {e}"),
    };
    let mut p = match JsonPatch::from_yaml_list(&read("apply/jsonpatch1.yaml")) {
        Ok(p) => p,
        Err(e) => panic!("jsonpatch1: {e}"),
    };
    let p2 = match JsonPatch::from_yaml_list(&read("apply/jsonpatch2.yaml")) {
        Ok(p) => p,
        Err(e) => panic!("jsonpatch2: {e}"),
    };
    // Neither file is a JSON array: `- op: add` reads as a number (`-`) cut by a space.
    for file in ["apply/jsonpatch1.yaml", "apply/jsonpatch2.yaml"] {
        assert_eq!(
            JsonPatch::from_json(&read(file)).err().as_deref(),
            Some("invalid character ' ' in numeric literal"),
            "{file}"
        );
    }
    p.append(p2);
    assert_eq!(
        p.ops_json(),
        vec![
            r#"{"op":"add","path":"/machine/network/interfaces/0/addresses","value":["10.1.2.3/24"]}"#,
            r#"{"op":"replace","path":"/machine/network/hostname","value":"foo"}"#,
        ]
    );
    let config = String::from_utf8_lossy(&read("apply/config.yaml")).into_owned();
    assert_eq!(
        apply(&config, &p).as_deref().map_err(String::as_str),
        Ok(concat!(
            "cluster:\n  proxy:\n    extraArgs:\n      foo: bar\n      metrics-bind-address: $(POD_IP):10249\n",
            "machine:\n  network:\n    hostname: foo\n    interfaces:\n    - addresses:\n      - 10.1.2.3/24\n",
            "      dhcp: true\n      interface: eth0\nversion: v1alpha1\n"
        ))
    );
    // The load_test.go files.
    let pj = match JsonPatch::from_json(&read("patch.json")) {
        Ok(p) => p,
        Err(e) => panic!("patch.json: {e}"),
    };
    assert_eq!(pj.op_kinds(), vec!["add"]);
    assert_eq!(pj.paths(), vec![Some("/machine/certSANs".to_string())]);
    let py = match JsonPatch::from_yaml_list(&read("patch.yaml")) {
        Ok(p) => p,
        Err(e) => panic!("patch.yaml: {e}"),
    };
    assert_eq!(py.ops_json(), vec![r#"{"op":"add","path":"/some/path","value":["a","b","c"]}"#]);
    // multidoc/config.yaml has three documents.
    let multi = String::from_utf8_lossy(&read("multidoc/config.yaml")).into_owned();
    assert_eq!(apply(&multi, &p).as_deref().map_err(String::as_str), Err(MULTI));
}
