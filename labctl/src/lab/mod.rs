//! `labctl lab run` and `labctl lab check`: the nine steps of `lab/steps.md`, performed through the Talos API (never a
//! shell) and checked the way a grader would.
//!
//! The modules split the work: [`files`] holds the lab's file formats, [`env`](mod@env) where answers come from (Talos API,
//! containers, port probes, Kubernetes), [`steps`] performs each step and recomputes what a grader would,
//! [`wait`] bounds every wait with a progress line, [`talosctl`] reproduces what talosctl prints, [`state`] keeps
//! labctl's own bookkeeping (the restart baseline, try-mode applies), [`machined_log`] reads the node's machined log
//! (try-mode applies, rollbacks, access lines) and [`try_guard`] refuses an apply while a rollback is pending.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::CliError;
use crate::i18n::tr;

pub mod env;
pub mod files;
pub mod machined_log;
pub mod policy;
pub mod session;
pub mod state;
pub mod steps;
pub mod talosctl;
pub mod try_guard;
pub mod wait;

/// A lab failure: what went wrong (naming the step when there is one) and what to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabError {
    /// The message.
    pub message: String,
    /// Hints, one per line.
    pub notes: Vec<String>,
    /// The exit code, when not 1.
    pub exit_code: Option<u8>,
}

impl LabError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> LabError {
        LabError { message: message.into(), notes: Vec::new(), exit_code: None }
    }

    /// Adds a hint.
    pub fn note(mut self, note: impl Into<String>) -> LabError {
        self.notes.push(note.into());
        self
    }

    /// Prefixes the message with the step (`step 5: ...`), unless it names a step already.
    pub fn in_step(mut self, step: u8) -> LabError {
        let prefix = tr!("step-prefix", step = step, message = "");
        let named = |m: &str| m.starts_with("step ") || m.starts_with(prefix.split(' ').next().unwrap_or("step"));
        if !named(&self.message) {
            self.message = tr!("step-prefix", step = step, message = self.message.as_str());
        }
        self
    }
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<LabError> for CliError {
    fn from(e: LabError) -> CliError {
        CliError { message: format!("labctl: {}", e.message), notes: e.notes, exit_code: e.exit_code }
    }
}

impl From<talos_client::Error> for LabError {
    fn from(e: talos_client::Error) -> LabError {
        LabError::new(e.to_string())
    }
}

/// Go's text of a duration (`30s`, `1m0s`), as talosctl prints its try timeout.
pub fn go_duration(d: Duration) -> String {
    talos_config::model::Duration::from(d).to_string()
}

/// Parses a Go-style duration (`30s`, `1m`, `1m30s`, `500ms`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let d = talos_config::model::Duration::parse(text)
        .filter(|d| d.nanos >= 0)
        .ok_or_else(|| tr!("lab-invalid-duration", text = format!("{text:?}")))?;
    Ok(Duration::from_nanos(d.nanos.unsigned_abs()))
}

