//! The `labctl-lab` executable: every subcommand, `lab` and `sim` included, and the help of them
//! all in the learner's language. `labctl` hands it every command line it does not run itself,
//! with `labctl`'s own name as `argv[0]`: usage texts say `labctl`.

use std::process::ExitCode;

use clap::Subcommand;

use crate::cli::{COMMON, CliError, Common};
use crate::{i18n, lab, sim};

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    #[command(flatten)]
    Common(Common),
    /// Drive and check the lab's nine steps (lab/steps.md) against the lab's cluster or a simulated one.
    #[command(subcommand, display_order = 6)]
    Lab(Deferred<LabCommand>),
    /// Run the simulated two-node Talos cluster.
    #[command(subcommand, display_order = 7)]
    Sim(Deferred<sim::SimCommand>),
}

#[derive(Debug, Subcommand)]
pub(crate) enum LabCommand {
    /// Perform the steps through the Talos API and write every file the lab names.
    #[command(long_about = "Perform the lab's steps through the Talos API (never a shell), the docker CLI (step 1, \
container start time and restart count) and the Kubernetes API (with the kubeconfig fetched in step 4), writing \
every file lab/steps.md names into --out, atomically. Waits are bounded and show progress on stderr. No change is \
applied while a try-mode rollback is pending on the node (unless --force), and a step whose change is already in \
place is not applied twice. After step 9 the run is verified as `labctl lab check` does.\n\n\
`--sim` starts a simulated cluster in this process; `--sim-dir DIR` uses one started by `labctl sim up --dir DIR`.")]
    Run(lab::RunArgs),
    /// Verify the lab's files against the live cluster, one pass/fail line per step.
    Check(lab::CheckArgs),
}

/// The subcommands of `labctl lab` and `labctl sim`, whose arguments (the largest part of the
/// command line) are built only when clap needs them once [`LAZY_LAB`] is set: `labctl-lab merge`,
/// `validate`, `gen`, ... do not pay for them at start.
#[derive(Debug)]
pub(crate) struct Deferred<T>(T);

/// Set before the command line is built when it names a command that is neither `lab` nor `sim`
/// (nor help, which shows them): their subcommands are then added by [`clap::Command::defer`],
/// which clap runs only if it goes into them. The command built either way is the same once
/// clap has built it; unset (tests, `lab`, `sim`, help), it is built at once.
static LAZY_LAB: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl<T: clap::Subcommand> clap::Subcommand for Deferred<T> {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        if LAZY_LAB.load(std::sync::atomic::Ordering::Relaxed) {
            cmd.defer(T::augment_subcommands)
        } else {
            T::augment_subcommands(cmd)
        }
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        T::augment_subcommands_for_update(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        T::has_subcommand(name)
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

/// `labctl-lab`'s `main`: `labctl lab` and `labctl sim` say their help and usage in the
/// learner's language.
pub(crate) fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let lazy = args.get(1).is_some_and(|first| COMMON.contains(&first.as_str()));
    LAZY_LAB.store(lazy, std::sync::atomic::Ordering::Relaxed);
    i18n::help::choose_from_args(&args);
    crate::cli::main(i18n::help::localize(crate::cli::command::<Command>()), run)
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Common(command) => command.run(),
        Command::Lab(Deferred(LabCommand::Run(args))) => lab::run(&args),
        Command::Lab(Deferred(LabCommand::Check(args))) => lab::check(&args),
        Command::Sim(Deferred(command)) => sim::run(&command),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The English help of `lab` and `sim` is en.ftl's (the doc comments above are its source): a
    /// translation cannot drift from what English users read.
    #[test]
    fn the_english_help_of_lab_and_sim_is_in_en_ftl() {
        let texts = i18n::help::english_texts(&crate::cli::command::<Command>());
        assert!(texts.len() >= 20, "{texts:?}");
        let differing: Vec<String> = texts
            .iter()
            .filter(|(id, doc)| &i18n::message(id, None) != doc)
            .map(|(id, doc)| format!("{id} = {doc}"))
            .collect();
        assert!(differing.is_empty(), "en.ftl lacks or words differently:\n{}", differing.join("\n"));
    }

    /// In every language, the lab and sim commands' help builds (clap's own checks pass) and
    /// shows the translated texts with the values clap would add.
    #[test]
    fn the_translated_help_builds_in_every_language() {
        for code in i18n::languages() {
            let lookup = i18n::lookup_in(code).expect("a catalogue");
            let mut cli = i18n::help::localize_with(crate::cli::command::<Command>(), &lookup);
            cli.build();
            let check = cli.find_subcommand_mut("lab").and_then(|lab| lab.find_subcommand_mut("check")).expect("check");
            let help = check.render_help().to_string();
            let arg = |name: &'static str, value: &str| {
                let mut args = fluent_bundle::FluentArgs::new();
                args.set(name, value.to_string());
                args
            };
            let output = lookup("help-arg-output", None).expect("help-arg-output");
            let values = lookup("help-values", Some(&arg("values", "text, json"))).expect("help-values");
            let default = lookup("help-default", Some(&arg("value", "text"))).expect("help-default");
            assert!(help.contains(&format!("{output} [{values}] [{default}]")), "{code}:\n{help}");
        }
    }

    /// `labctl --help` lists the commands in the order they always had: `lab` and `sim` after
    /// `diff`.
    #[test]
    fn the_commands_keep_their_order_in_help() {
        let mut cli = crate::cli::command::<Command>();
        cli.build();
        let mut commands: Vec<&clap::Command> = cli.get_subcommands().collect();
        commands.sort_by_key(|c| (c.get_display_order(), c.get_name()));
        let names: Vec<&str> = commands.iter().map(|c| c.get_name()).collect();
        assert_eq!(
            names,
            [
                "merge", "validate", "lint", "plan", "diff", "upgrade", "cluster", "lab", "sim", "lsp", "schema",
                "gen", "help"
            ]
        );
    }
}
