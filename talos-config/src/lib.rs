//! Talos Linux v1.13 machine configuration, offline.

pub mod yaml;
pub mod json6902;
