//! `--help` of `labctl lab` and `labctl sim` in the learner's language: each text of those
//! commands replaced by its message (`help-<command path>-about`, `-long`, `-<argument id>`, else
//! `help-arg-<argument id>`), and clap's headings by `help-usage`, `help-options`,
//! `help-commands`, `help-flag`, `help-version`. English is left as the doc comments say it (a test keeps en.ftl equal to them).

use clap::{Arg, ArgAction, Command};

use super::{ENGLISH, chosen_code, lookup};

/// A message of one language, with its arguments (`None` when the language has none).
type Lookup<'a> = &'a dyn Fn(&str, Option<&fluent_bundle::FluentArgs>) -> Option<String>;

/// The commands whose help is translated, by their path under `labctl`.
const TRANSLATED: [&str; 2] = ["lab", "sim"];

/// The language for `--help` and usage errors, from the raw arguments: `--lang X` or `--lang=X`
/// when present, else the locale's; chosen for the whole process when the command is one of
/// the translated ones.
pub fn choose_from_args(args: &[String]) {
    if !args.get(1).is_some_and(|command| TRANSLATED.contains(&command.as_str())) {
        return;
    }
    let flag = args.iter().enumerate().find_map(|(i, a)| match a.strip_prefix("--lang") {
        Some("") => args.get(i + 1).cloned(),
        Some(rest) => rest.strip_prefix('=').map(str::to_owned),
        None => None,
    });
    let flag = flag.filter(|code| super::languages().any(|known| known == code));
    super::choose(super::pick(flag.as_deref(), |name| std::env::var(name).ok()));
}

/// `labctl`'s command with the translated commands' texts in the chosen language.
pub fn localize(cli: Command) -> Command {
    if chosen_code() == ENGLISH {
        return cli;
    }
    localize_with(cli, &lookup)
}

/// `labctl`'s command with the translated commands' texts from `lookup`.
pub fn localize_with(mut cli: Command, lookup: Lookup) -> Command {
    for name in TRANSLATED {
        cli = cli.mut_subcommand(name, |c| localize_command(c, name, lookup));
    }
    cli
}

fn localize_command(mut cmd: Command, path: &str, lookup: Lookup) -> Command {
    if let Some(text) = lookup(&format!("help-{path}-about"), None) {
        cmd = cmd.about(text);
    }
    if let Some(text) = lookup(&format!("help-{path}-long"), None) {
        cmd = cmd.long_about(text);
    }
    let options = lookup("help-options", None).unwrap_or_default();
    let ids: Vec<String> = cmd.get_arguments().map(|a| a.get_id().to_string()).collect();
    for id in ids {
        let text = lookup(&format!("help-{path}-{id}"), None).or_else(|| lookup(&format!("help-arg-{id}"), None));
        let heading = options.clone();
        cmd = cmd.mut_arg(id, |arg| {
            let arg = arg.help_heading(heading);
            match text {
                Some(text) if arg.get_action().takes_values() => {
                    let text = format!("{text}{}", value_notes(&arg, lookup));
                    arg.help(text).long_help(None::<&str>).hide_default_value(true).hide_possible_values(true)
                }
                Some(text) => arg.help(text).long_help(None::<&str>),
                None => arg,
            }
        });
    }
    let usage = lookup("help-usage", None).unwrap_or_default();
    cmd = cmd
        .help_template(format!("{{about-with-newline}}\n{usage} {{usage}}\n\n{{all-args}}{{after-help}}"))
        .subcommand_help_heading(lookup("help-commands", None).unwrap_or_default())
        .disable_help_flag(true)
        .arg(
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::Help)
                .help(lookup("help-flag", None).unwrap_or_default())
                .help_heading(options.clone()),
        )
        .disable_version_flag(true)
        .arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(lookup("help-version", None).unwrap_or_default())
                .help_heading(options),
        );
    let names: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for name in names {
        let sub_path = format!("{path}-{name}");
        cmd = cmd.mut_subcommand(name, |c| localize_command(c, &sub_path, lookup));
    }
    cmd
}

/// clap's `[default: ..]` and `[possible values: ..]` in the language in use.
fn value_notes(arg: &Arg, lookup: Lookup) -> String {
    let mut notes = String::new();
    let values: Vec<String> = arg.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    if !values.is_empty() && !arg.is_hide_possible_values_set() {
        let text = lookup("help-values", Some(&one_arg("values", values.join(", ")))).unwrap_or_default();
        notes.push_str(&format!(" [{text}]"));
    }
    let defaults: Vec<String> = arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() {
        let text = lookup("help-default", Some(&one_arg("value", defaults.join(", ")))).unwrap_or_default();
        notes.push_str(&format!(" [{text}]"));
    }
    notes
}

fn one_arg(name: &'static str, value: String) -> fluent_bundle::FluentArgs<'static> {
    let mut args = fluent_bundle::FluentArgs::new();
    args.set(name, value);
    args
}

/// Every translated help text with the message that replaces it, as (message id, doc comment).
#[cfg(test)]
pub fn english_texts(cli: &Command) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in TRANSLATED {
        if let Some(cmd) = cli.find_subcommand(name) {
            english_of(cmd, name, &mut out);
        }
    }
    out
}

#[cfg(test)]
fn english_of(cmd: &Command, path: &str, out: &mut Vec<(String, String)>) {
    if let Some(about) = cmd.get_about() {
        out.push((format!("help-{path}-about"), about.to_string()));
    }
    if let Some(long) = cmd.get_long_about() {
        out.push((format!("help-{path}-long"), long.to_string()));
    }
    for arg in cmd.get_arguments().filter(|a| a.get_id() != "help") {
        let id = arg.get_id().to_string();
        let own = format!("help-{path}-{id}");
        let key = if lookup(&own, None).is_some() { own } else { format!("help-arg-{id}") };
        out.push((key, arg.get_help().map(ToString::to_string).unwrap_or_default()));
    }
    for sub in cmd.get_subcommands() {
        english_of(sub, &format!("{path}-{}", sub.get_name()), out);
    }
}
