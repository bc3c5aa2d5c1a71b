//! How findings are printed: for a person (`text`), or for CI (`json`, a versioned document;
//! `sarif`, SARIF 2.1.0 for code-scanning UIs; `github`, GitHub Actions workflow commands).
//! `labctl lint`, `labctl validate --output` and `labctl upgrade` share it.

use clap::ValueEnum;
use serde_json::{Value, json};
use talos_config::lint::{Rule, rules};
use talos_config::{Checked, Diagnostic, Severity, Site};

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One finding per line: `file:line:column: severity[rule]: message`, then its path and fix.
    Text,
    /// The versioned JSON document of docs/lint.md.
    Json,
    /// SARIF 2.1.0, for code-scanning UIs.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::message`).
    Github,
}

/// The version of the `--output json` document; raised on any incompatible change.
const JSON_VERSION: u64 = 1;

/// Whether the result should fail a CI job: any error, or with `strict` any warning.
pub fn fails(checked: &Checked, strict: bool) -> bool {
    checked.has_errors() || (strict && checked.count(Severity::Warning) > 0)
}

/// The report in `format`. `anchor` is the file (the base config) that SARIF and GitHub results
/// without a file of their own (an inline patch, standard input) point at, line 1, since
/// code-scanning uploads refuse results without a location.
pub fn render(checked: &Checked, format: Format, anchor: &str) -> String {
    render_findings(checked.diagnostics(), format, anchor, &lint_rules())
}

/// Findings in `format`; `rules` are the rules SARIF describes (every rule a finding can carry).
pub fn render_findings(report: &[Diagnostic], format: Format, anchor: &str, rules: &[Value]) -> String {
    match format {
        Format::Text => text(report),
        Format::Json => json_text(&json_report(report)),
        Format::Sarif => json_text(&sarif(report, anchor, rules)),
        Format::Github => github(report, anchor),
    }
}

/// Where a CI format puts a finding: its own file position, else the anchor's first line.
fn file_site(f: &Diagnostic, anchor: &str) -> Option<Site> {
    match f.site().filter(|s| is_file(&s.input)) {
        Some(site) => Some(site.clone()),
        None => is_file(anchor).then(|| Site { input: anchor.into(), line: 1, column: 1 }),
    }
}

/// `1 error, 2 warnings, 0 infos`.
pub fn summary(checked: &Checked) -> String {
    summary_of(checked.diagnostics())
}

/// [`summary`] of a list of findings.
pub fn summary_of(report: &[Diagnostic]) -> String {
    let n = |s: Severity, one: &str, many: &str| {
        let c = count(report, s);
        format!("{c} {}", if c == 1 { one } else { many })
    };
    format!(
        "{}, {}, {}",
        n(Severity::Error, "error", "errors"),
        n(Severity::Warning, "warning", "warnings"),
        n(Severity::Info, "info", "infos")
    )
}

fn json_text(value: &Value) -> String {
    let mut out = serde_json::to_string_pretty(value).unwrap_or_default();
    out.push('\n');
    out
}

fn text(report: &[Diagnostic]) -> String {
    let mut out = String::new();
    for f in report {
        out.push_str(&format!("{f}\n"));
        if let Some(path) = f.field() {
            match f.document().filter(|d| !d.is_legacy()) {
                None => out.push_str(&format!("  field: {path}\n")),
                Some(doc) => out.push_str(&format!("  field: {doc}: {path}\n")),
            }
        }
        if let Some(s) = f.fix() {
            out.push_str(&format!("  fix: {s}\n"));
        }
    }
    out
}

fn count(report: &[Diagnostic], severity: Severity) -> usize {
    report.iter().filter(|d| d.severity() == severity).count()
}

fn json_report(report: &[Diagnostic]) -> Value {
    let findings: Vec<Value> = report
        .iter()
        .map(|f| {
            json!({
                "rule": f.rule(),
                "severity": f.severity().as_str(),
                "message": f.message(),
                "document": f.document().map(ToString::to_string),
                "path": f.field().map(ToString::to_string),
                "location": f.site().map(|s| json!({"file": &*s.input, "line": s.line, "column": s.column})),
                "suggestion": f.fix(),
            })
        })
        .collect();
    json!({
        "version": JSON_VERSION,
        "tool": {"name": "labctl", "version": env!("CARGO_PKG_VERSION")},
        "summary": {
            "errors": count(report, Severity::Error),
            "warnings": count(report, Severity::Warning),
            "infos": count(report, Severity::Info),
        },
        "findings": findings,
    })
}

