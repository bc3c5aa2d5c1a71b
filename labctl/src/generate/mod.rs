//! `labctl gen secrets` and `labctl gen config`: talosctl v1.13.9's `gen` commands, or
//! v1.12.11's or v1.14.0-rc.1's (`--talos-release v1.12.11` after `config`/`secrets`), flag for
//! flag and text for text, except that files holding secrets are written 0600, nothing is
//! written unless everything can be, Talos's documentation comments are not reproduced, and
//! where talosctl v1.14 crashes labctl answers (configs without a bootstrap token; an error
//! naming what a worker config lacks for `--from-controlplane-config`).

mod flags;
mod help;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use talos_config::generate::{self, GenOptions, GenPatches, Input, SecretsBundle, VersionContract};
use talos_config::{Config, PatchSource, Release, load_patches_for};

use self::flags::{Kind, Spec, go_quote};
use self::help::{GEN_HELP, config_help, secrets_help};
use crate::CliError;
use crate::atomic::{AtomicWrite, FileMode};

/// `labctl gen ARGS...`, the arguments as given after `gen`.
pub(crate) fn run(args: &[String]) -> Result<(), CliError> {
    match args.first().map(String::as_str) {
        Some("config") => config(&args[1..]),
        Some("secrets") => secrets(&args[1..]),
        Some("-h" | "--help") | None => {
            print_stdout(GEN_HELP.as_bytes())?;
            Ok(())
        }
        Some(other) => Err(usage_error(format!("unknown command {} for \"labctl gen\"", go_quote(other)), GEN_HELP)),
    }
}

/// A flag or argument error: talosctl's text, then where to find the usage.
fn usage_error(message: String, help: &str) -> CliError {
    let usage = help.split("\nUsage:\n").nth(1).and_then(|u| u.split("\n\n").next()).unwrap_or_default();
    CliError { message, notes: vec![String::new(), "Usage:".into(), usage.to_string()], exit_code: None }
}

fn print_stdout(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| CliError::new(format!("write stdout: {e}")))
}

fn stderr_line(line: &str) {
    let mut err = std::io::stderr().lock();
    // Nothing sensible is left to do if stderr itself fails.
    let _ = writeln!(err, "{line}");
}

const CONFIG_FLAGS: &[Spec] = &[
    Spec { long: "additional-sans", short: None, kind: Kind::Slice },
    Spec { long: "config-patch", short: None, kind: Kind::Array },
    Spec { long: "config-patch-control-plane", short: None, kind: Kind::Array },
    Spec { long: "config-patch-worker", short: None, kind: Kind::Array },
    Spec { long: "dns-domain", short: None, kind: Kind::String },
    Spec { long: "force", short: Some('f'), kind: Kind::Bool },
    Spec { long: "install-disk", short: None, kind: Kind::String },
    Spec { long: "install-image", short: None, kind: Kind::String },
    Spec { long: "kubernetes-version", short: None, kind: Kind::String },
    Spec { long: "output", short: Some('o'), kind: Kind::String },
    Spec { long: "output-dir", short: None, kind: Kind::String },
    Spec { long: "output-types", short: Some('t'), kind: Kind::Slice },
    Spec { long: "persist", short: Some('p'), kind: Kind::Bool },
    Spec { long: "registry-mirror", short: None, kind: Kind::Slice },
    Spec { long: "skip-k8s-etcd", short: None, kind: Kind::Bool },
    Spec { long: "talos-release", short: None, kind: Kind::Release },
    Spec { long: "talos-version", short: None, kind: Kind::String },
    Spec { long: "version", short: None, kind: Kind::String },
    Spec { long: "with-cluster-discovery", short: None, kind: Kind::Bool },
    Spec { long: "with-docs", short: None, kind: Kind::Bool },
    Spec { long: "with-examples", short: None, kind: Kind::Bool },
    Spec { long: "with-kubespan", short: None, kind: Kind::Bool },
    Spec { long: "with-secrets", short: None, kind: Kind::String },
];

