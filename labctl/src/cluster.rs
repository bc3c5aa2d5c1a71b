//! `labctl cluster check`: every node config of a cluster checked together
//! (`talos_config::cluster`): files, folders of `*.yaml`, or a manifest naming each node's
//! config and patches. Files are read one at a time per core, never all at once.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use talos_config::PatchSource;
use talos_config::cluster::{ClusterOptions, NodeInput, Unreadable, check, rules};

use crate::CliError;
use crate::report::{Format, render_findings, sarif_rules, summary_of};

/// `labctl cluster`'s subcommands.
#[derive(Debug, Subcommand)]
pub enum ClusterCommand {
    /// Check every node config of a cluster together: one identity, unique names and
    /// addresses, etcd's quorum, endpoints, versions, one network, no secrets on workers.
    Check(CheckArgs),
}

/// Arguments of `labctl cluster check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Node configs: files, or folders whose `*.yaml` and `*.yml` files are read.
    #[arg(value_name = "PATH", required_unless_present = "manifest")]
    pub paths: Vec<PathBuf>,

    /// A manifest naming each node's config and patches, for repositories that keep them apart
    /// (`nodes: [{name: cp1, config: controlplane.yaml, patches: [cp1.yaml]}]`; paths from the
    /// manifest's folder).
    #[arg(long = "manifest", value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// How to print the findings.
    #[arg(long = "output", value_name = "FORMAT", default_value = "text")]
    pub output: Format,

    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// One node to read: its name, config file and patch files.
struct NodeFiles {
    name: Option<String>,
    config: PathBuf,
    patches: Vec<PathBuf>,
}

/// Runs `labctl cluster check`.
pub fn run(command: &ClusterCommand) -> Result<(), CliError> {
    let ClusterCommand::Check(args) = command;
    let mut nodes = Vec::new();
    for path in &args.paths {
        nodes.extend(files_of(path)?);
    }
    if let Some(manifest) = &args.manifest {
        nodes.extend(read_manifest(manifest)?);
    }
    let options = ClusterOptions::new(args.talos.release);
    let report = check(nodes.len(), |i| load(&nodes[i]), &options);
    let anchor = nodes.first().map(|n| n.config.display().to_string()).unwrap_or_default();
    print!("{}", render_findings(report.diagnostics(), args.output, &anchor, &sarif_rules(rules())));
    let s = report.summary();
    let named = match (&s.cluster_name, &s.endpoint) {
        (Some(name), Some(endpoint)) => format!(", cluster {name} at {endpoint}"),
        _ => String::new(),
    };
    let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let line = format!(
        "labctl cluster check: {} ({}, {}, {} not checked){named}: {}",
        count(s.control_planes + s.workers + s.skipped, "input", "inputs"),
        count(s.control_planes, "control plane", "control planes"),
        count(s.workers, "worker", "workers"),
        s.skipped,
        summary_of(report.diagnostics())
    );
    if report.has_errors() {
        let mut err = CliError::new(line);
        err.exit_code = Some(1);
        return Err(err);
    }
    eprintln!("{line}");
    Ok(())
}

/// A file, or a folder's `*.yaml` and `*.yml` files in name order.
fn files_of(path: &Path) -> Result<Vec<NodeFiles>, CliError> {
    let node = |config: PathBuf| NodeFiles { name: None, config, patches: Vec::new() };
    if !path.is_dir() {
        return Ok(vec![node(path.to_path_buf())]);
    }
    let entries = std::fs::read_dir(path)
        .map_err(|e| CliError::new(format!("labctl cluster check: cannot read the folder {}: {e}", path.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    Ok(files.into_iter().map(node).collect())
}

fn load(node: &NodeFiles) -> Result<NodeInput, Unreadable> {
    let read = |path: &Path| {
        let name = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => Ok(PatchSource::new(name, bytes)),
            Err(e) => Err(Unreadable { file: name, reason: crate::input::go_errno_text(&e) }),
        }
    };
    let patches = node.patches.iter().map(|p| read(p)).collect::<Result<Vec<_>, _>>()?;
    Ok(NodeInput { name: node.name.clone(), base: read(&node.config)?, patches })
}

/// The nodes a manifest names: `nodes:`, each with `config:`, optional `name:` and `patches:`
/// (paths from the manifest's folder).
fn read_manifest(path: &Path) -> Result<Vec<NodeFiles>, CliError> {
    let fail = |why: String| CliError::new(format!("labctl cluster check: the manifest {}: {why}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| fail(crate::input::go_errno_text(&e)))?;
    let roots = talos_yaml::parse::parse_documents(&bytes).map_err(|e| fail(e.to_string()))?;
    let folder = path.parent().unwrap_or(Path::new(""));
    let items = roots.first().and_then(|r| r.get("nodes")).and_then(|n| n.as_sequence()).ok_or_else(|| {
        fail("it has no `nodes:` list (each item: `config:`, and optional `name:` and `patches:`)".into())
    })?;
    let text = |node: &talos_yaml::Node| node.as_scalar().map(|s| s.text.clone());
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let config =
            item.get("config").and_then(text).ok_or_else(|| fail(format!("node #{} has no `config:` file", i + 1)))?;
        let patches = item.get("patches").and_then(|p| p.as_sequence()).unwrap_or_default();
        out.push(NodeFiles {
            name: item.get("name").and_then(text),
            config: folder.join(config),
            patches: patches.iter().filter_map(text).map(|p| folder.join(p)).collect(),
        });
    }
    Ok(out)
}
