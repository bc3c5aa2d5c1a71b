//! `labctl plan`: what a node running CONFIG does with CONFIG plus the patches, offline: whether
//! `talosctl apply-config --mode auto` applies it live or reboots, and which fields (set by which
//! patch line) force the reboot (`talos_config::plan`, Talos v1.13.9's rule).

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use talos_config::plan::{ApplyPlan, Outcome, plan_apply};
use talos_config::provenance::Provenance;
use talos_config::{Config, DocumentId, PatchSource, merge_sources_for};

use crate::CliError;

/// Arguments of `labctl plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The node's current machine configuration.
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,

    /// Patch to apply, repeatable, in order; `@file` reads a file (as `labctl merge -p`).
    #[arg(short = 'p', long = "patch", value_name = "PATCH", action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub patches: Vec<String>,

    /// `text`, or `json` (`{"version": 1, "auto": "no-reboot"|"reboot", ...}`, docs/explain.md).
    #[arg(long = "output", value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub output: String,

    /// Exit 1 when the change needs a reboot (for a CI job that must not reboot nodes).
    #[arg(long)]
    pub fail_on_reboot: bool,

    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// Runs `labctl plan`.
pub fn run(args: &PlanArgs) -> Result<(), CliError> {
    let base = PatchSource::new(args.config.display().to_string(), crate::input::read_file(&args.config)?);
    let patches = crate::input::read_patches(&args.patches)?;
    let talos = |e: talos_config::Error| CliError::new(e.to_string());
    let release = args.talos.release;
    let current = Config::from_bytes_for(&base.bytes, release).map_err(talos)?;
    let merged = merge_sources_for(&base, &patches, release).map_err(talos)?;
    let new = Config::from_vec_for(merged, release).map_err(talos)?;
    let plan = plan_apply(&current, &new).map_err(|e| {
        CliError::new(format!("labctl plan: {e}: Talos decides only for configs with a v1alpha1 document"))
    })?;
    let trace = Provenance::trace(&base, &patches);
    let sites: Vec<Option<String>> =
        plan.reboot_fields.iter().map(|p| trace.locate(&DocumentId::legacy(), p).map(|l| l.site.to_string())).collect();
    if args.output == "json" {
        println!("{}", serde_json::to_string_pretty(&json_plan(&plan, &sites)).unwrap_or_default());
    } else {
        print!("{}", text(&plan, &sites));
    }
    if args.fail_on_reboot && plan.auto == Outcome::Reboot {
        let mut err = CliError::new("labctl plan: the change needs a reboot (--fail-on-reboot)");
        err.exit_code = Some(1);
        return Err(err);
    }
    Ok(())
}

fn text(plan: &ApplyPlan, sites: &[Option<String>]) -> String {
    match plan.auto {
        Outcome::NoReboot => {
            "--mode auto: applied without a reboot\n--mode no-reboot and --mode try: accepted\n".to_string()
        }
        Outcome::Reboot => {
            let mut out = String::from("--mode auto: applied with a reboot, because of:\n");
            for (path, site) in plan.reboot_fields.iter().zip(sites) {
                match site {
                    Some(site) => out.push_str(&format!("  {path}  ({site})\n")),
                    None => out.push_str(&format!("  {path}\n")),
                }
            }
            out.push_str(
                "--mode no-reboot and --mode try: refused (this config change can't be applied in immediate mode)\n",
            );
            out
        }
    }
}

fn json_plan(plan: &ApplyPlan, sites: &[Option<String>]) -> serde_json::Value {
    let fields: Vec<serde_json::Value> = plan
        .reboot_fields
        .iter()
        .zip(sites)
        .map(|(path, site)| json!({"path": path.to_string(), "set_at": site}))
        .collect();
    json!({
        "version": 1,
        "auto": match plan.auto { Outcome::NoReboot => "no-reboot", Outcome::Reboot => "reboot" },
        "live_possible": plan.live_possible(),
        "reboot_fields": fields,
    })
}
