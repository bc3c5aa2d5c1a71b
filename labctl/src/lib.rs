//! labctl's internals: the modules behind the `labctl` and `labctl-lab` executables, in a library
//! only so that the two are built from one compilation of them. **Not a stable API**: nothing here
//! is meant for other crates, and it changes in any release (use `talos-machineconfig` for the
//! merge, validation and encoding labctl is built on).
//!
//! `labctl` (`front`) runs `merge`, `validate`, `lint`, `plan`, `diff`, `lsp`, `schema`, `gen`
//! and `--version` itself. With the `lab` feature (the default) it hands every other command line
//! (`lab`, `sim`, help) to `labctl-lab` (`full`), installed next to it, which has every command:
//! the small commands then start without the Talos API client, the simulator, the Kubernetes
//! client and the async runtime in the executable. Without the feature, `labctl` is the whole
//! program and `labctl-lab` is not built.

use std::process::ExitCode;

mod atomic;
mod cli;
mod cluster;
mod diff;
mod front;
#[cfg(feature = "lab")]
mod full;
mod generate;
#[cfg(feature = "lab")]
mod i18n;
mod input;
#[cfg(feature = "lab")]
mod lab;
mod lint;
mod lsp;
mod merge;
mod plan;
mod report;
mod schema;
#[cfg(feature = "lab")]
mod sim;
mod upgrade;
mod validate;

use cli::CliError;

/// The `main` of the `labctl` executable: each subcommand prints its error on stderr and exits
/// with code 1 (70, `EX_SOFTWARE`, when a bug made the worker panic); `lab`, `sim` and help are
/// run by `labctl-lab` when the `lab` feature is on.
pub fn front() -> ExitCode {
    front::main()
}

/// The `main` of the `labctl-lab` executable: every subcommand, those of [`front()`] run as it runs them.
#[cfg(feature = "lab")]
pub fn full() -> ExitCode {
    full::main()
}
