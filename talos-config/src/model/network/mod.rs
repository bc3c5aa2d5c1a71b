//! Document kinds of upstream `pkg/machinery/config/types/network`.

use crate::document::{KindEntry, entry};

mod hostname;
pub mod types;

pub use hostname::HostnameConfig;

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<HostnameConfig>()];