/// `gen config`'s flags in `release`: `-p/--persist` is v1.12.11's only, the hidden
/// `--skip-k8s-etcd` v1.14's.
fn config_flags(release: Release) -> Vec<Spec> {
    CONFIG_FLAGS
        .iter()
        .filter(|s| release == Release::V1_12_11 || s.long != "persist")
        .filter(|s| release >= Release::V1_14_0_RC1 || s.long != "skip-k8s-etcd")
        .copied()
        .collect()
}

/// Parses `args` with the flags of the release they name (`--talos-release`), which is read
/// first with every release's flags, or, when they do not parse, from the last
/// `--talos-release` word.
fn parse_for_release(
    args: &[String],
    flags_of: fn(Release) -> Vec<Spec>,
    help_of: fn(Release) -> String,
) -> Result<(flags::Parsed, Release), CliError> {
    let release = match flags::parse(args, &flags_of(Release::V1_12_11)) {
        Ok(parsed) => parsed.string("talos-release").and_then(|r| r.parse().ok()).unwrap_or_default(),
        Err(_) => scan_release(args),
    };
    let parsed = flags::parse(args, &flags_of(release)).map_err(|e| usage_error(e, &help_of(release)))?;
    Ok((parsed, release))
}

/// The release the last `--talos-release` word names, before any `--`.
fn scan_release(args: &[String]) -> Release {
    let mut release = Release::DEFAULT;
    let mut words = args.iter().take_while(|a| *a != "--");
    while let Some(word) = words.next() {
        let value = match word.strip_prefix("--talos-release") {
            Some("") => words.next().map(String::as_str),
            Some(rest) => rest.strip_prefix('='),
            None => None,
        };
        release = value.and_then(|v| v.parse().ok()).unwrap_or(release);
    }
    release
}

const OUTPUT_TYPES: [&str; 3] = ["controlplane", "worker", "talosconfig"];

fn config(args: &[String]) -> Result<(), CliError> {
    let (parsed, release) = parse_for_release(args, config_flags, config_help)?;
    if parsed.help {
        return print_stdout(config_help(release).as_bytes());
    }
    if parsed.positional.len() != 2 {
        let text = format!("accepts 2 arg(s), received {}", parsed.positional.len());
        return Err(usage_error(text, &config_help(release)));
    }
    let (cluster_name, endpoint) = (&parsed.positional[0], &parsed.positional[1]);
    generate::check_endpoint(endpoint).map_err(|e| CliError::new(e.to_string()))?;
    let version = parsed.string("version").unwrap_or("v1alpha1");
    if version != "v1alpha1" {
        return Err(CliError::new(format!("unknown config version: {}", go_quote(version))));
    }
    let types: Vec<String> = match parsed.list("output-types") {
        Some(list) => list.to_vec(),
        None => OUTPUT_TYPES.iter().map(|t| t.to_string()).collect(),
    };
    let output = output_flag(&parsed, &types)?;
    if parsed.bool("with-docs", false) || parsed.bool("with-examples", false) {
        return Err(CliError {
            message: "labctl gen config: Talos's documentation comments and examples are not reproduced".into(),
            notes: vec![
                "leave out --with-docs and --with-examples, or pass --with-docs=false --with-examples=false".into(),
            ],
            exit_code: None,
        });
    }
    let paths = output_paths(&output, &types, parsed.string("output-dir").is_some())?;
    let options = gen_options(&parsed, release)?;
    let secrets = match parsed.string("with-secrets").filter(|s| !s.is_empty()) {
        Some(path) => Some(load_bundle(path, release, options.contract)?),
        None => None,
    };
    let patches = read_gen_patches(&parsed, release)?;
    stderr_line("generating PKI and tokens");
    let now = SystemTime::now();
    let secrets = match secrets {
        Some(bundle) => bundle,
        None => {
            SecretsBundle::generate_for(options.contract, now, release).map_err(|e| CliError::new(e.to_string()))?
        }
    };
    let input = Input::new(cluster_name.as_str(), endpoint.as_str(), secrets, options);
    let bundle_error = |e: talos_config::Error| CliError::new(format!("failed to generate config bundle: {e}"));
    let configs = input.configs(&patches).map_err(bundle_error)?;
    let mut outputs: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for (kind, path) in OUTPUT_TYPES.iter().zip([&paths.0, &paths.1, &paths.2]) {
        if !types.iter().any(|t| t == kind) {
            continue;
        }
        let bytes = match *kind {
            "controlplane" => configs.control_plane.encode().into_bytes(),
            "worker" => configs.worker.encode().into_bytes(),
            _ => input.talosconfig(now).map_err(|e| CliError::new(e.to_string()))?.into_bytes(),
        };
        outputs.push((path.clone(), bytes));
    }
    write_outputs(&outputs, parsed.bool("force", false), true)
}

