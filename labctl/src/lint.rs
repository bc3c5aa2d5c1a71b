//! `labctl lint`: merge like `labctl merge`, validate like `labctl validate`, then run the lint
//! rules (`talos_config::check` with `Checks::Lint`), and print the findings for a person or for CI (JSON, SARIF
//! 2.1.0, GitHub workflow commands). Nothing is written.

use std::path::PathBuf;

use clap::Args;
use talos_config::net::Prefix;
use talos_config::{CheckOptions, Checks, Mode, PatchSource, check};

use crate::CliError;
use crate::report::{Format, fails, render, summary};

/// Arguments of `labctl lint`.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// The base machine configuration.
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,

    /// Patch to apply before linting, repeatable, in order; `@file` reads a file (as `labctl merge -p`).
    #[arg(short = 'p', long = "patch", value_name = "PATCH", action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub patches: Vec<String>,

    /// The runtime mode Talos's validation runs for: cloud, container, metal or metal-agent.
    #[arg(short = 'm', long = "mode", value_name = "MODE", default_value = "container", value_parser = crate::input::parse_mode)]
    pub mode: Mode,

    /// Address ranges the cluster must not use, comma-separated (e.g. the host network:
    /// `10.244.0.0/16,10.96.0.0/12`).
    #[arg(long = "host-ranges", value_name = "CIDRS", value_delimiter = ',', value_parser = crate::input::parse_range)]
    pub host_ranges: Vec<Prefix>,

    /// How to print the findings.
    #[arg(long = "output", value_name = "FORMAT", default_value = "text")]
    pub output: Format,

    /// Exit 1 on warnings too.
    #[arg(long)]
    pub strict: bool,

    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// Runs `labctl lint`.
pub fn run(args: &LintArgs) -> Result<(), CliError> {
    let base = PatchSource::new(args.config.display().to_string(), crate::input::read_file(&args.config)?);
    let patches = crate::input::read_patches(&args.patches)?;
    let options = CheckOptions {
        mode: args.mode,
        host_ranges: args.host_ranges.clone(),
        checks: Checks::Lint,
        strict: false,
        release: args.talos.release,
    };
    let checked = check(&base, &patches, &options).map_err(|e| CliError::new(format!("labctl lint: {e}")))?;
    print!("{}", render(&checked, args.output, &base.name));
    let summary = summary(&checked);
    if fails(&checked, args.strict) {
        let mut err = CliError::new(format!("labctl lint: {summary}"));
        err.exit_code = Some(1);
        return Err(err);
    }
    eprintln!("labctl lint: {summary}");
    Ok(())
}
