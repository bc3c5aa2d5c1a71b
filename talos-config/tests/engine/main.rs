//! talos-config's integration tests as one test binary (one link instead of twenty-six): the
//! conformance runs over Talos v1.13.9's own test data (`TALOS_PEER_DIR`), the YAML parser and
//! emitters, decoding and encoding of every document kind, merge rules, JSON6902, validation,
//! labels and CIDRs, and the property tests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod conformance;
mod container;
mod decoder;
mod emit_documents;
mod emit_v2_probes;
mod emit_v4_probes;
mod json6902_e2e;
mod labels;
mod large;
mod model_kinds;
mod model_kinds_common;
mod model_kinds_merge;
mod model_network_hostname;
mod model_network_merge;
mod model_network_roundtrip;
mod model_network_types;
mod model_network_util;
mod model_v1alpha1;
mod module_graph;
mod net;
mod parse_yaml;
mod properties;
mod rules;
mod validate_kinds;
mod validate_snapshots;
mod validate_v1alpha1;
