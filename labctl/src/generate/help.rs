//! The help texts of `labctl gen`, per Talos release: the defaults differ, and only v1.12.11's
//! `gen config` has `-p/--persist` (v1.14's hidden `--skip-k8s-etcd` is not listed, as talosctl
//! hides it).

use talos_config::Release;
use talos_config::generate::GenOptions;

pub(super) const GEN_HELP: &str = "Generate a secrets bundle and machine configs as talosctl gen does.

Usage:
  labctl gen secrets [flags]
  labctl gen config <cluster name> <cluster endpoint> [flags]

Run `labctl gen secrets --help` or `labctl gen config --help` for the flags.
";

/// `--talos-release`'s line, the same in both commands, its text from column `width`.
fn release_line(width: usize) -> String {
    let text = "the talosctl release to act as: v1.12.11, v1.13.9 or v1.14.0-rc.1, or v1.12, v1.13, v1.14 (default \"v1.13.9\")";
    format!("{:<width$}{text}\n", "      --talos-release string")
}

/// `labctl gen config --help` for `release`.
pub(super) fn config_help(release: Release) -> String {
    let defaults = GenOptions::for_release(release);
    let persist = if release == Release::V1_12_11 {
        "  -p, --persist                                  the persist value of the configs (default true)\n"
    } else {
        ""
    };
    format!(
        "Generate controlplane.yaml, worker.yaml and talosconfig for a cluster, byte for byte as
talosctl {release}'s `gen config` does (without Talos's documentation comments). The endpoint is
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
      --install-image string                     installer image (default from the TAG environment variable, else \"{image}\")
      --kubernetes-version string                Kubernetes version (default \"{kubernetes}\")
  -o, --output string                            output directory; a file, or \"-\" for stdout, with one output type
  -t, --output-types strings                     controlplane, worker, talosconfig (default all three)
{persist}      --registry-mirror strings                  <registry host>=<mirror URL>
{release_line}      --talos-version string                     Talos version contract, e.g. v1.11 (default current)
      --version string                           machine config version (default \"v1alpha1\")
      --with-cluster-discovery                   cluster discovery (default true)
      --with-docs                                must be false: Talos's documentation comments are not reproduced
      --with-examples                            must be false: Talos's examples are not reproduced
      --with-kubespan                            enable KubeSpan
      --with-secrets string                      secrets bundle from `labctl gen secrets`
",
        release_line = release_line(49),
        image = defaults.install_image,
        kubernetes = defaults.kubernetes_version,
    )
}

/// `labctl gen secrets --help` for `release`.
pub(super) fn secrets_help(release: Release) -> String {
    format!(
        "Generate a secrets bundle (keys, certificates and tokens) as talosctl {release}'s
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
{}      --talos-version string                Talos version contract, e.g. v1.6 (default current)
",
        release_line(44)
    )
}
