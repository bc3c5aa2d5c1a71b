#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod emit_v2;
pub mod emit_v4;
pub mod node;
pub mod parse;
pub mod resolve;

pub use node::{CollectionStyle, Comments, Mark, Node, NodeValue, Origin, Scalar, ScalarStyle};

/// The go-yaml v4 release whose texts the parser words its errors in. Talos v1.12 pins
/// v4.0.0-rc.3, Talos v1.13 v4.0.0-rc.4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// go.yaml.in/yaml/v4 v4.0.0-rc.3.
    V4Rc3,
    /// go.yaml.in/yaml/v4 v4.0.0-rc.4 (the default).
    #[default]
    V4Rc4,
}
