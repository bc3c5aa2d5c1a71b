//! The typed model of every document kind Talos v1.13.9 registers, grouped as upstream groups
//! them (`pkg/machinery/config/types/<area>`).

pub mod block;
pub mod cluster;
pub mod container;
pub mod cri;
pub mod hardware;
pub mod k8s;
pub mod meta;
pub mod network;
pub(crate) mod registry;
pub mod runtime;
pub mod security;
pub mod siderolink;
pub mod storage;
#[cfg(feature = "testing")]
pub(crate) mod testing;
pub mod v1alpha1;

pub use crate::value::{Any, Duration, FileMode, NilableVec, Replaced, Unstructured};
