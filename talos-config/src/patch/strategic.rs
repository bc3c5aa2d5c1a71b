//! `StrategicMerge(cfg, patch)`: documents matched by identity, deletes applied, documents
//! merged with the type rules, new documents appended.

use std::collections::HashMap;

use super::StrategicPatch;
use crate::config::{Config, Entry};
use crate::error::{Error, ErrorKind};

/// The config's entries during one patch, as upstream's `StrategicMerge` keeps them: a list,
/// and an index by identity built from the entries the patch starts with (the last of equal
/// identities wins). Up to v1.13 entries the patch appends are not indexed, so a later entry
/// of the same patch with their identity is appended too; from v1.14 they are, and it merges
/// into them. A removed entry takes its identity out of the index.
struct Slots {
    slots: Vec<Option<Entry>>,
    index: HashMap<String, usize>,
}

impl Slots {
    fn new(entries: Vec<Entry>) -> Slots {
        let index = entries.iter().enumerate().map(|(i, e)| (e.identity(), i)).collect();
        Slots { slots: entries.into_iter().map(Some).collect(), index }
    }

    fn find(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    fn push(&mut self, e: Entry) {
        self.slots.push(Some(e));
    }

    fn push_indexed(&mut self, id: String, e: Entry) {
        self.index.insert(id, self.slots.len());
        self.slots.push(Some(e));
    }

    fn remove(&mut self, pos: usize, id: &str) {
        self.slots[pos] = None;
        self.index.remove(id);
    }

    fn into_entries(self) -> Vec<Entry> {
        self.slots.into_iter().flatten().collect()
    }
}

/// Applies a strategic patch to a config (the config is not changed on error).
pub(crate) fn strategic_merge(config: Config, patch: &StrategicPatch) -> Result<Config, Error> {
    let release = config.release();
    let v1_14 = release.rules().unvalidated_patches;
    let mut left = Slots::new(config.into_documents());
    for right in &patch.entries {
        let id = right.identity();
        let Some(pos) = left.find(&id) else {
            match right {
                // v1.14 skips a delete whose document is absent.
                Entry::Delete(_) if v1_14 => {}
                Entry::Doc(_) if v1_14 => left.push_indexed(id, right.clone()),
                _ => left.push(right.clone()),
            }
            continue;
        };
        let Some(entry) = left.slots[pos].as_mut() else {
            // The index only holds live slots.
            continue;
        };
        match (entry, right) {
            (Entry::Doc(doc), Entry::Delete(sel)) => {
                if sel.apply_to(doc.as_mut()).map_err(|e| Error::new(ErrorKind::Delete, e))? {
                    left.remove(pos, &id);
                }
            }
            (Entry::Doc(doc), Entry::Doc(patch_doc)) => {
                doc.merge_from_for(patch_doc.as_ref(), release).map_err(Error::merge)?;
            }
            // A selector an earlier patch appended (its target was absent) is a document of the
            // container to upstream: a whole-document delete of its identity removes it, any
            // other delete finds nothing in it, and a document cannot merge into it.
            (Entry::Delete(left_sel), Entry::Delete(sel)) => {
                if !sel.path.is_empty() {
                    return Err(Error::new(ErrorKind::Delete, sel.lookup_failed_in(left_sel)));
                }
                left.remove(pos, &id);
            }
            (Entry::Delete(left_sel), Entry::Doc(doc)) => {
                let left_type = if left_sel.name.is_some() { "*decoder.namedSelector" } else { "*decoder.selector" };
                return Err(Error::merge(format!(
                    "merge type mismatch left {left_type} right {}",
                    doc.go_pointer_type()
                )));
            }
        }
    }
    Config::new(left.into_entries(), release)
}
