//! The Talos v1.13 gRPC API over Ed25519 mutual TLS.
//!
//! `talos-client` speaks to Talos's apid like `talosctl` does: it loads a talosconfig, opens a mutually
//! authenticated TLS channel, targets nodes through apid's `nodes`/`node` metadata, turns in-band per-node errors
//! into errors, and offers typed calls for the lab's commands. [`proto`] exposes the generated messages, clients
//! and servers (the simulator serves the same API).

pub mod proto;
