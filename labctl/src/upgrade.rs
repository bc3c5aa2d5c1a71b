//! `labctl upgrade`: what a config set (a base and its patches) means on the release the nodes
//! will run, before any node runs it (`talos_config::upgrade`). Nothing is written.

use std::path::{Path, PathBuf};

use clap::Args;
use talos_config::net::Prefix;
use talos_config::upgrade::{RewriteError, UpgradeOptions, rewrite, rules, upgrade};
use talos_config::{Mode, PatchSource, Release};

use crate::CliError;
use crate::atomic::{AtomicWrite, FileMode};
use crate::input::parse_release;
use crate::report::{Format, render_findings, sarif_rules, summary_of};

/// Arguments of `labctl upgrade`.
#[derive(Debug, Args)]
pub struct UpgradeArgs {
    /// The base machine configuration.
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,

    /// Patch to apply, repeatable, in order; `@file` reads a file (as `labctl merge -p`).
    #[arg(short = 'p', long = "patch", value_name = "PATCH", action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub patches: Vec<String>,

    /// The release the nodes run now.
    #[arg(long = "from", value_name = "RELEASE", default_value_t = Release::DEFAULT, value_parser = parse_release)]
    pub from: Release,

    /// The release they will run.
    #[arg(long = "to", value_name = "RELEASE", value_parser = parse_release)]
    pub to: Release,

    /// The runtime mode Talos's validation runs for: cloud, container, metal or metal-agent.
    #[arg(short = 'm', long = "mode", value_name = "MODE", default_value = "container", value_parser = crate::input::parse_mode)]
    pub mode: Mode,

    /// Address ranges the cluster must not use, comma-separated (lint's subnet-overlap).
    #[arg(long = "host-ranges", value_name = "CIDRS", value_delimiter = ',', value_parser = crate::input::parse_range)]
    pub host_ranges: Vec<Prefix>,

    /// How to print the report.
    #[arg(long = "output", value_name = "FORMAT", default_value = "text")]
    pub output: Format,

    /// Also write the merged config the target release's way (from v1.14, the v1alpha1
    /// Kubernetes settings moved into their documents) to the file given with -o.
    #[arg(long = "rewrite", requires = "out")]
    pub rewrite: bool,

    /// Where --rewrite writes (mode 0600: the config holds secrets).
    #[arg(short = 'o', long = "output-file", value_name = "OUT", requires = "rewrite")]
    pub out: Option<PathBuf>,
}

/// Runs `labctl upgrade`: the report on stdout, a summary on stderr; exit 1 when the target
/// release refuses the set.
pub fn run(args: &UpgradeArgs) -> Result<(), CliError> {
    let base = PatchSource::new(args.config.display().to_string(), crate::input::read_file(&args.config)?);
    let patches = crate::input::read_patches(&args.patches)?;
    let options =
        UpgradeOptions { from: args.from, to: args.to, mode: args.mode, host_ranges: args.host_ranges.clone() };
    let report = upgrade(&base, &patches, &options).map_err(|e| CliError::new(format!("labctl upgrade: {e}")))?;
    print!("{}", render_findings(report.diagnostics(), args.output, &base.name, &sarif_rules(rules())));
    let summary = format!("{} -> {}: {}", args.from, args.to, summary_of(report.diagnostics()));
    if let (true, Some(out), Some(merged)) = (args.rewrite, &args.out, report.before().merged()) {
        write_rewrite(merged, &options, out)?;
    }
    if report.refused() {
        let mut err = CliError::new(format!("labctl upgrade: {summary}; Talos {} refuses this config", args.to));
        err.exit_code = Some(1);
        return Err(err);
    }
    eprintln!("labctl upgrade: {summary}");
    Ok(())
}

/// Writes the rewrite of `merged` to `out` (temporary file, then rename; 0600); nothing is
/// written when the rewrite fails.
fn write_rewrite(merged: &[u8], options: &UpgradeOptions, out: &Path) -> Result<(), CliError> {
    let done = rewrite(merged, options).map_err(|e| {
        let what = match e {
            RewriteError::Unexpressible(_) => format!("Talos {} cannot express this config", options.to),
            _ => "the rewrite failed".to_string(),
        };
        let mut err = CliError::new(format!("labctl upgrade: {what}: {e}"));
        err.notes.push(format!("nothing was written to {}", out.display()));
        err
    })?;
    let writer = AtomicWrite {
        mode: FileMode::Exact(0o600),
        follow_symlinks: true,
        temp_prefix: ".labctl-upgrade-",
        temp_suffix: ".tmp",
    };
    writer
        .write(out, &done.bytes)
        .map_err(|e| CliError::new(format!("labctl upgrade: cannot write {}: {}", out.display(), e.source)))?;
    let moved = done.moves.iter().filter(|m| m.kept.is_none()).count();
    eprintln!("labctl upgrade: wrote {} ({moved} of {} settings moved)", out.display(), done.moves.len());
    Ok(())
}
