//! `labctl diff A B` (and `labctl merge --diff`): two configs compared document by document,
//! as Talos's unified diff, with the secrets Talos knows redacted and the removals listed
//! (`talos_config::diff::compare`); with `--as-patch`, the patch that turns A into B. Nothing is
//! written.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use talos_config::Config;
use talos_config::diff::{ChangeKind, ConfigDiff, compare, patch_between};

use crate::CliError;

/// Arguments of `labctl diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The first (old) machine configuration.
    #[arg(value_name = "A")]
    pub old: PathBuf,

    /// The second (new) machine configuration.
    #[arg(value_name = "B")]
    pub new: PathBuf,

    /// `text`, or `json` (`{"version": 1, "documents": [...], "changes": [...]}`, docs/explain.md).
    #[arg(long = "output", value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub output: String,

    /// Print instead a strategic merge patch that turns A into B (`labctl merge A -p @patch`
    /// gives exactly B; checked before it is printed). It carries B's values, secrets included.
    #[arg(long, conflicts_with = "output")]
    pub as_patch: bool,

    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// Runs `labctl diff`.
pub fn run(args: &DiffArgs) -> Result<(), CliError> {
    let load = |path: &PathBuf| -> Result<Config, CliError> {
        let bytes = crate::input::read_file(path)?;
        Config::from_vec_for(bytes, args.talos.release).map_err(|e| CliError::new(format!("{}: {e}", path.display())))
    };
    let (old, new) = (load(&args.old)?, load(&args.new)?);
    if args.as_patch {
        let patch = patch_between(&old, &new).map_err(|e| {
            CliError::new(format!("labctl diff: {} -> {}: {e}", args.old.display(), args.new.display()))
        })?;
        print!("{patch}");
        return Ok(());
    }
    let names = (args.old.display().to_string(), args.new.display().to_string());
    print!("{}", render(&old, &new, &names, &args.output));
    Ok(())
}

/// The comparison of `old` and `new` in `format` (`text` or `json`).
pub fn render(old: &Config, new: &Config, names: &(String, String), format: &str) -> String {
    let diff = compare(old, new);
    if format == "json" {
        let mut out = serde_json::to_string_pretty(&json_diff(&diff)).unwrap_or_default();
        out.push('\n');
        return out;
    }
    text(&diff, old, new, names)
}

/// `machine.type` of a config, when it has one.
fn machine_type(config: &Config) -> Option<String> {
    let v1 = config.get::<talos_config::model::v1alpha1::Config>()?;
    v1.machine.as_ref().map(|m| m.r#type.clone())
}

fn text(diff: &ConfigDiff, old: &Config, new: &Config, names: &(String, String)) -> String {
    let mut out = String::new();
    if let (Some(a), Some(b)) = (machine_type(old), machine_type(new))
        && a != b
    {
        out.push_str(&format!("# note: {} is a {a} config, {} a {b} config\n", names.0, names.1));
    }
    if diff.documents.is_empty() {
        out.push_str("No changes.\n");
        return out;
    }
    for d in &diff.documents {
        out.push_str(&format!("# {}: {}\n", d.document, d.kind.as_str()));
        out.push_str(&d.diff);
    }
    let removed: Vec<String> = diff
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Removed)
        .map(|c| {
            let place =
                if c.path.segments().is_empty() { "the whole document".to_string() } else { c.path.to_string() };
            format!("#   {}: {place}\n", c.document)
        })
        .collect();
    if !removed.is_empty() {
        out.push_str(&format!("# removed ({}):\n", removed.len()));
        out.extend(removed);
    }
    out
}

fn json_diff(diff: &ConfigDiff) -> serde_json::Value {
    let documents: Vec<serde_json::Value> = diff
        .documents
        .iter()
        .map(|d| json!({"document": d.document.to_string(), "change": d.kind.as_str(), "diff": d.diff}))
        .collect();
    let changes: Vec<serde_json::Value> = diff
        .changes
        .iter()
        .map(|c| {
            json!({
                "document": c.document.to_string(),
                "path": c.path.to_string(),
                "change": c.kind.as_str(),
                "old": c.old,
                "new": c.new,
            })
        })
        .collect();
    json!({"version": 1, "documents": documents, "changes": changes})
}
