//! The learner's language for `labctl lab` and `labctl sim`: message catalogues (Fluent, one file
//! per language in `labctl/i18n/`, English the fallback), the language chosen from `--lang` or the
//! locale, and [`tr!`] to say a message.
//!
//! Only what labctl itself says is translated. Talos's own texts quoted in a message, the lab's
//! files and the keys of `--output json` stay as they are in every language.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

pub mod help;

include!(concat!(env!("OUT_DIR"), "/catalogues.rs"));

/// The language every message falls back to.
pub const ENGLISH: &str = "en";

/// One language's messages.
struct Catalogue {
    code: &'static str,
    bundle: FluentBundle<FluentResource>,
}

/// The chosen language's catalogue and English's.
struct Chosen {
    chosen: Catalogue,
    english: Catalogue,
}

static CHOSEN: OnceLock<Chosen> = OnceLock::new();

/// The catalogue of `code`, when labctl has one that loads.
fn catalogue(code: &str) -> Option<Catalogue> {
    let &(code, source) = CATALOGUES.iter().find(|(c, _)| *c == code)?;
    let resource = FluentResource::try_new(source.to_string()).ok()?;
    let mut bundle = FluentBundle::new_concurrent(vec![code.parse().ok()?]);
    // Placeables are not wrapped in Unicode isolation marks: the output is a terminal's, not a web page's.
    bundle.set_use_isolating(false);
    bundle.add_resource(resource).ok()?;
    Some(Catalogue { code, bundle })
}

/// The language codes labctl has catalogues for.
pub fn languages() -> impl Iterator<Item = &'static str> {
    CATALOGUES.iter().map(|(code, _)| *code)
}

/// The language a locale value (`ja_JP.UTF-8`, `en`, `C`) names: its language part.
fn locale_language(value: &str) -> &str {
    value.split(['_', '.', '@', '-']).next().unwrap_or("")
}

/// The language to use: `--lang` when given, else the first set of `LC_ALL`, `LC_MESSAGES` and
/// `LANG` (POSIX's order), else English; a language without a catalogue is English, silently.
pub fn pick(flag: Option<&str>, env: impl Fn(&str) -> Option<String>) -> &'static str {
    let wanted = match flag {
        Some(code) => code.to_string(),
        None => ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|name| env(name))
            .find(|value| !value.is_empty())
            .map(|value| locale_language(&value).to_ascii_lowercase())
            .unwrap_or_default(),
    };
    languages().find(|code| *code == wanted).unwrap_or(ENGLISH)
}

/// `--lang`: the language labctl speaks in.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct LangArgs {
    /// The language of labctl's messages: en or ja (default: the locale's, from LC_ALL, LC_MESSAGES or LANG,
    /// else English). The lab's files are the same in every language.
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    pub lang: Option<String>,
}

impl LangArgs {
    /// Sets the language from `--lang` or the locale.
    pub fn apply(&self) {
        choose(pick(self.lang.as_deref(), |name| std::env::var(name).ok()));
    }
}

fn parse_lang(text: &str) -> Result<String, String> {
    match languages().find(|code| *code == text) {
        Some(code) => Ok(code.to_string()),
        None => Err(tr!("lang-unknown", lang = text, languages = languages().collect::<Vec<_>>().join(", "))),
    }
}

/// Sets the language for the rest of the process (the first call wins).
pub fn choose(code: &str) {
    // `--help` chose it already (`help::choose_from_args`): the catalogues are not read twice.
    if CHOSEN.get().is_some() {
        return;
    }
    let english = catalogue(ENGLISH).unwrap_or_else(english_empty);
    let chosen = catalogue(code).or_else(|| catalogue(ENGLISH)).unwrap_or_else(english_empty);
    let _ = CHOSEN.set(Chosen { chosen, english });
}

/// An English catalogue with no messages (only if English's file failed to load, which the tests
/// rule out).
fn english_empty() -> Catalogue {
    Catalogue { code: ENGLISH, bundle: FluentBundle::new_concurrent(Vec::new()) }
}

/// The language in use (English until [`choose`] is called). Asking reads no catalogue:
/// commands that say nothing translated (merge, validate, gen, ...) never parse one.
fn chosen_code() -> &'static str {
    CHOSEN.get().map_or(ENGLISH, |chosen| chosen.chosen.code)
}

/// The message `id` of the language in use, without falling back to English.
fn lookup(id: &str, args: Option<&FluentArgs>) -> Option<String> {
    format(&chosen().chosen, id, args)
}

/// The messages of `code`, for tests that compare languages (`None` when the
/// language has no catalogue).
#[cfg(test)]
pub fn lookup_in(code: &str) -> Option<impl Fn(&str, Option<&FluentArgs>) -> Option<String>> {
    let catalogue = catalogue(code)?;
    Some(move |id: &str, args: Option<&FluentArgs>| format(&catalogue, id, args))
}

fn chosen() -> &'static Chosen {
    CHOSEN.get_or_init(|| Chosen {
        chosen: catalogue(ENGLISH).unwrap_or_else(english_empty),
        english: catalogue(ENGLISH).unwrap_or_else(english_empty),
    })
}

/// The message `id` in the language in use (else in English, else the id itself), with `args`.
pub fn message(id: &str, args: Option<&FluentArgs>) -> String {
    let chosen = chosen();
    [&chosen.chosen, &chosen.english].into_iter().find_map(|c| format(c, id, args)).unwrap_or_else(|| id.to_string())
}

