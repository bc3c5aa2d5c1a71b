//! The deepest input the parser accepts (go-yaml's 10,000 levels) is decoded, merged, encoded,
//! validated and dropped on a thread with a 256 KiB stack: a library caller needs no special
//! thread (README "Limits").

use talos_config::{Config, Mode, Options, PatchSource, apply_patches, load_patches};

/// go-yaml's nesting limit (flow levels and block indents).
const MAX_DEPTH: usize = 10_000;

/// Levels the config itself uses above the value (`cluster`, `apiServer`, `auditPolicy`, `x`).
const CONFIG_LEVELS: usize = 4;

/// Runs `f` on a thread with a 256 KiB stack.
fn on_small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new().stack_size(256 * 1024).spawn_scoped(scope, f).unwrap().join().unwrap()
    })
}

fn flow_map(depth: usize) -> String {
    format!("{}1{}", "{a: ".repeat(depth), "}".repeat(depth))
}

fn flow_seq(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}

/// `- - - 1` on one line (compact block sequences), starting at `indent`.
fn block_seq(depth: usize, indent: usize) -> String {
    format!("{}{}1\n", " ".repeat(indent), "- ".repeat(depth))
}

/// `a:` nested `depth` times, one more space per level, starting at `indent`.
fn block_map(depth: usize, indent: usize) -> String {
    let mut out = String::new();
    for level in 0..depth {
        out.push_str(&" ".repeat(indent + level));
        out.push_str(if level + 1 == depth { "a: 1\n" } else { "a:\n" });
    }
    out
}

/// A worker config whose audit policy (free-form) holds `value_block` under `x`.
fn config_with(value_block: &str) -> String {
    format!(
        "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    auditPolicy:\n      x:\n{value_block}"
    )
}

fn flow(value: &str) -> String {
    format!("        {value}\n")
}

/// The four shapes at `depth`, as blocks under `x:`.
fn deep_values(depth: usize) -> Vec<(&'static str, String)> {
    vec![
        ("flow mapping", flow(&flow_map(depth))),
        ("flow sequence", flow(&flow_seq(depth))),
        ("block sequence", block_seq(depth, 8)),
        ("block mapping", block_map(depth, 8)),
    ]
}

#[test]
fn deepest_configs_load_validate_encode_and_drop_on_a_small_stack() {
    // Flow levels count apart from block indents: a flow value may use all 10,000.
    let mut cases = vec![("flow mapping", flow(&flow_map(MAX_DEPTH))), ("flow sequence", flow(&flow_seq(MAX_DEPTH)))];
    cases.extend(deep_values(MAX_DEPTH - CONFIG_LEVELS).into_iter().skip(2));
    // The deep value changes nothing in validation: the same findings as with a scalar there.
    let shallow = Config::from_bytes(config_with(&flow("1")).as_bytes()).unwrap();
    let expected = shallow.validate(Mode::Container, Options::default()).error.map(|e| e.to_string());
    assert!(expected.is_some());
    for (shape, value) in cases {
        let text = config_with(&value);
        on_small_stack(|| {
            let config = Config::from_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{shape}: {e}"));
            let report = config.validate(Mode::Container, Options::default());
            assert_eq!(report.error.map(|e| e.to_string()), expected, "{shape}");
            let encoded = config.encode();
            assert!(encoded.contains("\n        auditPolicy:\n            x:\n"), "{shape}");
            drop(config);
        });
    }
}

#[test]
fn deepest_configs_round_trip_on_a_small_stack() {
    // The encoder writes block style, where the config's own levels count too.
    for (shape, value) in deep_values(MAX_DEPTH - CONFIG_LEVELS) {
        let text = config_with(&value);
        on_small_stack(|| {
            let encoded = Config::from_bytes(text.as_bytes()).unwrap().encode();
            let again = Config::from_bytes(encoded.as_bytes()).unwrap_or_else(|e| panic!("{shape}: {e}"));
            assert!(again.encode() == encoded, "{shape}");
        });
    }
}

#[test]
fn deepest_patches_merge_on_a_small_stack() {
    // An admission plugin's configuration merges key by key (the audit policy is replaced):
    // `cluster`, `apiServer`, `admissionControl`, the item, `configuration`, `x` are six levels.
    let depth = MAX_DEPTH - 6;
    let config_with = |value_block: &str| {
        format!(
            "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    admissionControl:\n      - name: deep\n        configuration:\n          x:\n{value_block}"
        )
    };
    let flow = |value: &str| format!("            {value}\n");
    // Merging a value into one of the same shape walks both maps to the bottom (the patch adds
    // a key at the deepest level); lists are appended.
    let cases = [
        ("flow mapping", flow(&flow_map(depth)), flow(&flow_map(depth).replacen("{a: 1}", "{b: 2}", 1))),
        ("block mapping", block_map(depth, 12), block_map(depth, 12).replacen("a: 1\n", "b: 2\n", 1)),
        ("flow sequence", flow(&flow_seq(depth)), flow(&flow_seq(depth).replacen('1', "2", 1))),
        ("block sequence", block_seq(depth, 12), block_seq(depth, 12).replacen('1', "2", 1)),
    ];
    for (shape, value, patch_value) in cases {
        let base = config_with(&value);
        let patch = config_with(&patch_value).replacen("version: v1alpha1\nmachine:\n  type: worker\n", "", 1);
        let merged = match shape {
            "flow mapping" => flow(&flow_map(depth).replacen("{a: 1}", "{a: 1, b: 2}", 1)),
            "block mapping" => {
                let mut m = block_map(depth, 12);
                m.push_str(&format!("{}b: 2\n", " ".repeat(12 + depth - 1)));
                m
            }
            "flow sequence" => {
                let inner = flow_seq(depth - 1);
                flow(&format!("[{inner}, {}]", inner.replacen('1', "2", 1)))
            }
            _ => format!("{value}{patch_value}"),
        };
        let expected = config_with(&merged);
        on_small_stack(|| {
            let patches =
                load_patches([PatchSource::new("deep.yaml", patch)]).unwrap_or_else(|e| panic!("{shape}: {e}"));
            let out = apply_patches(base.as_bytes(), &patches).unwrap_or_else(|e| panic!("{shape}: {e}"));
            let expected = Config::from_bytes(expected.as_bytes()).unwrap().encode();
            let out = String::from_utf8(out).unwrap();
            let at =
                out.bytes().zip(expected.bytes()).position(|(a, b)| a != b).unwrap_or(out.len().min(expected.len()));
            assert!(
                out == expected,
                "{shape}: differs at {at}: {:?} / {:?}",
                &out[at.saturating_sub(50)..(at + 50).min(out.len())],
                &expected[at.saturating_sub(50)..(at + 50).min(expected.len())]
            );
        });
    }
}