/// `--output`, or `--output-dir` (kept by talosctl for compatibility), checked as talosctl does.
fn output_flag(parsed: &flags::Parsed, types: &[String]) -> Result<String, CliError> {
    let output = parsed.string("output").unwrap_or_default().to_string();
    if types.is_empty() {
        return Err(CliError::new("at least one output type must be specified"));
    }
    if types.len() > 1 && output == "-" {
        return Err(CliError::new("can't use multiple output types with stdout"));
    }
    let output_dir = parsed.string("output-dir").unwrap_or_default();
    if !output_dir.is_empty() && !output.is_empty() {
        return Err(CliError::new("can't use both output-dir and output"));
    }
    let invalid: Vec<String> = types
        .iter()
        .filter(|t| !OUTPUT_TYPES.contains(&t.as_str()))
        .map(|t| format!("* invalid output type: {}", go_quote(t)))
        .collect();
    if !invalid.is_empty() {
        let head = if invalid.len() == 1 {
            "1 error occurred:".to_string()
        } else {
            format!("{} errors occurred:", invalid.len())
        };
        return Err(CliError::new(format!("{head}\n\t{}\n\n", invalid.join("\n\t"))));
    }
    Ok(if output_dir.is_empty() { output } else { output_dir.to_string() })
}

/// Where each output goes (controlplane, worker, talosconfig), as talosctl decides: the
/// current directory by default, `-` for stdout, a file with one output type (unless
/// `--output-dir`), a directory otherwise.
fn output_paths(output: &str, types: &[String], output_dir: bool) -> Result<(PathBuf, PathBuf, PathBuf), CliError> {
    if output == "-" {
        return Ok(("-".into(), "-".into(), "-".into()));
    }
    let dir = if output.is_empty() {
        std::env::current_dir().map_err(|e| CliError::new(format!("getwd: {e}")))?
    } else if types.len() == 1 && !output_dir {
        return Ok((output.into(), output.into(), output.into()));
    } else {
        PathBuf::from(output)
    };
    Ok((dir.join("controlplane.yaml"), dir.join("worker.yaml"), dir.join("talosconfig")))
}

/// The generation options the flags choose, from `release`'s defaults.
fn gen_options(parsed: &flags::Parsed, release: Release) -> Result<GenOptions, CliError> {
    let mut options = GenOptions::for_release(release);
    for mirror in parsed.list("registry-mirror").unwrap_or_default() {
        let (host, url) = mirror
            .split_once('=')
            .ok_or_else(|| CliError::new(format!("invalid registry mirror spec: {}", go_quote(mirror))))?;
        options.registry_mirrors.entry(host.to_string()).or_default().push(url.to_string());
    }
    if let Some(version) = parsed.string("talos-version").filter(|v| !v.is_empty()) {
        options.contract = contract(version)?;
    }
    if parsed.bool("skip-k8s-etcd", false) {
        options.contract = options.contract.without_etcd().without_kubernetes();
    }
    if parsed.bool("with-kubespan", false) {
        options.kubespan = Some(true);
    }
    if let Some(v) = parsed.string("kubernetes-version") {
        options.kubernetes_version = v.strip_prefix('v').unwrap_or(v).to_string();
    }
    if let Some(disk) = parsed.string("install-disk") {
        options.install_disk = disk.to_string();
    }
    if let Some(image) = parsed.string("install-image") {
        options.install_image = image.to_string();
    } else if let Ok(tag) = std::env::var("TAG") {
        // The release's default installer image with the tag `TAG` names.
        let repository = options.install_image.rsplit_once(':').map_or("ghcr.io/siderolabs/installer", |(r, _)| r);
        options.install_image = format!("{repository}:{tag}");
    }
    options.additional_sans = parsed.list("additional-sans").unwrap_or_default().to_vec();
    if let Some(domain) = parsed.string("dns-domain") {
        options.dns_domain = domain.to_string();
    }
    options.cluster_discovery = parsed.bool("with-cluster-discovery", true);
    options.persist = parsed.bool("persist", true);
    Ok(options)
}

