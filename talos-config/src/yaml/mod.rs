//! YAML text handling: the node tree, the parser, go-yaml v4 style and yaml.v2 style emitters,
//! and the plain-scalar resolution rules both Go libraries use.

pub mod emit_v2;
pub mod emit_v4;
pub mod node;
pub mod parse;
pub mod resolve;

pub use node::{CollectionStyle, Mark, Node, NodeValue, Scalar, ScalarStyle};
