//! The lab in Japanese: a whole `lab run` and `lab check` with `LANG=ja_JP.UTF-8` against a
//! simulated cluster, snapshotted (ports, the temporary folder, clock times and durations masked;
//! the bounded waits' timing-dependent progress lines left out), its files the same as an English
//! run's, `--output json` keyed as in English, and `--lang` choosing over the locale.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::lab_cli::{SimUp, json, pretty, read, text};

/// `labctl` with only `LANG` set among the locale variables.
fn labctl_lang(lang: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang)
        .stdin(Stdio::null())
        .output()
        .expect("labctl runs")
}

/// A run's output with what changes from run to run masked, and the waits' progress lines (which
/// appear or not with timing) left out.
fn masked(output: &str, tmp: &Path) -> String {
    let output = output.replace(tmp.to_str().unwrap(), "<tmp>");
    let progress = ["を待っています", "で完了", "waiting for", "done after"];
    output
        .lines()
        .filter(|line| !progress.iter().any(|p| line.contains(p)))
        .map(|line| mask_line(&without_klog_header(line)) + "\n")
        .collect()
}

/// A kubelet log line's klog header (`E1205 00:59:10.704504    1114 `: severity, date, time, pid)
/// as `E<MMDD> <time> <pid> `.
fn without_klog_header(line: &str) -> String {
    let Some(end) = line.find(" run.go:") else { return line.to_string() };
    let Some(start) = line[..end].rfind(": E") else { return line.to_string() };
    format!("{}: E<MMDD> <time> <pid>{}", &line[..start], &line[end..])
}