fn contract(version: &str) -> Result<VersionContract, CliError> {
    version.parse().map_err(|e| CliError::new(format!("invalid talos-version: {e}")))
}

/// Reads and checks `--with-secrets` as talosctl does (from v1.14 against the contract).
fn load_bundle(path: &str, release: Release, contract: VersionContract) -> Result<SecretsBundle, CliError> {
    let bytes = crate::input::read_file(Path::new(path))
        .map_err(|e| CliError::new(format!("failed to load secrets bundle: {}", e.message)))?;
    let bundle = SecretsBundle::from_yaml_for(&bytes, release)
        .map_err(|e| CliError::new(format!("failed to load secrets bundle: {e}")))?;
    bundle
        .validate_for(contract, release)
        .map_err(|e| CliError::new(format!("failed to validate secrets bundle: {e}")))?;
    Ok(bundle)
}

/// The three patch flags, loaded as talosctl loads them (`@file` or inline text).
fn read_gen_patches(parsed: &flags::Parsed, release: Release) -> Result<GenPatches, CliError> {
    let load = |flag: &str| -> Result<Vec<talos_config::Patch>, CliError> {
        let mut sources = Vec::new();
        for arg in parsed.list(flag).unwrap_or_default() {
            let source = match arg.strip_prefix('@') {
                Some(path) => {
                    let bytes = crate::input::read_file(Path::new(path))
                        .map_err(|e| CliError::new(format!("error parsing config JSON patch: {}", e.message)))?;
                    PatchSource::new(path, bytes)
                }
                None => PatchSource::new("inline patch", arg.as_bytes()),
            };
            sources.push(source);
        }
        load_patches_for(sources, release).map_err(|e| CliError::new(format!("error parsing config JSON patch: {e}")))
    };
    let mut patches = GenPatches::default();
    patches.all = load("config-patch")?;
    patches.control_plane = load("config-patch-control-plane")?;
    patches.worker = load("config-patch-worker")?;
    Ok(patches)
}

/// Writes every output, or none: existing files are refused (without `--force`) before anything
/// is written; each file is written atomically, 0600; `Created PATH` on stderr after each when
/// `announce` (as `gen config` does; `gen secrets` says nothing).
fn write_outputs(outputs: &[(PathBuf, Vec<u8>)], force: bool, announce: bool) -> Result<(), CliError> {
    if !force {
        for (path, _) in outputs {
            if path != Path::new("-") && std::fs::symlink_metadata(path).is_ok() {
                return Err(CliError::new(format!(
                    "file {} already exists, use --force to overwrite",
                    go_quote(&path.display().to_string())
                )));
            }
        }
    }
    let writer = AtomicWrite {
        mode: FileMode::Exact(0o600),
        follow_symlinks: true,
        temp_prefix: ".labctl-gen-",
        temp_suffix: ".tmp",
    };
    for (path, bytes) in outputs {
        if path == Path::new("-") {
            print_stdout(bytes)?;
            continue;
        }
        writer.write(path, bytes).map_err(|e| write_error(path, &e))?;
        if announce {
            stderr_line(&format!("Created {}", path.display()));
        }
    }
    Ok(())
}

/// The bundle of a Kubernetes PKI directory, its files read as Talos reads them.
fn from_kubernetes_pki(
    dir: &Path,
    token: &str,
    contract: VersionContract,
    release: Release,
) -> Result<SecretsBundle, String> {
    let meta = std::fs::metadata(dir).map_err(|e| crate::input::path_error_text("stat", dir, &e))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", go_quote(&dir.display().to_string())));
    }
    let read = |name: &str| {
        // Go's filepath.Join: the directory's path cleaned, then the name.
        let path = PathBuf::from(go_join(&dir.display().to_string(), name));
        crate::input::read_file(&path).map_err(|e| e.message)
    };
    SecretsBundle::from_kubernetes_pki_for(read, token, contract, SystemTime::now(), release).map_err(|e| e.to_string())
}

