//! The document kinds v1.14.0-rc.1 adds (outside `types/k8s`), answered as that release: what
//! its own code printed, recorded with the reference program under `data/v1_14_kinds/`.
//! `merge/<case>/` holds a config, a patch and the merged config (`expected.yaml`) or the
//! error (`expected.err`); `validate/<case>/` holds a config, a mode, and `talosctl
//! validate`'s stderr and exit code (a config that does not load prints its error alone).

use std::path::{Path, PathBuf};

use talos_config::{Config, Mode, Options, PatchSource, Release, merge_sources_for};

const RELEASE: Release = Release::V1_14_0_RC1;

fn data(part: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/v1_14_kinds").join(part)
}

fn read(path: &Path) -> Option<String> {
    std::fs::read(path).ok().map(|b| String::from_utf8(b).unwrap())
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    out.sort();
    out
}

#[test]
fn merges_answer_as_v1_14() {
    let mut failures = Vec::new();
    let all = cases(&data("merge"));
    for case in &all {
        let base = PatchSource::new("base.yaml", read(&case.join("base.yaml")).unwrap());
        let patch = PatchSource::new("patch.yaml", read(&case.join("patch.yaml")).unwrap());
        let got = merge_sources_for(&base, &[patch], RELEASE)
            .map(|b| String::from_utf8(b).unwrap())
            .map_err(|e| format!("{e}\n"));
        let want = match (read(&case.join("expected.yaml")), read(&case.join("expected.err"))) {
            (Some(out), _) => Ok(out),
            (None, Some(err)) => Err(err),
            (None, None) => panic!("{}: nothing recorded", case.display()),
        };
        if got != want {
            failures.push(format!("{}:\n got  {got:?}\n want {want:?}", case.display()));
        }
    }
    assert!(all.len() >= 27, "the recorded cases are missing");
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), all.len(), failures.join("\n\n"));
}

/// `talosctl validate`'s stderr and exit code for a config, as v1.14 prints them.
fn validate(config: &str, mode: Mode) -> (String, i32) {
    let config = match Config::from_bytes_for(config.as_bytes(), RELEASE) {
        Ok(c) => c,
        Err(e) => return (format!("{e}\n"), 1),
    };
    let report = config.validate(mode, Options::default());
    let mut out: String = report.warnings.iter().map(|w| format!("WARNING: {w}\n")).collect();
    if let Some(error) = &report.error {
        out.push_str(&format!("{error}\n"));
    }
    (out, i32::from(report.error.is_some()))
}

#[test]
fn validation_answers_as_v1_14() {
    let mut failures = Vec::new();
    let all = cases(&data("validate"));
    for case in &all {
        let mode: Mode = read(&case.join("mode")).unwrap().trim().parse().unwrap();
        let stderr = read(&case.join("stderr")).unwrap();
        let code: i32 = read(&case.join("rc")).unwrap().trim().parse().unwrap();
        let got = validate(&read(&case.join("config.yaml")).unwrap(), mode);
        if got != (stderr.clone(), code) {
            failures.push(format!("{}:\n got  {got:?}\n want {stderr:?} (exit {code})", case.display()));
        }
    }
    assert!(all.len() >= 70, "the recorded cases are missing");
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), all.len(), failures.join("\n\n"));
}

/// `DiscoveryIdentityConfig.Redact` replaces a non-empty cluster secret, and only it.
#[test]
fn discovery_identity_secret_is_redacted() {
    let config = |secret: &str| {
        format!("apiVersion: v1alpha1\nkind: DiscoveryIdentityConfig\nclusterID: abc\nclusterSecret: {secret}\n")
    };
    let redacted = |text: &str| Config::from_bytes_for(text.as_bytes(), RELEASE).unwrap().encode_redacted();
    assert_eq!(redacted(&config("vlf2HU1NEZL3Ezi9Tk+RZBLJUbjnsHnTzs3wK9JNk6Q=")), config("REDACTED"));
    assert_eq!(redacted(&config("\"\"")), config("\"\""));
}
