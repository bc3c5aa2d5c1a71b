//! `v1alpha1.Config.Validate`: every check of the legacy document, in Talos's order.

use super::{Context, Findings, Issue, Validate};
use crate::model::v1alpha1::Config;

impl Validate for Config {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut found = Findings::default();
        if self.machine.is_none() {
            found.errors.push(Issue::new("machine instructions are required", Some("machine")));
        }
        found
    }
}

/// Node-only `RuntimeValidate` checks of the legacy document (placeholder).
pub fn runtime_validate(_config: &Config, _mode: super::Mode, _installed: bool) -> Findings {
    Findings::default()
}