/// Go's `filepath.Join(dir, name)` for a relative name: slashes collapsed, `.` dropped.
fn go_join(dir: &str, name: &str) -> String {
    let joined = format!("{dir}/{name}");
    let absolute = joined.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            other => parts.push(other),
        }
    }
    let body = parts.join("/");
    if absolute { format!("/{body}") } else { body }
}

/// talosctl's text for a failed write: `mkdir` of the output directory, else `open` of the file.
fn write_error(path: &Path, err: &crate::atomic::WriteError) -> CliError {
    let errno = crate::input::go_errno_text(&err.source);
    match &err.step {
        crate::atomic::WriteStep::Mkdir(dir) => {
            CliError::new(format!("failed to create output dir: mkdir {}: {errno}", dir.display()))
        }
        _ => CliError::new(format!("open {}: {errno}", path.display())),
    }
}

const SECRETS_FLAGS: &[Spec] = &[
    Spec { long: "force", short: Some('f'), kind: Kind::Bool },
    Spec { long: "from-controlplane-config", short: None, kind: Kind::String },
    Spec { long: "from-kubernetes-pki", short: Some('p'), kind: Kind::String },
    Spec { long: "kubernetes-bootstrap-token", short: Some('t'), kind: Kind::String },
    Spec { long: "output-file", short: Some('o'), kind: Kind::String },
    Spec { long: "talos-release", short: None, kind: Kind::Release },
    Spec { long: "talos-version", short: None, kind: Kind::String },
];

/// `gen secrets`'s flags, the same in every release.
fn secrets_flags(_: Release) -> Vec<Spec> {
    SECRETS_FLAGS.to_vec()
}

fn secrets(args: &[String]) -> Result<(), CliError> {
    let (parsed, release) = parse_for_release(args, secrets_flags, secrets_help)?;
    if parsed.help {
        return print_stdout(secrets_help(release).as_bytes());
    }
    if let Some(extra) = parsed.positional.first() {
        let text = format!("unknown command {} for \"labctl gen secrets\"", go_quote(extra));
        return Err(usage_error(text, &secrets_help(release)));
    }
    let contract = match parsed.string("talos-version").filter(|v| !v.is_empty()) {
        Some(version) => contract(version)?,
        None => VersionContract::CURRENT,
    };
    let bundle = if let Some(dir) = parsed.string("from-kubernetes-pki").filter(|d| !d.is_empty()) {
        let token = parsed.string("kubernetes-bootstrap-token").unwrap_or_default();
        from_kubernetes_pki(Path::new(dir), token, contract, release)
            .map_err(|e| CliError::new(format!("failed to create secrets bundle: {e}")))?
    } else if let Some(path) = parsed.string("from-controlplane-config").filter(|p| !p.is_empty()) {
        let load_error = |text: String| CliError::new(format!("failed to load controlplane config: {text}"));
        let bytes = crate::input::read_file(Path::new(path)).map_err(|e| load_error(e.message))?;
        let config = Config::from_bytes_for(&bytes, release).map_err(|e| load_error(e.to_string()))?;
        // talosctl crashes on a config without the v1alpha1 document, and from v1.14 on one
        // without the Kubernetes CAs and service-account key (every worker config).
        SecretsBundle::from_config_for(&config, release).map_err(|e| CliError {
            message: format!(
                "labctl gen secrets: {path} {}",
                e.message().strip_prefix("the config ").unwrap_or(e.message())
            ),
            notes: vec!["give the controlplane.yaml that gen config wrote".into()],
            exit_code: None,
        })?
    } else {
        SecretsBundle::generate_for(contract, SystemTime::now(), release)
            .map_err(|e| CliError::new(format!("failed to create secrets bundle: {e}")))?
    };
    let text = bundle.to_yaml_for(release);
    let output = parsed.string("output-file").unwrap_or("secrets.yaml");
    write_outputs(&[(PathBuf::from(output), text.into_bytes())], parsed.bool("force", false), false)
}