/// `127.0.0.1:<port>`, `<time>` for `hh:mm:ss`, `<duration>` for `1.5s` / `30s` / `250ms`.
fn mask_line(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let rest: String = chars[i..].iter().collect();
        let boundary = i == 0 || !chars[i - 1].is_alphanumeric();
        if let Some(after) = rest.strip_prefix("127.0.0.1:") {
            let digits = after.chars().take_while(char::is_ascii_digit).count();
            out.push_str("127.0.0.1:<port>");
            i += "127.0.0.1:".len() + digits;
        } else if boundary && is_clock(&chars[i..]) {
            out.push_str("<time>");
            i += 8;
        } else if let Some(len) = boundary.then(|| duration_len(&chars[i..])).flatten() {
            out.push_str("<duration>");
            i += len;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn is_clock(c: &[char]) -> bool {
    c.len() >= 8 && [0, 1, 3, 4, 6, 7].iter().all(|&k| c[k].is_ascii_digit()) && c[2] == ':' && c[5] == ':'
}

/// The length of a duration at the start (`12`, `1.5`, then `s` or `ms`, then no letter).
fn duration_len(c: &[char]) -> Option<usize> {
    let int = c.iter().take_while(|ch| ch.is_ascii_digit()).count();
    if int == 0 {
        return None;
    }
    let mut n = int;
    if c.get(n) == Some(&'.') && c.get(n + 1).is_some_and(char::is_ascii_digit) {
        n += 1 + c[n + 1..].iter().take_while(|ch| ch.is_ascii_digit()).count();
    }
    let unit =
        if c.get(n) == Some(&'m') && c.get(n + 1) == Some(&'s') { 2 } else { usize::from(c.get(n) == Some(&'s')) };
    let end = n + unit;
    (unit > 0 && !c.get(end).is_some_and(|ch| ch.is_ascii_alphanumeric())).then_some(end)
}

/// The files of a run as they must be in every language: all of them byte for byte, except the
/// values each simulated cluster has its own of (its port, start time, log times, certificates).
fn comparable_files(out: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(out).expect("out") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        let body = match name.as_str() {
            "cluster.json" => masked_json(out, &name, &["/api_server"]),
            "patch.json" => masked_json(out, &name, &["/container_started_at"]),
            "kubelet-diag.json" => masked_json(out, &name, &["/error_line"]),
            "report.json" => masked_json(out, &name, &["/apply_log_line"]),
            "kubeconfig" => masked_kubeconfig(&read(out, &name)),
            ".labctl-state.json" => continue,
            _ => read(out, &name),
        };
        files.push((name, body));
    }
    files.sort();
    files
}

fn masked_json(out: &Path, name: &str, pointers: &[&str]) -> String {
    let mut value = json(out, name);
    for pointer in pointers {
        let slot = value.pointer_mut(pointer).unwrap_or_else(|| panic!("{name}: no {pointer}"));
        assert!(slot.as_str().is_some_and(|s| !s.is_empty()), "{name}: {pointer} = {slot}");
        *slot = Value::String("<this cluster's own>".to_string());
    }
    pretty(&value)
}

/// The kubeconfig with its server's port and its base64 certificate and key values masked.
fn masked_kubeconfig(text: &str) -> String {
    text.lines()
        .map(|line| match line.split_once("-data: ") {
            Some((key, _)) => format!("{key}-data: <base64>\n"),
            None => mask_line(line) + "\n",
        })
        .collect()
}

#[test]
fn a_japanese_run_and_check_say_it_in_japanese_and_write_what_english_writes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let out = tmp.path().join("ja");
    let out_s = out.to_str().unwrap();
    let args = ["lab", "run", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"];
    let run = labctl_lang("ja_JP.UTF-8", &args);
    assert!(run.status.success(), "stderr:\n{}", text(&run.stderr));
    insta::assert_snapshot!("ja_run_stdout", masked(&text(&run.stdout), tmp.path()));
    insta::assert_snapshot!("ja_run_stderr", masked(&text(&run.stderr), tmp.path()));
    let check_args = ["lab", "check", "--sim-dir", sim.dir(), "--out", out_s, "--try-timeout", "1s"];
    let check = labctl_lang("ja_JP.UTF-8", &check_args);
    assert!(check.status.success(), "stderr:\n{}", text(&check.stderr));
    insta::assert_snapshot!("ja_check_stdout", masked(&text(&check.stdout), tmp.path()));
    // --output json: the same keys and verdicts in both languages (the reasons are the learner's).
    let verdicts = |lang: &str| {
        let o = labctl_lang(lang, &[&check_args[..], &["--output", "json"]].concat());
        let mut doc: Value = serde_json::from_slice(&o.stdout).expect("json");
        for step in doc["steps"].as_array_mut().expect("steps") {
            assert!(step["reason"].as_str().is_some_and(|r| !r.is_empty()), "{step}");
            step["reason"] = Value::String("<reason>".into());
        }
        doc
    };
    assert_eq!(verdicts("ja_JP.UTF-8"), verdicts("C.UTF-8"));
    // The same lab in English on another simulated cluster writes the same files.
    let sim_en = SimUp::start(&tmp.path().join("sim-en"));
    let out_en = tmp.path().join("en");
    let en = labctl_lang(
        "en_US.UTF-8",
        &["lab", "run", "--sim-dir", sim_en.dir(), "--out", out_en.to_str().unwrap(), "--try-timeout", "1s"],
    );
    assert!(en.status.success(), "stderr:\n{}", text(&en.stderr));
    assert_eq!(comparable_files(&out), comparable_files(&out_en));
}

#[test]
fn lang_chooses_over_the_locale_and_unknown_locales_are_english() {
    let refused = |lang: &str, extra: &[&str]| {
        let o = labctl_lang(lang, &[&["lab", "check", "--sim"][..], extra].concat());
        assert_eq!(o.status.code(), Some(1));
        text(&o.stderr).lines().next().unwrap_or_default().to_string()
    };
    let english = "labctl: `lab check --sim` would check a new simulated cluster, which has none of the lab's changes";
    let japanese = refused("ja_JP.UTF-8", &[]);
    assert_eq!(
        japanese,
        "labctl: `lab check --sim` は新しいシミュレートされたクラスタを検証することになり、そこにはラボの変更が何もありません"
    );
    assert_eq!(refused("ja_JP.UTF-8", &["--lang", "en"]), english);
    assert_eq!(refused("C.UTF-8", &["--lang", "ja"]), japanese);
    assert_eq!(refused("fr_FR.UTF-8", &[]), english);
    assert_eq!(refused("", &[]), english);
    let unknown = labctl_lang("C", &["lab", "check", "--lang", "xx"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(
        text(&unknown.stderr),
        "error: invalid value 'xx' for '--lang <LANG>': unknown language 'xx': labctl speaks en, ja\n\nFor more \
         information, try '--help'.\n"
    );
}

#[test]
fn the_lab_commands_help_is_japanese_under_a_japanese_locale() {
    let help = labctl_lang("ja_JP.UTF-8", &["lab", "run", "--help"]);
    assert!(help.status.success());
    insta::assert_snapshot!("ja_lab_run_help", text(&help.stdout));
    let english = labctl_lang("C.UTF-8", &["lab", "run", "-h"]);
    assert!(text(&english.stdout).starts_with("Perform the steps through the Talos API"), "{}", text(&english.stdout));
}

#[test]
fn masking_keeps_what_does_not_change() {
    assert_eq!(
        mask_line("127.0.0.1:40673 at 10:15:42 UTC, 1.0s/31.0s, 250ms, k8s, v1.13.10, --try-timeout 1s"),
        "127.0.0.1:<port> at <time> UTC, <duration>/<duration>, <duration>, k8s, v1.13.10, --try-timeout <duration>"
    );
}
