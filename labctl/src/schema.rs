//! `labctl schema`: the JSON Schema of a Talos release's machine config documents (or of one
//! kind), for yaml-language-server and `check-jsonschema`.

use std::path::PathBuf;

use clap::Args;
use talos_config::schema::{self, Flavour};

use crate::CliError;
use crate::atomic::{AtomicWrite, FileMode};

/// Arguments of `labctl schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// One document kind (`v1alpha1` for the legacy document, `HostnameConfig`, ...); default: any
    /// document, told apart by `kind`.
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// The schema of patches: the same fields, plus `$patch: delete` in every mapping.
    #[arg(long)]
    pub patch: bool,
    /// Write the schema to FILE (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// Runs `labctl schema`.
pub fn run(args: &SchemaArgs) -> Result<(), CliError> {
    let flavour = if args.patch { Flavour::Patch } else { Flavour::Config };
    let release = args.talos.release;
    let text = match &args.kind {
        None => schema::config_schema_for(flavour, release),
        Some(kind) => schema::kind_schema_for(kind, flavour, release).ok_or_else(|| CliError {
            message: format!("labctl schema: unknown document kind {} in Talos {release}", talos_go::quote(kind)),
            notes: vec![format!("known kinds: {}", schema::kinds_for(release).join(", "))],
            exit_code: None,
        })?,
    };
    match &args.output {
        None => {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| CliError::new(format!("labctl schema: cannot write stdout: {e}")))
        }
        Some(path) => {
            let writer = AtomicWrite {
                mode: FileMode::LessUmask(0o644),
                follow_symlinks: true,
                temp_prefix: ".labctl-schema-",
                temp_suffix: ".tmp",
            };
            writer
                .write(path, text.as_bytes())
                .map_err(|e| CliError::new(format!("labctl schema: cannot write {}: {e}", path.display())))
        }
    }
}
