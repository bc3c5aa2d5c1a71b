//! go-yaml-compatible YAML for Talos Linux tooling: what Talos's Go code does with YAML text,
//! reproduced byte for byte, so that a Rust tool prints exactly what `talosctl` prints.
//!
//! - [`parse`]: YAML 1.1/1.2 text to a [`Node`] tree with go-yaml v4's positions, styles, tags
//!   and error texts (libyaml's algorithm);
//! - [`node`]: the node tree ([`Node`], [`Scalar`], [`Mark`], styles);
//! - [`emit_v4`]: the go-yaml v4 emitter (what Talos's encoder writes, 4-space indent);
//! - [`emit_v2`]: the yaml.v2 emitter (what JSON6902 steps round-trip through);
//! - [`resolve`]: how each Go library resolves a plain scalar (null, bool, int, float,
//!   timestamp), Go's number parsing and float formatting, and the key order of both emitters.
//!
//! ```
//! use talos_yaml::{emit_v4::emit_v4, parse::parse_documents};
//!
//! // Styles survive a round trip, as in go-yaml: block mappings are re-indented to 4 spaces,
//! // a flow mapping stays a flow mapping.
//! let docs = parse_documents(b"machine:\n  nodeLabels: {pool: blue}\n")?;
//! assert_eq!(emit_v4(&docs[0]), "machine:\n    nodeLabels: {pool: blue}\n");
//! # Ok::<(), talos_yaml::parse::YamlError>(())
//! ```
//!
//! No I/O: callers hand over bytes and get text back.

#![deny(missing_docs)]

pub mod emit_v2;
pub mod emit_v4;
pub mod node;
pub mod parse;
pub mod resolve;

pub use node::{CollectionStyle, Mark, Node, NodeValue, Scalar, ScalarStyle};
