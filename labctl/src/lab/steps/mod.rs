//! The nine steps of the lab, one module each holding the step's run and its check, and what they share: `run`
//! sequences a range of steps, `check` grades them all, `live` reads the cluster now, `patching` changes the worker,
//! `evidence` reads and compares the lab's files.
//!
//! Running goes through the Talos API, the container runtime and the Kubernetes API, writing the lab's files.
//! Every change is checked against the cluster first, so a re-run does not apply twice, and no change is applied
//! while a try-mode rollback is pending on the node (unless `--force`).

mod step1_no_shell;
mod step2_services;
mod step3_members;
mod step4_kubeconfig;
mod step5_label;
mod step6_try;
mod step7_rejected;
mod step8_kubelet;
mod step9_report;

mod check;
mod evidence;
mod live;
mod patching;
mod run;

use check::*;
pub use check::{check, check_all, render_text};
use evidence::*;
use live::*;
use patching::*;
pub use run::run;

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use serde::Serialize;
use talos_client::config::DEFAULT_PORT;
use talos_client::{ApplyMode, ApplyOptions, ApplyResult, Code, Target};
use talos_config::{PatchSource, load_patches};

use super::env::{self, CONTROLPLANE_CONTAINER, KUBELET_SERVICE, RUNNING_STATE, WORKER_CONTAINER};
use super::files::{self, names};
use super::files::{BAD_LABEL, BAD_LABEL_VALUE, CANARY_LABEL, CANARY_VALUE, POOL_LABEL, POOL_VALUE};
use super::machined_log;
use super::session::Session;
use super::state::{State, unix_now};
use super::try_guard::{self, Verdict};
use super::wait::{self, Poll};
use super::{CheckArgs, LabError, Output, RunArgs, go_duration, state, talosctl};
use crate::i18n::tr;

/// What step `step` (1-9) does, for the progress header, in the learner's language.
pub fn title(step: u8) -> String {
    crate::i18n::message(&format!("step-title-{step}"), None)
}

/// Step 5's label as `key=value`, as messages name it.
fn pool_label() -> String {
    format!("{POOL_LABEL}={POOL_VALUE}")
}

/// How long to wait for a label to show up on (or leave) the Node.
const LABEL_LIMIT: Duration = Duration::from_secs(60);
/// How long the kubelet may take to show its failure after the bad flag is applied.
const KUBELET_FAIL_LIMIT: Duration = Duration::from_secs(60);
/// How long the kubelet and the Node may take to recover after the fix.
const RECOVER_LIMIT: Duration = Duration::from_secs(180);
/// Poll interval of the waits.
const POLL: Duration = Duration::from_millis(250);
/// What to do about a canary label a cancelled try left behind (a note, said in the learner's language).
const REMOVE_CANARY: RemoveCanary = RemoveCanary;

/// The note [`REMOVE_CANARY`]: its text is looked up when it becomes one (`.note(REMOVE_CANARY)`).
#[derive(Clone, Copy, Debug)]
struct RemoveCanary;

impl From<RemoveCanary> for String {
    fn from(_: RemoveCanary) -> String {
        tr!("steps-remove-canary", label = CANARY_LABEL)
    }
}

/// The summary of report.json.
pub const SUMMARY: &str = "Talos has no shell and no SSH: every read and every change in this lab went through the \
authenticated gRPC API on port 50000. The machine config is a versioned resource, so each change is visible and \
countable; validation blocked the malformed label before anything changed, but it could not know that the kubelet \
rejects --max-pod, so that accepted change broke a service and was found and undone through the API alone.";

/// The command line with `--from STEP` in place of any `--step`/`--from`.
fn resume_command(step: u8) -> String {
    let line = super::command_line();
    let mut words: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "--step" | "--from" => {
                words.drain(i..(i + 2).min(words.len()));
            }
            w if w.starts_with("--step=") || w.starts_with("--from=") => {
                words.remove(i);
            }
            _ => i += 1,
        }
    }
    format!("{} --from {step}", words.join(" "))
}
