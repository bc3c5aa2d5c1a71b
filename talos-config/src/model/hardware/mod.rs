//! Document kinds of upstream `pkg/machinery/config/types/hardware`.

use crate::document::KindEntry;

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[];
