//! `StrategicMerge(cfg, patch)`: documents matched by identity, deletes applied, documents
//! merged with the type rules, new documents appended.

use super::StrategicPatch;
use crate::config::{Config, Entry};
use crate::error::Error;

/// Applies a strategic patch to a config (the config is not changed on error).
pub fn strategic_merge(config: Config, patch: &StrategicPatch) -> Result<Config, Error> {
    let mut left = config.documents();
    for right in &patch.entries {
        let id = right.identity();
        let Some(pos) = left.iter().position(|l| l.identity() == id) else {
            if let Entry::Delete(sel) = right
                && let Some(name) = &sel.name
            {
                // Upstream crashes encoding such a selector; we refuse instead.
                return Err(Error::merge(format!(
                    "named patch delete: document {}/{}/{name} does not exist",
                    sel.api_version, sel.kind
                )));
            }
            left.push(right.clone());
            continue;
        };
        match (&mut left[pos], right) {
            (Entry::Doc(doc), Entry::Delete(sel)) => {
                if sel.apply_to(doc.as_mut()).map_err(Error::merge)? {
                    left.remove(pos);
                }
            }
            (Entry::Doc(doc), Entry::Doc(patch_doc)) => doc.merge_from(patch_doc.as_ref()).map_err(Error::merge)?,
            (Entry::Delete(_), _) => {
                // A selector appended earlier (upstream quirk) holds this identity; a second
                // selector or document for it is appended again, as upstream's list lookup would
                // find the selector and fail to treat it as a document.
                left.push(right.clone());
            }
        }
    }
    Config::new(left)
}
