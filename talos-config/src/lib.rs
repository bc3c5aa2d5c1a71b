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
//! The pieces, each in its own module: [`yaml`] (node tree, parser, the go-yaml v4 and yaml.v2
//! emitters), [`value`] (the per-type decode/encode/merge/delete rules), [`model`] (every
//! document kind Talos registers), [`config`] (loading, the document container), [`patch`]
//! (patch loading, `$patch: delete`, strategic merge, the pipeline), [`json6902`].
//! No I/O: callers read files and hand over bytes.

extern crate self as talos_config;

pub mod config;
mod delete;
pub mod document;
mod error;
pub mod gofmt;
pub mod json6902;
pub mod labels;
pub mod model;
pub mod net;
pub mod patch;
pub mod subnets;
pub mod validate;
pub mod value;
pub mod yaml;

pub use config::Config;
pub use error::{Error, Location};
pub use patch::{Patch, PatchArg, PatchSource, apply_patches, apply_patches_to_config, load_patches};