/// SARIF's `level` for a severity.
fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// SARIF's description of rules.
pub fn sarif_rules(rules: &[Rule]) -> Vec<Value> {
    rules
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.why},
                "help": {"text": format!("{}\n\nExample:\n{}", r.fix, r.example)},
                "defaultConfiguration": {"level": sarif_level(r.severity)},
            })
        })
        .collect()
}

/// Every rule a lint finding can carry, in [`rules`] order, then `talos-merge`.
fn lint_rules() -> Vec<Value> {
    let mut rules = sarif_rules(rules());
    rules.push(json!({
        "id": "talos-merge",
        "shortDescription": {"text": "An input that does not load, or a patch that does not apply (`talosctl machineconfig patch` or `talosctl validate` fails)."},
        "fullDescription": {"text": "The config could not be built, so nothing else was checked."},
        "help": {"text": "Fix the input as the message says."},
        "defaultConfiguration": {"level": "error"},
    }));
    rules
}

fn sarif(report: &[Diagnostic], anchor: &str, rules: &[Value]) -> Value {
    let results: Vec<Value> = report
        .iter()
        .map(|f| {
            let index = rules.iter().position(|r| r["id"] == f.rule()).unwrap_or(0);
            let mut location = serde_json::Map::new();
            if let Some(site) = file_site(f, anchor) {
                location.insert(
                    "physicalLocation".into(),
                    json!({
                        "artifactLocation": {"uri": uri(&site.input)},
                        "region": {"startLine": site.line, "startColumn": site.column},
                    }),
                );
            }
            if let Some(path) = f.field() {
                let name = match f.document().filter(|d| !d.is_legacy()) {
                    None => path.to_string(),
                    Some(doc) => format!("{doc}:{path}"),
                };
                location.insert("logicalLocations".into(), json!([{"fullyQualifiedName": name, "kind": "member"}]));
            }
            let mut message = where_not_a_file(f);
            message.push_str(f.message());
            if let Some(s) = f.fix() {
                message.push_str(&format!("\nFix: {s}"));
            }
            let mut result = json!({
                "ruleId": f.rule(),
                "ruleIndex": index,
                "level": sarif_level(f.severity()),
                "message": {"text": message},
            });
            if !location.is_empty() {
                result["locations"] = json!([Value::Object(location)]);
            }
            result
        })
        .collect();
    json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "columnKind": "unicodeCodePoints",
            "tool": {"driver": {
                "name": "labctl",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://www.talos.dev/",
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

/// A relative URI reference for a file name: `/` kept, everything outside RFC 3986's unreserved
/// set percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=T::message`.
fn github(report: &[Diagnostic], anchor: &str) -> String {
    let mut out = String::new();
    for f in report {
        let command = match f.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some(site) = file_site(f, anchor) {
            props.push(format!("file={}", escape_property(&site.input)));
            props.push(format!("line={}", site.line));
            props.push(format!("col={}", site.column));
        }
        props.push(format!("title={}", escape_property(f.rule())));
        let mut message = where_not_a_file(f);
        message.push_str(f.message());
        if let Some(path) = f.field() {
            message.push_str(&format!(" (field {path})"));
        }
        if let Some(s) = f.fix() {
            message.push_str(&format!("\nFix: {s}"));
        }
        out.push_str(&format!("::{command} {}::{}\n", props.join(","), escape_data(&message)));
    }
    out
}

/// The escaping GitHub's runner undoes in a command's message.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// The escaping GitHub's runner undoes in a command's properties.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `inline patch #1:4:7: ` when the finding's input is not a file (its position then goes in
/// the message, the location being the anchor's).
fn where_not_a_file(f: &Diagnostic) -> String {
    f.site().filter(|s| !is_file(&s.input)).map(|s| format!("{s}: ")).unwrap_or_default()
}

/// Whether an input name is a file a UI can open (not an inline `-p` patch or standard input).
fn is_file(input: &str) -> bool {
    !input.starts_with("inline patch #") && input != "<stdin>"
}
