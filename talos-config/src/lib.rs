//! Talos Linux v1.13 machine configuration, offline: load configs and patches, apply strategic
//! merge and JSON6902 patches, and encode the result **byte for byte** as
//! `talosctl machineconfig patch` (Talos v1.13.9) does, with the same error texts.
//!
//! ```
//! use talos_config::{PatchSource, apply_patches, load_patches};
//!
//! let base = b"version: v1alpha1\nmachine:\n  type: worker\n";
//! let patches = load_patches([PatchSource::new("labels.yaml", "machine:\n  nodeLabels:\n    pool: blue\n")])?;
//! let merged = apply_patches(base, &patches)?;
//! assert_eq!(
//!     String::from_utf8_lossy(&merged),
//!     "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        pool: blue\ncluster: null\n"
//! );
//! # Ok::<(), talos_config::Error>(())
//! ```
//!
//! What a user needs is at the crate root: [`Config`] (load, encode, [`Config::validate`]),
//! the patch pipeline ([`load_patches`], [`apply_patches`], [`PatchSource`], [`Patch`]), validation
//! ([`Mode`], [`Options`], [`Report`], [`ValidationError`], [`Issue`]) and errors ([`Error`],
//! [`Location`]). The public modules:
//!
//! - [`model`]: the typed model of every document kind Talos v1.13.9 registers, read through
//!   [`Config::get`] and [`Config::docs`];
//! - [`node`]: what a node answers to `ApplyConfiguration` ([`node::check_apply`]);
//! - [`labels`]: Kubernetes label, annotation and taint checks with Talos's texts;
//! - [`net`]: CIDR prefixes parsed as Go's `netip` does, and overlap tests;
//! - [`subnets`]: pod/service subnets against host ranges (a check Talos never makes);
//! - [`lint`]: what Talos accepts and the node then breaks on (unknown kubelet flags, refused
//!   extraArgs, NodeRestriction labels, user files, ...), each finding at the patch line that
//!   caused it;
//! - [`provenance`]: which input (and line) set each value of a merged config;
//! - [`kubelet`]: the flags kubelet v1.36 accepts, as Talos starts it;
//! - [`plan`]: whether a node applies a new config live or reboots (`--mode auto`), and why;
//! - [`diff`]: Talos's config diff (the dry run's `Config diff`).
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

mod config;
mod delete;
pub mod diff;
mod document;
mod error;
mod go;
mod json6902;
pub mod kubelet;
pub mod labels;
pub mod lint;
pub mod model;
pub mod net;
mod patch;
pub mod plan;
pub mod provenance;
pub mod subnets;
#[cfg(feature = "testing")]
pub mod testing;
mod validate;
mod value;

pub use config::Config;
pub use document::{Document, Kind};
pub use error::{Error, Location};
pub use patch::{Patch, PatchArg, PatchSource, apply_patches, apply_patches_to_config, load_patches, merge_sources};
pub use validate::node;
pub use validate::{Issue, Mode, Options, Report, ValidationError};

/// The crate README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
