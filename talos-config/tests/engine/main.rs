//! talos-config's integration tests as one test binary (one link instead of twenty-three): the
//! conformance runs over Talos v1.13.9's own test data (`TALOS_PEER_DIR`), decoding and encoding
//! of every document kind, merge rules, JSON6902, validation, labels and CIDRs, the property
//! tests, the module graph, and the workspace's file and function size limits (`code_shape`). The
//! YAML layer's own tests are in talos-yaml.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cel;
mod check;
mod cluster;
mod code_shape;
mod common;
mod conformance;
mod container;
mod decoder;
mod diff_patch;
mod emit_documents;
mod generate;
mod generate_fresh;
mod generate_v1_12;
mod generate_v1_14;
mod go_type_names;
mod hostile;
mod json6902_e2e;
mod labels;
mod large;
mod lint;
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
mod plan;
mod properties;
mod provenance;
mod redacted;
mod releases;
mod rules;
mod secrets_bundle;
#[cfg(feature = "serde")]
mod serde;
mod stack_depth;
mod upgrade;
mod upgrade_rewrite;
mod v1_14_k8s;
mod v1_14_kinds;
mod validate_kinds;
mod validate_snapshots;
mod validate_v1alpha1;