#[test]
fn deepest_json6902_patch_applies_on_a_small_stack() {
    let base = config_with(&flow(&flow_seq(MAX_DEPTH)));
    // Go's JSON decoder allows 10,000 levels: the patch's list and operation take two.
    let deep_json = format!("{}1{}", "[".repeat(MAX_DEPTH - 2), "]".repeat(MAX_DEPTH - 2));
    let patch = format!(
        "[{{\"op\": \"add\", \"path\": \"/machine/nodeLabels\", \"value\": {{\"a\": \"b\"}}}}, {{\"op\": \"add\", \"path\": \"/cluster/y\", \"value\": {deep_json}}}]"
    );
    on_small_stack(|| {
        let patches = load_patches([PatchSource::new("deep.json", patch)]).unwrap();
        let out = String::from_utf8(apply_patches(base.as_bytes(), &patches).unwrap()).unwrap();
        assert!(out.starts_with("cluster:\n  apiServer:\n    auditPolicy:\n      x:\n      - - - - "));
        assert!(out.ends_with("machine:\n  nodeLabels:\n    a: b\n  type: worker\nversion: v1alpha1\n"));
    });
}

#[test]
fn deep_delete_statement_on_a_small_stack() {
    let depth = MAX_DEPTH - 1;
    let base = config_with(&flow(&flow_map(depth)));
    let delete = format!("{}{{$patch: delete}}{}", "{a: ".repeat(depth - 1), "}".repeat(depth - 1));
    let patch = format!("cluster:\n  apiServer:\n    auditPolicy:\n      x: {delete}\n");
    let expected = config_with(&flow(&format!("{}{{}}{}", "{a: ".repeat(depth - 2), "}".repeat(depth - 2))));
    on_small_stack(|| {
        let patches = load_patches([PatchSource::new("delete.yaml", patch)]).unwrap();
        let out = apply_patches(base.as_bytes(), &patches).unwrap();
        assert!(String::from_utf8(out).unwrap() == Config::from_bytes(expected.as_bytes()).unwrap().encode());
    });
}

#[test]
fn deep_values_in_the_wrong_place_fail_with_talos_errors_on_a_small_stack() {
    let unknown = format!("version: v1alpha1\nmachine:\n  type: worker\n  unknownField: {}\n", flow_seq(MAX_DEPTH));
    let wrong_type = format!("version: v1alpha1\nmachine:\n  type: worker\n  token: {}\n", flow_map(MAX_DEPTH));
    on_small_stack(|| {
        let e = Config::from_bytes(unknown.as_bytes()).err().unwrap().to_string();
        let summary = format!(
            "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    unknownField: {}\n",
            flow_seq(MAX_DEPTH)
        );
        assert!(e == summary, "{}", &e[e.len() - 100..]);
        let e = Config::from_bytes(wrong_type.as_bytes()).err().unwrap().to_string();
        assert_eq!(
            e,
            "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  line 4: cannot construct !!map into string"
        );
    });
}

#[test]
fn check_with_every_rule_runs_on_a_small_stack() {
    // `check` adds the provenance replay and the lint rules to merge and validation: the deepest
    // patch the merge takes goes through all of them on a 256 KiB stack.
    let depth = MAX_DEPTH - 6;
    let base = "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    admissionControl:\n      - name: deep\n        configuration:\n          x: 1\n";
    let patch = format!(
        "cluster:\n  apiServer:\n    admissionControl:\n      - name: deep\n        configuration:\n          y: {}\n",
        flow_map(depth)
    );
    let options = talos_config::CheckOptions { checks: talos_config::Checks::Lint, ..Default::default() };
    let shallow = talos_config::check(
        &PatchSource::new("base.yaml", base),
        &[PatchSource::new("deep.yaml", patch.replacen(&flow_map(depth), "1", 1))],
        &options,
    )
    .unwrap();
    let rendered = |c: &talos_config::Checked| c.diagnostics().iter().map(ToString::to_string).collect::<Vec<_>>();
    let expected = rendered(&shallow);
    let deep = on_small_stack(|| {
        talos_config::check(&PatchSource::new("base.yaml", base), &[PatchSource::new("deep.yaml", patch)], &options)
            .unwrap()
    });
    assert_eq!(rendered(&deep), expected);
    assert!(deep.merged().is_some_and(|m| m.len() > depth));
}
