//! `labctl gen secrets` and `labctl gen config`: talosctl v1.13.9's `gen` commands, flag for
//! flag and text for text, except that files holding secrets are written 0600, nothing is
//! written unless everything can be, and Talos's documentation comments are not reproduced.

mod flags;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use talos_config::generate::{self, GenOptions, GenPatches, Input, SecretsBundle, VersionContract};
use talos_config::{Config, PatchSource, load_patches};

use self::flags::{Kind, Spec, go_quote};
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

const GEN_HELP: &str = "Generate a secrets bundle and machine configs as talosctl gen does.

Usage:
  labctl gen secrets [flags]
  labctl gen config <cluster name> <cluster endpoint> [flags]

Run `labctl gen secrets --help` or `labctl gen config --help` for the flags.
";

const CONFIG_HELP: &str = "Generate controlplane.yaml, worker.yaml and talosconfig for a cluster, byte for byte as
talosctl v1.13.9's `gen config` does (without Talos's documentation comments). The endpoint is
the Kubernetes API URL, e.g. https://10.5.0.2:6443. Files are written 0600.

Usage:
  labctl gen config <cluster name> <cluster endpoint> [flags]

Flags:
      --additional-sans strings                  extra names for the API server certificate
      --config-patch stringArray                 patch for every config (inline, or @file)
      --config-patch-control-plane stringArray   patch for the control-plane config
      --config-patch-worker stringArray          patch for the worker config
      --dns-domain string                        cluster DNS domain (default \"cluster.local\")
  -f, --force                                    overwrite existing files
  -h, --help                                     this help
      --install-disk string                      install disk (default \"/dev/sda\")
      --install-image string                     installer image (default from the TAG environment variable, else \"ghcr.io/siderolabs/installer:v1.13.9\")
      --kubernetes-version string                Kubernetes version (default \"1.36.3\")
  -o, --output string                            output directory; a file, or \"-\" for stdout, with one output type
  -t, --output-types strings                     controlplane, worker, talosconfig (default all three)
      --registry-mirror strings                  <registry host>=<mirror URL>
      --talos-version string                     Talos version contract, e.g. v1.11 (default current)
      --version string                           machine config version (default \"v1alpha1\")
      --with-cluster-discovery                   cluster discovery (default true)
      --with-docs                                must be false: Talos's documentation comments are not reproduced
      --with-examples                            must be false: Talos's examples are not reproduced
      --with-kubespan                            enable KubeSpan
      --with-secrets string                      secrets bundle from `labctl gen secrets`
";

const SECRETS_HELP: &str = "Generate a secrets bundle (keys, certificates and tokens) as talosctl v1.13.9's
`gen secrets` does. The file is written 0600.

Usage:
  labctl gen secrets [flags]

Flags:
  -f, --force                               overwrite an existing file
      --from-controlplane-config string     take the secrets of this control-plane config
  -p, --from-kubernetes-pki string          take the CAs and key of a Kubernetes PKI directory
  -h, --help                                this help
  -t, --kubernetes-bootstrap-token string   bootstrap token for --from-kubernetes-pki
  -o, --output-file string                  output file, or \"-\" for stdout (default \"secrets.yaml\")
      --talos-version string                Talos version contract, e.g. v1.6 (default current)
";

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
    Spec { long: "registry-mirror", short: None, kind: Kind::Slice },
    Spec { long: "talos-version", short: None, kind: Kind::String },
    Spec { long: "version", short: None, kind: Kind::String },
    Spec { long: "with-cluster-discovery", short: None, kind: Kind::Bool },
    Spec { long: "with-docs", short: None, kind: Kind::Bool },
    Spec { long: "with-examples", short: None, kind: Kind::Bool },
    Spec { long: "with-kubespan", short: None, kind: Kind::Bool },
    Spec { long: "with-secrets", short: None, kind: Kind::String },
];

const OUTPUT_TYPES: [&str; 3] = ["controlplane", "worker", "talosconfig"];

fn config(args: &[String]) -> Result<(), CliError> {
    let parsed = flags::parse(args, CONFIG_FLAGS).map_err(|e| usage_error(e, CONFIG_HELP))?;
    if parsed.help {
        return print_stdout(CONFIG_HELP.as_bytes());
    }
    if parsed.positional.len() != 2 {
        let text = format!("accepts 2 arg(s), received {}", parsed.positional.len());
        return Err(usage_error(text, CONFIG_HELP));
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
    let options = gen_options(&parsed)?;
    let secrets = match parsed.string("with-secrets").filter(|s| !s.is_empty()) {
        Some(path) => Some(load_bundle(path)?),
        None => None,
    };
    let patches = read_gen_patches(&parsed)?;
    stderr_line("generating PKI and tokens");
    let now = SystemTime::now();
    let secrets = match secrets {
        Some(bundle) => bundle,
        None => SecretsBundle::generate(options.contract, now).map_err(|e| CliError::new(e.to_string()))?,
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

/// The generation options the flags choose.
fn gen_options(parsed: &flags::Parsed) -> Result<GenOptions, CliError> {
    let mut options = GenOptions::default();
    for mirror in parsed.list("registry-mirror").unwrap_or_default() {
        let (host, url) = mirror
            .split_once('=')
            .ok_or_else(|| CliError::new(format!("invalid registry mirror spec: {}", go_quote(mirror))))?;
        options.registry_mirrors.entry(host.to_string()).or_default().push(url.to_string());
    }
    if let Some(version) = parsed.string("talos-version").filter(|v| !v.is_empty()) {
        options.contract = contract(version)?;
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
    options.install_image = match parsed.string("install-image") {
        Some(image) => image.to_string(),
        None => match std::env::var("TAG") {
            Ok(tag) => format!("ghcr.io/siderolabs/installer:{tag}"),
            Err(_) => generate::DEFAULT_INSTALL_IMAGE.to_string(),
        },
    };
    options.additional_sans = parsed.list("additional-sans").unwrap_or_default().to_vec();
    if let Some(domain) = parsed.string("dns-domain") {
        options.dns_domain = domain.to_string();
    }
    options.cluster_discovery = parsed.bool("with-cluster-discovery", true);
    Ok(options)
}

fn contract(version: &str) -> Result<VersionContract, CliError> {
    version.parse().map_err(|e| CliError::new(format!("invalid talos-version: {e}")))
}

/// Reads and checks `--with-secrets` as talosctl does.
fn load_bundle(path: &str) -> Result<SecretsBundle, CliError> {
    let bytes = crate::input::read_file(Path::new(path))
        .map_err(|e| CliError::new(format!("failed to load secrets bundle: {}", e.message)))?;
    let bundle =
        SecretsBundle::from_yaml(&bytes).map_err(|e| CliError::new(format!("failed to load secrets bundle: {e}")))?;
    bundle.validate().map_err(|e| CliError::new(format!("failed to validate secrets bundle: {e}")))?;
    Ok(bundle)
}

/// The three patch flags, loaded as talosctl loads them (`@file` or inline text).
fn read_gen_patches(parsed: &flags::Parsed) -> Result<GenPatches, CliError> {
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
        load_patches(sources).map_err(|e| CliError::new(format!("error parsing config JSON patch: {e}")))
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
fn from_kubernetes_pki(dir: &Path, token: &str, contract: VersionContract) -> Result<SecretsBundle, String> {
    let meta = std::fs::metadata(dir).map_err(|e| crate::input::path_error_text("stat", dir, &e))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", go_quote(&dir.display().to_string())));
    }
    let read = |name: &str| {
        // Go's filepath.Join: the directory's path cleaned, then the name.
        let path = PathBuf::from(go_join(&dir.display().to_string(), name));
        crate::input::read_file(&path).map_err(|e| e.message)
    };
    SecretsBundle::from_kubernetes_pki(read, token, contract, SystemTime::now()).map_err(|e| e.to_string())
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
    Spec { long: "talos-version", short: None, kind: Kind::String },
];

fn secrets(args: &[String]) -> Result<(), CliError> {
    let parsed = flags::parse(args, SECRETS_FLAGS).map_err(|e| usage_error(e, SECRETS_HELP))?;
    if parsed.help {
        return print_stdout(SECRETS_HELP.as_bytes());
    }
    if let Some(extra) = parsed.positional.first() {
        let text = format!("unknown command {} for \"labctl gen secrets\"", go_quote(extra));
        return Err(usage_error(text, SECRETS_HELP));
    }
    let contract = match parsed.string("talos-version").filter(|v| !v.is_empty()) {
        Some(version) => contract(version)?,
        None => VersionContract::CURRENT,
    };
    let bundle = if let Some(dir) = parsed.string("from-kubernetes-pki").filter(|d| !d.is_empty()) {
        let token = parsed.string("kubernetes-bootstrap-token").unwrap_or_default();
        from_kubernetes_pki(Path::new(dir), token, contract)
            .map_err(|e| CliError::new(format!("failed to create secrets bundle: {e}")))?
    } else if let Some(path) = parsed.string("from-controlplane-config").filter(|p| !p.is_empty()) {
        let load_error = |text: String| CliError::new(format!("failed to load controlplane config: {text}"));
        let bytes = crate::input::read_file(Path::new(path)).map_err(|e| load_error(e.message))?;
        let config = Config::from_bytes(&bytes).map_err(|e| load_error(e.to_string()))?;
        // talosctl crashes on a config without the v1alpha1 document.
        SecretsBundle::from_config(&config).ok_or_else(|| CliError {
            message: format!(
                "labctl gen secrets: {path} has no v1alpha1 document (machine, cluster): no secrets to take"
            ),
            notes: vec!["give the controlplane.yaml that gen config wrote".into()],
            exit_code: None,
        })?
    } else {
        SecretsBundle::generate(contract, SystemTime::now())
            .map_err(|e| CliError::new(format!("failed to create secrets bundle: {e}")))?
    };
    let text = bundle.to_yaml();
    let output = parsed.string("output-file").unwrap_or("secrets.yaml");
    write_outputs(&[(PathBuf::from(output), text.into_bytes())], parsed.bool("force", false), false)
}
