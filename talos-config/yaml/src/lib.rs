#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod emit_v2;
pub mod emit_v4;
pub mod node;
pub mod parse;
pub mod resolve;

pub use node::{CollectionStyle, Comments, Mark, Node, NodeValue, Origin, Scalar, ScalarStyle};

/// The go-yaml v4 release whose rules the parser and the emitter follow: its error texts, the
/// inputs it accepts and how it writes some scalars. Talos v1.12 pins v4.0.0-rc.3, Talos v1.13
/// v4.0.0-rc.4 and Talos v1.14 v4.0.0-rc.6.
///
/// * rc.3: one position at most (`yaml: line 5: <problem>`), no offset for reader errors, no
///   position for unknown anchors; 1024-character implicit keys, `[:x]` refused, `,[]` allowed
///   in tags, DEL and C1 controls refused.
/// * rc.4: context and problem positions (`yaml: while scanning for the next token at line 5:
///   <problem>`), parser lines printed 0-based (a go-yaml quirk); no key limit, `[:x]` is `:x`.
/// * rc.6: every error is a `go-yaml load error in <stage> [(<context>)] at L5.C1[-L6.C2]:
///   <problem>` with true 1-based lines and columns, reader errors name the bad value; a `:`
///   before `,` `]` `}` in a flow collection ends a plain scalar (`[a:]` is `[{a: null}]`),
///   `...` may come before the first document, a block scalar at a document's top level may
///   have its text at column 1, and the emitter single-quotes Go strings that YAML 1.1 would
///   read as booleans or base-60 numbers (`'yes'`, `'1:20'`, `'<<'`) and writes a read `<<`
///   key without its `!!merge` tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// go.yaml.in/yaml/v4 v4.0.0-rc.3 (Talos v1.12.11).
    V4Rc3,
    /// go.yaml.in/yaml/v4 v4.0.0-rc.4 (Talos v1.13.9; the default).
    #[default]
    V4Rc4,
    /// go.yaml.in/yaml/v4 v4.0.0-rc.6 (Talos v1.14.0-rc.1).
    V4Rc6,
}
