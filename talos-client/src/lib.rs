//! The Talos v1.13 gRPC API over Ed25519 mutual TLS.
//!
//! `talos-client` speaks to Talos's apid like `talosctl` does: it loads a talosconfig ([`config`]), opens a
//! mutually authenticated TLS channel ([`Client::connect`]), targets nodes through apid's `nodes`/`node` metadata
//! ([`Target`]), turns in-band per-node errors into [`Error`]s ([`reply`]), and offers typed calls for the lab's
//! commands: version, services, logs, resources (`get`), kubeconfig, apply-config and `patch mc`.
//! [`proto`] exposes the generated messages, clients and servers (the simulator serves the same API).
//!
//! ```no_run
//! use talos_client::{ApplyOptions, Client, ClientOptions, LogsRequest, Talosconfig, Target};
//! # async fn demo() -> Result<(), talos_client::Error> {
//! let config = Talosconfig::load(None)?; // --talosconfig, $TALOSCONFIG or ~/.talos/config
//! let client = Client::connect(&config, ClientOptions::default()).await?;
//! let worker = Target::node("10.5.0.3");
//! println!("{}", client.version(&worker).await?.tag);
//! let kubelet = client.service(&worker, "kubelet").await?;
//! println!("kubelet: {} {}", kubelet.state, kubelet.health_text());
//! for line in client.logs_lines(&worker, &LogsRequest::service("kubelet")).await? {
//!     println!("{}: {}", line.node, line.line);
//! }
//! let patch = talos_config::load_patches([talos_config::PatchSource::new("p", "machine:\n  nodeLabels:\n    pool: blue\n")])?;
//! let outcome = client.patch_machine_config("10.5.0.3", &patch, ApplyOptions::default()).await?;
//! println!("config version {} -> {:?}", outcome.version_before, outcome.version_after);
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

pub mod client;
pub mod config;
pub mod error;
pub mod proto;
pub mod reply;

pub use client::{
    ACTIVE_CONFIG_ID, ApplyMode, ApplyOptions, ApplyResult, Client, ClientOptions, EventType, LogLine, LogStream,
    LogsRequest, MACHINE_CONFIG, MEMBERS, MachineConfig, Member, PatchOutcome, Resource, ResourceKind, SERVICES,
    ServiceEvent, ServiceInfo, ServiceResource, Target, VersionInfo, WatchEvent, WatchStream,
};
pub use config::{Context, Endpoint, Talosconfig};
pub use error::{APPLY_IN_PROGRESS, Code, Error, ErrorKind, RefusedBy, Result, TlsRefusal};

/// The README's example, compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