/// Where the cluster is: the lab's cluster (talosconfig, `docker`, node IPs) or a simulated one.
#[derive(Clone, Debug, Args)]
pub struct ClusterArgs {
    /// The talosconfig (default: $TALOSCONFIG, else ~/.talos/config).
    #[arg(long, value_name = "FILE")]
    pub talosconfig: Option<PathBuf>,
    /// The control plane node's IP.
    #[arg(long, value_name = "IP", default_value = "10.5.0.2")]
    pub controlplane: String,
    /// The worker node's IP.
    #[arg(long, value_name = "IP", default_value = "10.5.0.3")]
    pub worker: String,
    /// The docker program used for step 1 and the container start time and restart count.
    #[arg(long, value_name = "PROGRAM", default_value = "docker")]
    pub docker: PathBuf,
    /// Use the simulated cluster started by `labctl sim up --dir DIR` (its talosconfig, containers and ports).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["talosconfig", "sim"])]
    pub sim_dir: Option<PathBuf>,
    /// Start a simulated cluster in this process and run against it (no Docker, no Talos needed).
    #[arg(long, conflicts_with = "talosconfig")]
    pub sim: bool,
    /// The lab's output directory [default: /root/talos-lab for the lab's cluster, ./talos-lab with --sim or
    /// --sim-dir, so that a rehearsal never writes over the real results].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

impl ClusterArgs {
    /// The output directory: `--out`, else the default for the kind of cluster.
    pub fn out_dir(&self) -> PathBuf {
        match &self.out {
            Some(dir) => dir.clone(),
            None if self.sim || self.sim_dir.is_some() => PathBuf::from("talos-lab"),
            None => PathBuf::from("/root/talos-lab"),
        }
    }
}

/// Arguments of `labctl lab run`.
#[derive(Clone, Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub cluster: ClusterArgs,
    #[command(flatten)]
    pub lang: crate::i18n::LangArgs,
    /// Run only this step (1-9).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=9), conflicts_with = "from")]
    pub step: Option<u8>,
    /// Run from this step to step 9.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=9))]
    pub from: Option<u8>,
    /// The try-mode timeout of step 6 (whole seconds), recorded in try.json.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_try_timeout)]
    pub try_timeout: Duration,
    /// Record these steps again although their files are there (a recorded step is otherwise kept and verified).
    #[arg(long, value_name = "N", value_delimiter = ',', value_parser = clap::value_parser!(u8).range(1..=9))]
    pub redo: Vec<u8>,
    /// Record every step again, apply even while a try-mode rollback is pending on the node (this cancels the
    /// rollback), and write into an output directory that holds another cluster's results.
    #[arg(long)]
    pub force: bool,
}

fn parse_try_timeout(text: &str) -> Result<Duration, String> {
    let d = parse_duration(text)?;
    if d.as_secs() == 0 || d.subsec_nanos() != 0 {
        return Err(tr!("lab-invalid-try-timeout", text = format!("{text:?}")));
    }
    Ok(d)
}

/// Output format of `lab check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// One line per step.
    Text,
    /// A JSON document.
    Json,
}

/// Arguments of `labctl lab check`.
#[derive(Clone, Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub cluster: ClusterArgs,
    #[command(flatten)]
    pub lang: crate::i18n::LangArgs,
    /// The try-mode timeout step 6 must have used (the lab asks for 30s; give the one of a shorter `lab run`).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_try_timeout)]
    pub try_timeout: Duration,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub output: Output,
}

/// Runs `labctl lab run`.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    args.lang.apply();
    runtime()?.block_on(run_then_verify(args)).map_err(CliError::from)
}

/// Performs the steps asked for, then, when the run reached step 9, verifies it as `lab check` does.
async fn run_then_verify(args: &RunArgs) -> Result<(), LabError> {
    let (session, last) = steps::run(args).await?;
    if last == 9 {
        eprintln!("{}", tr!("run-verification"));
        let results = steps::check_all(&session, args.try_timeout).await;
        print!("{}", steps::render_text(&results));
        if results.iter().any(|r| !r.pass) {
            return Err(LabError::new(tr!("run-check-failed")));
        }
    }
    Ok(())
}

/// Runs `labctl lab check`: exit code 0 only when every step passes.
pub fn check(args: &CheckArgs) -> Result<(), CliError> {
    args.lang.apply();
    runtime()?.block_on(steps::check(args)).map_err(CliError::from)
}

/// The async runtime of a lab command.
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::new(format!("labctl: {}", tr!("lab-no-runtime", error = e.to_string()))))
}

/// The command line as typed (arguments with blanks or quotes single-quoted), for "run this" hints.
pub fn command_line() -> String {
    std::env::args()
        .enumerate()
        .map(|(i, a)| {
            let a = if i == 0 { "labctl".to_string() } else { a };
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c)) {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
