//! `labctl sim up`: the simulated two-node cluster in the foreground, with a talosconfig, a kubeconfig and the
//! simulator's description (`sim.json`) in a directory, so that `labctl lab run --sim-dir DIR` and
//! `labctl lab check --sim-dir DIR` work against it as against the lab's cluster.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::CliError;
use crate::atomic::{AtomicWrite, FileMode};
use crate::i18n::tr;

/// `labctl sim ...`.
#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Start the simulated cluster in the foreground (Ctrl-C stops it).
    Up(UpArgs),
}

/// Arguments of `labctl sim up`.
#[derive(Debug, Args)]
pub struct UpArgs {
    #[command(flatten)]
    pub lang: crate::i18n::LangArgs,
    /// Where to write talosconfig (admin), talosconfig-operator, talosconfig-reader, kubeconfig, pki.json and
    /// sim.json (all mode 0600). A pki.json already there is reused: the same CA and client identities as before.
    #[arg(long, value_name = "DIR", default_value = "./talos-sim")]
    pub dir: PathBuf,
    /// Use this secrets bundle's Talos API CA (from `labctl gen secrets`), so that the talosconfig
    /// `labctl gen config --with-secrets` wrote works against the cluster (replaces DIR/pki.json).
    #[arg(long, value_name = "FILE")]
    pub with_secrets: Option<PathBuf>,
    /// Boot the nodes with DIR/controlplane.yaml and DIR/worker.yaml (from `labctl gen config`)
    /// instead of the lab's configs.
    #[arg(long, value_name = "DIR")]
    pub configs: Option<PathBuf>,
}

/// Runs a `labctl sim` command.
pub fn run(command: &SimCommand) -> Result<(), CliError> {
    match command {
        SimCommand::Up(args) => {
            args.lang.apply();
            crate::lab::runtime()?.block_on(up(args))
        }
    }
}

async fn up(args: &UpArgs) -> Result<(), CliError> {
    let saved = match &args.with_secrets {
        Some(path) => Some(bundle_pki(path)?),
        None => saved_pki(&args.dir)?,
    };
    let configs = match &args.configs {
        Some(dir) => talos_sim::NodeConfigs {
            controlplane: crate::input::read_file(&dir.join("controlplane.yaml"))?,
            worker: crate::input::read_file(&dir.join("worker.yaml"))?,
        },
        None => talos_sim::NodeConfigs::default(),
    };
    let sim = talos_sim::Sim::start_from(talos_sim::SimOptions::default(), saved.as_ref(), configs)
        .await
        .map_err(|e| CliError::new(format!("labctl: {}", tr!("session-sim-start", error = e.to_string()))))?;
    let cannot_write = |e: &dyn std::fmt::Display| {
        let dir = args.dir.display().to_string();
        CliError::new(format!("labctl: {}", tr!("sim-cannot-write", dir = dir, error = e.to_string())))
    };
    let (env, files) = sim.dir_files(&args.dir).map_err(|e| cannot_write(&e))?;
    for (path, bytes) in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        let private =
            AtomicWrite { mode: FileMode::Exact(0o600), follow_symlinks: false, temp_prefix: &prefix, temp_suffix: "" };
        private.write(&path, &bytes).map_err(|e| cannot_write(&e))?;
    }
    println!("{}", tr!("sim-banner"));
    for n in [&sim.controlplane, &sim.worker] {
        println!("  {} {} {} -> {}", n.machine_type.as_str(), n.address, n.hostname, n.endpoint);
    }
    println!("  Kubernetes API -> https://{}", sim.kube_api_endpoint());
    println!("talosconfig: {}", env.talosconfig.display());
    println!("kubeconfig:  {}", env.kubeconfig.display());
    let dir = args.dir.display().to_string();
    println!("{}", tr!("sim-run-the-lab", dir = dir.as_str()));
    println!("{}", tr!("sim-check-it", dir = dir.as_str()));
    println!("{}", tr!("sim-ctrl-c"));
    let waiting = |e: std::io::Error| CliError::new(format!("labctl: {}", tr!("sim-waiting", error = e.to_string())));
    tokio::signal::ctrl_c().await.map_err(waiting)?;
    drop(sim);
    Ok(())
}

/// The simulator PKI of a secrets bundle: its Talos API CA, no client identities yet.
fn bundle_pki(path: &Path) -> Result<talos_sim::SavedPki, CliError> {
    let bytes = crate::input::read_file(path)?;
    let fail = |what: String| CliError {
        message: format!("labctl: {}: {what}", path.display()),
        notes: vec![tr!("sim-make-secrets")],
        exit_code: None,
    };
    let bundle = talos_config::generate::SecretsBundle::from_yaml(&bytes).map_err(|e| fail(e.to_string()))?;
    bundle.validate().map_err(|e| fail(e.to_string().trim_end().to_string()))?;
    let os = bundle.certs.and_then(|c| c.os).ok_or_else(|| fail(tr!("sim-certs-os-required")))?;
    let text = |b: Option<Vec<u8>>| String::from_utf8_lossy(&b.unwrap_or_default()).into_owned();
    Ok(talos_sim::SavedPki {
        ca_cert: text(os.crt),
        ca_key: text(os.key).replace("ED25519 PRIVATE KEY", "PRIVATE KEY"),
        clients: Default::default(),
    })
}

/// The PKI an earlier `labctl sim up --dir DIR` kept in `DIR/pki.json`, if there is one.
fn saved_pki(dir: &Path) -> Result<Option<talos_sim::SavedPki>, CliError> {
    let path = dir.join(talos_sim::PKI_JSON);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            let path = path.display().to_string();
            return Err(CliError::new(format!(
                "labctl: {}",
                tr!("files-cannot-read", path = path, error = e.to_string())
            )));
        }
    };
    // The file holds keys: its parse error names the position only, never the content.
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        let path = path.display().to_string();
        CliError::new(format!("labctl: {}", tr!("sim-not-pki", path = path, line = e.line(), column = e.column())))
    })
}
