//! CEL expressions (disk, volume and link selectors, the OOM handler's trigger and cgroup
//! scoring): validation gives cel-go's own parse and undeclared-name errors, as Talos v1.12.11,
//! v1.13.9 and v1.14.0-rc.1 printed them (`data/cel/README.md`).

use std::path::PathBuf;

use talos_config::{Config, Mode, Options, Release};

struct Case {
    selector: String,
    expr: String,
    issues: Option<String>,
    /// What v1.14.0-rc.1 says where it differs (cel-go v0.31 accepts quoted field names and
    /// expands `optMap`'s target once).
    issues_v1_14: Option<Option<String>>,
}

fn cases() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/cel/cases.json");
    let all: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let text = |case: &serde_json::Value, key: &str| case[key].as_str().map(str::to_string);
    all.iter()
        .map(|case| Case {
            selector: text(case, "selector").unwrap(),
            expr: text(case, "expr").unwrap(),
            issues: text(case, "issues"),
            issues_v1_14: case.get("v1.14.0-rc.1").map(|v| v.as_str().map(str::to_string)),
        })
        .collect()
}

/// The document holding the expression, and the text validation puts before cel-go's error.
fn document(case: &Case) -> (String, &'static str) {
    let expr = serde_json::to_string(&case.expr).unwrap();
    match case.selector.as_str() {
        "disk" => (
            format!(
                "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nprovisioning:\n    diskSelector:\n        \
                 match: {expr}\n    minSize: 1GiB\n"
            ),
            "UserVolumeConfig/data: disk selector is invalid: ",
        ),
        "volume" => (
            format!(
                "apiVersion: v1alpha1\nkind: ExistingVolumeConfig\nname: data\ndiscovery:\n    volumeSelector:\n        match: {expr}\n"
            ),
            "ExistingVolumeConfig/data: volume selector is invalid: ",
        ),
        "link" => (
            format!("apiVersion: v1alpha1\nkind: LinkAliasConfig\nname: net0\nselector:\n    match: {expr}\n"),
            "LinkAliasConfig/net0: link selector is invalid: ",
        ),
        "oom-trigger" => (
            format!("apiVersion: v1alpha1\nkind: OOMConfig\ntriggerExpression: {expr}\n"),
            "OOMConfig: OOM trigger expression is invalid: ",
        ),
        "oom-scoring" => (
            format!("apiVersion: v1alpha1\nkind: OOMConfig\ncgroupRankingExpression: {expr}\n"),
            "OOMConfig: OOM cgroup scoring expression is invalid: ",
        ),
        other => panic!("unknown selector {other}"),
    }
}

#[test]
fn selectors_get_cel_gos_errors() {
    let cases = cases();
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (yaml, prefix) = document(case);
        for &release in Release::ALL {
            let config = Config::from_bytes_for(yaml.as_bytes(), release).unwrap();
            // Metal mode: v1.14's container mode asks for host DNS, which a lone document lacks.
            let report = config.validate(Mode::Metal, Options::default());
            let got = report.error.map(|e| {
                let issues = talos_config::testing::issues(&e);
                assert_eq!(issues.len(), 1, "{e}");
                issues[0].to_string()
            });
            let issues = match (&case.issues_v1_14, release) {
                (Some(v1_14), Release::V1_14_0_RC1) => v1_14,
                _ => &case.issues,
            };
            let want = issues.as_ref().map(|issues| format!("{prefix}{issues}"));
            if got != want {
                failures.push(format!("{:?} as {release}:\n got  {got:?}\n want {want:?}", case.expr));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len() * Release::ALL.len(),
        failures.join("\n")
    );
}
