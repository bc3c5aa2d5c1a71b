//! Document kinds of upstream `pkg/machinery/config/types/cri`.

use crate::document::KindEntry;

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[];
