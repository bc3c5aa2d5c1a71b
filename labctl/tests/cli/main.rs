//! labctl's command-line tests as one test binary (one link instead of three): `merge` and
//! `validate` always, the lab, the simulated cluster and the split between `labctl` and
//! `labctl-lab` when the `lab` feature is on.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cluster_cli;
mod diff_cli;
mod gen_cases;
mod gen_cli;
mod gen_v1_12_cli;
mod gen_v1_14_cli;
mod hooks_cli;
#[cfg(feature = "lab")]
mod lab_cli;
#[cfg(feature = "lab")]
mod lab_interrupt_cli;
#[cfg(feature = "lab")]
mod lab_lang_cli;
#[cfg(feature = "lab")]
mod lab_setup_cli;
#[cfg(feature = "lab")]
mod lab_sim_up_cli;
#[cfg(feature = "lab")]
mod lab_try_cli;
mod lint_cli;
mod lsp_cli;
mod lsp_upgrade_cli;
mod merge_bad_cli;
mod merge_cli;
mod merge_output_cli;
mod merge_peer_cli;
mod plan_cli;
mod release_cli;
mod schema_cli;
#[cfg(all(feature = "lab", unix))]
mod split_cli;
mod upgrade_cli;
mod validate_cli;
