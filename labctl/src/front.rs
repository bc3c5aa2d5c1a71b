//! The `labctl` executable: runs [`Common`]'s subcommands and `--version` itself. With the `lab`
//! feature, every other command line (`lab`, `sim`, help, no command, an unknown word) is run by
//! `labctl-lab`, installed next to it, which holds the lab, the simulator and their clients: this
//! module refers to none of them, so the linker leaves them out of `labctl` and the small commands
//! start without loading them. Without the feature, `labctl` is the whole program.

use std::process::ExitCode;

use clap::Subcommand;

use crate::cli::{CliError, Common};

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    #[command(flatten)]
    Common(Common),
    /// Not in this build: labctl was built without the `lab` feature.
    #[cfg(not(feature = "lab"))]
    #[command(disable_help_flag = true, display_order = 11)]
    Lab(NotBuilt),
    /// Not in this build: labctl was built without the `lab` feature.
    #[cfg(not(feature = "lab"))]
    #[command(disable_help_flag = true, display_order = 12)]
    Sim(NotBuilt),
}

/// The arguments of a subcommand left out of this build, taken as they come so that the user gets
/// the reason rather than a usage error.
#[cfg(not(feature = "lab"))]
#[derive(Debug, clap::Args)]
pub(crate) struct NotBuilt {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    args: Vec<std::ffi::OsString>,
}

/// The error for `labctl lab`/`labctl sim` in a build without the `lab` feature.
#[cfg(not(feature = "lab"))]
fn not_built(command: &str) -> Result<(), CliError> {
    Err(CliError {
        message: format!(
            "labctl: `labctl {command}` is not in this build (labctl was built without the `lab` feature)"
        ),
        notes: vec!["install the full labctl with: cargo install --path labctl".to_string()],
        exit_code: None,
    })
}

/// `labctl`'s `main`.
pub(crate) fn main() -> ExitCode {
    #[cfg(feature = "lab")]
    {
        let first = std::env::args_os().nth(1);
        if !first.as_ref().and_then(|a| a.to_str()).is_some_and(|a| crate::cli::COMMON.contains(&a)) {
            return companion::run();
        }
    }
    crate::cli::main(crate::cli::command::<Command>(), run)
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Common(command) => command.run(),
        #[cfg(not(feature = "lab"))]
        Command::Lab(_) => not_built("lab"),
        #[cfg(not(feature = "lab"))]
        Command::Sim(_) => not_built("sim"),
    }
}

/// Running `labctl-lab`, the executable with the lab, in `labctl`'s place.
#[cfg(feature = "lab")]
mod companion {
    use std::path::Path;
    use std::process::ExitCode;

    use crate::cli::CliError;

    /// The companion's file name.
    const NAME: &str = "labctl-lab";

    /// Runs `labctl-lab` from `labctl`'s directory with this process's arguments. On Unix it
    /// replaces this process (same pid, so signals reach it and its exit code is `labctl`'s), with
    /// `labctl`'s own `argv[0]`; elsewhere it is waited for and its exit code passed on. Returns
    /// only when it cannot be run: the error then says which file was looked for.
    pub(super) fn run() -> ExitCode {
        let path = match std::env::current_exe() {
            Ok(exe) => exe.with_file_name(format!("{NAME}{}", std::env::consts::EXE_SUFFIX)),
            Err(e) => {
                let err = CliError::new(format!(
                    "labctl: cannot find {NAME}: where labctl is installed is not known: {}",
                    crate::input::go_errno_text(&e)
                ));
                return crate::cli::report(Err(err), ExitCode::FAILURE);
            }
        };
        let err = run_at(&path);
        crate::cli::report(Err(cannot_run(&path, &err)), ExitCode::FAILURE)
    }

    #[cfg(unix)]
    fn run_at(path: &Path) -> std::io::Error {
        use std::os::unix::process::CommandExt;
        let mut args = std::env::args_os();
        let arg0 = args.next().unwrap_or_else(|| "labctl".into());
        std::process::Command::new(path).arg0(arg0).args(args).exec()
    }

    #[cfg(not(unix))]
    fn run_at(path: &Path) -> std::io::Error {
        match std::process::Command::new(path).args(std::env::args_os().skip(1)).status() {
            Ok(status) => std::process::exit(status.code().unwrap_or(1)),
            Err(e) => e,
        }
    }

    /// The error when `labctl-lab` at `path` cannot be run.
    fn cannot_run(path: &Path, err: &std::io::Error) -> CliError {
        CliError {
            message: format!("labctl: cannot run {}: {}", path.display(), crate::input::go_errno_text(err)),
            notes: vec![format!(
                "labctl runs `lab`, `sim` and its help with {NAME}, installed next to it: reinstall labctl to get \
                 both (cargo install labctl; from a checkout: cargo install --path labctl)"
            )],
            exit_code: None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(not(feature = "lab"))]
    #[test]
    fn lab_and_sim_say_they_are_not_built() {
        use super::*;
        use crate::cli::Cli;
        use clap::Parser;
        for (args, command) in [(&["labctl", "lab", "run", "--sim"][..], "lab"), (&["labctl", "sim", "up"][..], "sim")]
        {
            let cli = Cli::<Command>::try_parse_from(args).expect("parsed");
            let result = run(cli.command);
            let err = result.expect_err("refused");
            assert_eq!(
                err.message,
                format!("labctl: `labctl {command}` is not in this build (labctl was built without the `lab` feature)")
            );
            assert_eq!(err.notes, ["install the full labctl with: cargo install --path labctl"]);
        }
    }

    /// `labctl --help` lists the commands in the order they always had: in a build without the
    /// lab, `lab` and `sim` come last.
    #[cfg(not(feature = "lab"))]
    #[test]
    fn the_commands_keep_their_order_in_help() {
        let mut cli = crate::cli::command::<super::Command>();
        cli.build();
        let mut commands: Vec<&clap::Command> = cli.get_subcommands().collect();
        commands.sort_by_key(|c| (c.get_display_order(), c.get_name()));
        let names: Vec<&str> = commands.iter().map(|c| c.get_name()).collect();
        assert_eq!(
            names,
            [
                "merge", "validate", "lint", "plan", "diff", "upgrade", "cluster", "lsp", "schema", "gen", "lab",
                "sim", "help"
            ]
        );
    }
}
