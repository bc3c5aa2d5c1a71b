//! `labctl validate`: `talosctl validate`, offline, with the same output and exit codes
//! (docs/validation.md §9.1): load the config (a load error wins over a bad mode), parse the
//! mode, validate, print each warning as `WARNING: <w>` on stderr, then either the error text
//! on stderr (exit 1) or `<config> is valid for <mode> mode` on stdout.

use std::io::{Read, Write};
use std::path::Path;

use clap::Args;
use talos_config::{CheckOptions, Checked, Config, Mode, PatchSource, check_owned};

use crate::CliError;
use crate::report::{Format, render};

/// Arguments of `labctl validate` (talosctl's `validate` flags).
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The machine configuration file to validate; `-` reads standard input.
    #[arg(short = 'c', long = "config", value_name = "FILE", default_value = "")]
    pub config: String,

    /// The runtime mode to validate for: cloud, container, metal (or metal-agent).
    #[arg(short = 'm', long = "mode", value_name = "MODE")]
    pub mode: Option<String>,

    /// Treat warnings of the v1alpha1 document as errors.
    #[arg(long)]
    pub strict: bool,

    /// After Talos's text, list each problem with the path of the field it is about
    /// (Talos's own text does not say which field is wrong).
    #[arg(long)]
    pub explain: bool,

    /// `text` prints exactly what talosctl prints; `json`, `sarif` and `github` print each error
    /// and warning for CI, with the field, line and column (see `labctl lint --help`).
    #[arg(long = "output", value_name = "FORMAT", default_value = "text")]
    pub output: Format,

    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// talosctl prints usage after an error whose text mentions flags, commands or arguments.
const USAGE: &str = "Usage:\n  labctl validate [flags]\n\nFlags:\n  -c, --config string   the path of the config file\n  -m, --mode string     the mode to validate the config for (valid values are metal, cloud, and container)\n      --strict          treat validation warnings as errors";

/// Runs `labctl validate`.
pub fn run(args: &ValidateArgs) -> Result<(), CliError> {
    let Some(mode_arg) = &args.mode else {
        return Err(with_usage(CliError::new("required flag(s) \"mode\" not set")));
    };
    let bytes = if args.config == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| CliError::new(format!("read -: {}", crate::input::go_errno_text(&e))))?;
        buf
    } else {
        crate::input::read_file(Path::new(&args.config))?
    };
    if args.output != Format::Text {
        return ci_output(args, mode_arg, bytes);
    }
    let mode = match mode_arg.parse::<Mode>() {
        Ok(mode) => mode,
        // A load error wins over a bad mode, as in talosctl.
        Err(e) => {
            let text = Config::from_vec_for(bytes, args.talos.release).err().unwrap_or(e).to_string();
            return Err(with_usage(CliError::new(text)));
        }
    };
    let checked = checked(args, mode, bytes)?;
    if let Some(err) = checked.merge_error() {
        return Err(with_usage(CliError::new(err.to_string())));
    }
    let Some(report) = checked.validation() else {
        return Err(CliError::new(
            "labctl validate: internal error: the config loaded but was not validated; please report it with the config",
        ));
    };
    let mut stderr = std::io::stderr().lock();
    for warning in &report.warnings {
        let _ = writeln!(stderr, "WARNING: {warning}");
    }
    if let Some(err) = &report.error {
        let mut cli = with_usage(CliError::new(err.to_string()));
        if args.explain {
            cli.notes.extend(err.diagnostics().iter().map(explained));
        }
        return Err(cli);
    }
    println!("{} is valid for {mode_arg} mode", args.config);
    Ok(())
}

/// The config checked as `talos_config::check` does with no patches: loaded, then validated. The
/// bytes are handed over, so that they are in memory once (they are the merged config).
fn checked(args: &ValidateArgs, mode: Mode, bytes: Vec<u8>) -> Result<Checked, CliError> {
    let name = if args.config == "-" { "<stdin>".to_string() } else { args.config.clone() };
    let options = CheckOptions { mode, strict: args.strict, release: args.talos.release, ..CheckOptions::default() };
    check_owned(PatchSource::new(name, bytes), Vec::new(), &options)
        .map_err(|e| CliError::new(format!("labctl validate: {e}")))
}

/// `labctl: <field>: <message>` (`Kind/name:<field>` in a new-style document).
fn explained(d: &talos_config::Diagnostic) -> String {
    let field = match (d.document().filter(|doc| !doc.is_legacy()), d.field()) {
        (_, None) => "(no field)".to_string(),
        (None, Some(field)) => field.to_string(),
        (Some(doc), Some(field)) => format!("{doc}:{field}"),
    };
    format!("labctl: {field}: {}", d.message())
}

/// `--output json|sarif|github`: Talos's errors and warnings as findings with positions on
/// stdout; exit 1 when the config is rejected (or does not load).
fn ci_output(args: &ValidateArgs, mode_arg: &str, bytes: Vec<u8>) -> Result<(), CliError> {
    let mode = mode_arg.parse::<Mode>().map_err(|e| CliError::new(e.to_string()))?;
    // A config that does not load is one finding too, so that CI sees it in its format.
    let checked = checked(args, mode, bytes)?;
    let anchor = if args.config == "-" { "<stdin>" } else { args.config.as_str() };
    print!("{}", render(&checked, args.output, anchor));
    if crate::report::fails(&checked, false) {
        let mut err = CliError::new(format!("labctl validate: {}", crate::report::summary(&checked)));
        err.exit_code = Some(1);
        return Err(err);
    }
    Ok(())
}

/// Adds talosctl's usage block when the text calls for it.
fn with_usage(err: CliError) -> CliError {
    err.with_talosctl_usage(USAGE)
}
