#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod emit_v2;
pub mod emit_v4;
pub mod node;
pub mod parse;
pub mod resolve;

pub use node::{CollectionStyle, Comments, Mark, Node, NodeValue, Origin, Scalar, ScalarStyle};