fn format(catalogue: &Catalogue, id: &str, args: Option<&FluentArgs>) -> Option<String> {
    let pattern = catalogue.bundle.get_message(id)?.value()?;
    let mut errors = Vec::new();
    Some(catalogue.bundle.format_pattern(pattern, args, &mut errors).into_owned())
}

/// Says a message in the learner's language: `tr!("id")`, `tr!("id", step = 6, file = name)`.
/// Strings are passed as text, integers as numbers (plural forms choose by them).
macro_rules! tr {
    ($id:literal) => {
        $crate::i18n::message($id, None)
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = fluent_bundle::FluentArgs::new();
        $(args.set(stringify!($name), fluent_bundle::FluentValue::from($value));)+
        $crate::i18n::message($id, Some(&args))
    }};
}
pub(crate) use tr;

#[cfg(test)]
mod tests {
    use super::*;

    /// Each message of a catalogue with the placeholders it uses (sorted), by id; `Err` names what
    /// does not parse.
    fn placeholders(source: &str) -> Result<std::collections::BTreeMap<String, Vec<String>>, String> {
        use fluent_syntax::ast;
        fn walk(elements: &[ast::PatternElement<&str>], out: &mut Vec<String>) {
            for element in elements {
                if let ast::PatternElement::Placeable { expression } = element {
                    expression_names(expression, out);
                }
            }
        }
        fn expression_names(expression: &ast::Expression<&str>, out: &mut Vec<String>) {
            match expression {
                ast::Expression::Select { selector, variants } => {
                    inline_names(selector, out);
                    for variant in variants {
                        walk(&variant.value.elements, out);
                    }
                }
                ast::Expression::Inline(inline) => inline_names(inline, out),
            }
        }
        fn inline_names(inline: &ast::InlineExpression<&str>, out: &mut Vec<String>) {
            match inline {
                ast::InlineExpression::VariableReference { id } => out.push(id.name.to_string()),
                ast::InlineExpression::Placeable { expression } => expression_names(expression, out),
                _ => {}
            }
        }
        let resource = fluent_syntax::parser::parse(source).map_err(|(_, errors)| format!("{errors:?}"))?;
        let mut out = std::collections::BTreeMap::new();
        for entry in &resource.body {
            if let ast::Entry::Message(message) = entry {
                let mut names = Vec::new();
                if let Some(value) = &message.value {
                    walk(&value.elements, &mut names);
                }
                names.sort();
                names.dedup();
                out.insert(message.id.name.to_string(), names);
            }
        }
        Ok(out)
    }

    /// Every language has exactly English's messages, each with the same placeholders, and every
    /// message labctl's code says exists.
    #[test]
    fn every_language_has_every_message_with_the_same_placeholders() {
        let english = placeholders(CATALOGUES.iter().find(|(c, _)| *c == ENGLISH).expect("en.ftl").1).expect("en.ftl");
        assert!(languages().any(|c| c == "ja"));
        for (code, source) in CATALOGUES {
            let theirs = placeholders(source).unwrap_or_else(|e| panic!("{code}.ftl does not parse: {e}"));
            let missing: Vec<_> = english.keys().filter(|id| !theirs.contains_key(*id)).collect();
            let extra: Vec<_> = theirs.keys().filter(|id| !english.contains_key(*id)).collect();
            assert!(missing.is_empty() && extra.is_empty(), "{code}.ftl: missing {missing:?}, not in en.ftl {extra:?}");
            for (id, names) in &english {
                assert_eq!(&theirs[id], names, "{code}.ftl: placeholders of {id}");
            }
            assert!(catalogue(code).is_some(), "{code}.ftl loads into a bundle");
        }
        for id in used_ids() {
            assert!(english.contains_key(&id), "tr!(\"{id}\") has no message in en.ftl");
        }
        for step in 1..=9 {
            assert!(english.contains_key(&format!("step-title-{step}")));
        }
    }

    /// The ids of every `tr!("id"...)` in labctl's sources.
    fn used_ids() -> Vec<String> {
        fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("src") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    files(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let mut paths = Vec::new();
        files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut paths);
        let mut ids = Vec::new();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("source");
            // Skipped: the search pattern itself, a string literal.
            for (at, _) in text.match_indices("tr!(").filter(|(at, _)| !text[..*at].ends_with('"')) {
                let rest = text[at + 4..].trim_start();
                if let Some(quoted) = rest.strip_prefix('"') {
                    ids.push(quoted.split('"').next().unwrap_or_default().to_string());
                }
            }
        }
        ids.retain(|id| id != "id");
        ids
    }

    #[test]
    fn the_language_comes_from_the_flag_then_the_locale() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(pick(Some("ja"), env(&[("LANG", "en_US.UTF-8")])), "ja");
        assert_eq!(pick(None, env(&[("LANG", "ja_JP.UTF-8")])), "ja");
        assert_eq!(pick(None, env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "ja_JP.UTF-8")])), "en");
        assert_eq!(pick(None, env(&[("LC_ALL", ""), ("LC_MESSAGES", "ja_JP"), ("LANG", "C")])), "ja");
        assert_eq!(pick(None, env(&[("LANG", "C")])), "en");
        assert_eq!(pick(None, env(&[("LANG", "fr_FR.UTF-8")])), "en");
        assert_eq!(pick(Some("xx"), env(&[])), "en");
        assert_eq!(pick(None, env(&[])), "en");
    }
}
