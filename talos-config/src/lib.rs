//! Talos Linux v1.13 machine configuration, offline.

extern crate self as talos_config;

pub mod config;
pub mod document;
mod error;
pub mod json6902;
pub mod model;
pub mod patch;
pub mod value;
pub mod yaml;

pub use config::Config;
pub use error::{Error, Location};
pub use patch::{Patch, PatchArg, PatchSource, apply_patches, apply_patches_to_config, load_patches};
