//! Talos Linux v1.13 machine configuration, offline: merge a base config and patches, validate
//! and lint the result, and encode it **byte for byte** as `talosctl machineconfig patch`
//! (Talos v1.13.9) does, with the same error texts.
//!
//! The CI job, in one call: [`check`] merges, validates like `talosctl validate` and, when
//! asked, runs the lint rules; every problem is a [`Diagnostic`] at the input line that caused it.
//!
//! ```
//! use talos_config::{CheckOptions, PatchSource, check};
//!
//! let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
//! let patch = PatchSource::new("labels.yaml", "machine:\n  nodeLabels:\n    pool: blue\n");
//! let checked = check(&base, &[patch], &CheckOptions::default())?;
//! assert_eq!(
//!     String::from_utf8_lossy(checked.merged().unwrap()),
//!     "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        pool: blue\ncluster: null\n"
//! );
//! for diagnostic in checked.diagnostics() {
//!     println!("{diagnostic}"); // worker.yaml:3:3: error[talos-validation]: ...
//! }
//! # Ok::<(), talos_config::Error>(())
//! ```
//!
//! At the crate root:
//! - the front door: [`check`] (and [`check_owned`], for inputs given away), [`CheckOptions`],
//!   [`Checks`], [`Checked`];
//! - what it reports: [`Diagnostic`], [`Severity`], and where: [`DocumentId`], [`FieldPath`]
//!   (with [`Segment`]), [`Site`];
//! - the config: [`Config`] (load, encode, read typed documents through [`Config::get`] or
//!   [`Config::v1alpha1`], [`Config::validate`] with [`Mode`] and [`Options`] into a
//!   [`Report`] and [`ValidationError`]), and what every document answers ([`Document`],
//!   [`Kind`]);
//! - the patch pipeline: [`PatchSource`], [`Patch`], [`load_patches`], [`apply_patches`],
//!   [`merge_sources`];
//! - errors: [`Error`] with its [`ErrorKind`].
//!
//! The modules:
//! - [`model`]: the typed model of every document kind Talos v1.13.9 registers (with the
//!   `serde` feature, every type is `Serialize` and `Deserialize` with Talos's key names);
//! - [`lint`]: the rules behind [`Checks::Lint`], documented;
//! - [`provenance`]: which input (and line) set each value of a merged config;
//! - [`plan`]: whether a node applies a new config live or reboots (`--mode auto`), and why;
//! - [`diff`]: Talos's config diff, two configs compared with secrets redacted, and the patch
//!   between them;
//! - [`node`]: what a node answers to `ApplyConfiguration`;
//! - [`upgrade`]: what a config set means on another release, before the nodes run it;
//! - [`cluster`]: the checks across every node config of one cluster;
//! - [`generate`]: the secrets bundle configs are made from (`secrets.yaml`);
//! - [`net`], [`kubelet`]: CIDR prefixes parsed as Go does, and the kubelet flags Talos starts
//!   kubelet v1.36 with.
//!
//! The YAML layer is the crate `talos-yaml` and Go's quoting the crate `talos-go`;
//! `talos-client` and `talos-sim` use them too. Inside, the engine is layered: `value` (per-type
//! decode, encode, merge and delete rules, carried by `#[derive(Talos)]`), `document` (what every
//! kind answers), `model`, `validate` (the checks), `delete` (`$patch: delete`), `config`
//! (loading, the container), `patch` and `json6902` (the pipeline). No I/O: callers read files
//! and hand over bytes.

#![deny(missing_docs)]

extern crate self as talos_config;

// The YAML layer and Go's formatting are crates of their own; these names keep the engine's paths.
use talos_go as gofmt;
use talos_yaml as yaml;

mod cel;
mod check;
pub mod cluster;
mod config;
mod delete;
mod diagnostic;
pub mod diff;
mod document;
mod error;
pub mod generate;
mod go;
mod json6902;
pub mod kubelet;
// Label checks are the validation's; the crate's tests reach them directly.
#[cfg(feature = "testing")]
pub mod labels;
#[cfg(not(feature = "testing"))]
mod labels;
pub mod lint;
pub mod model;
pub mod net;
mod patch;
mod path;
pub mod plan;
pub mod provenance;
mod redact;
mod release;
pub mod schema;
#[cfg(feature = "serde")]
mod serde_impl;
mod site;
pub mod subnets;
#[cfg(feature = "testing")]
pub mod testing;
pub mod upgrade;
mod validate;
mod value;
mod yaml_tree;

/// The Talos release whose behaviour this crate reproduces: merge, encoding, validation and
/// generation agree with it byte for byte and text for text.
pub const TALOS_VERSION: &str = "v1.13.9";

pub use check::{CheckOptions, Checked, Checks, check, check_owned};
pub use config::Config;
pub use diagnostic::{Diagnostic, Severity};
pub use document::DocumentId;
pub use document::{Document, Kind};
pub use error::{Error, ErrorKind};
pub use patch::{
    Patch, PatchSource, apply_patches, apply_patches_for, load_patches, load_patches_for, merge_sources,
    merge_sources_for,
};
pub use path::{FieldPath, Segment};
pub use release::{Release, UnknownRelease};
pub use site::Site;
pub use validate::node;
pub use validate::{Mode, Options, Report, ValidationError};

/// The crate README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
