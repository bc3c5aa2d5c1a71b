//! Document kinds of upstream `pkg/machinery/config/types/runtime` (and its `extensions`
//! sub-package).

use crate::document::{KindEntry, entry};

pub mod extensions;

pub use extensions::{ConfigFile, ConfigFileList, ExtensionServiceConfig};

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<ExtensionServiceConfig>()];
