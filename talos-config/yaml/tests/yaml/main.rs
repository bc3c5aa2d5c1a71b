//! talos-yaml's tests as one binary: the parser against go-yaml v4's behaviour (positions, styles,
//! tags, errors) and the two emitters against the byte-exact probe tables of go-yaml v4 and
//! yaml.v2.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod comments;
mod dialects;
mod emit_v2_probes;
mod emit_v4_probes;
mod parse_yaml;
