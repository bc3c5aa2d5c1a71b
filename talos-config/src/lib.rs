//! Talos Linux v1.13 machine configuration, offline.

extern crate self as talos_config;

pub mod document;
pub mod model;
pub mod yaml;
pub mod json6902;
pub mod value;
