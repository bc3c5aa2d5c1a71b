//! `StrategicMerge(cfg, patch)`: documents matched by identity, deletes applied, documents
//! merged with the type rules, new documents appended.

use std::collections::{BTreeSet, HashMap};

use super::StrategicPatch;
use crate::config::{Config, Entry};
use crate::error::{Error, ErrorKind};

/// The config's entries during a merge, indexed by identity.
///
/// Upstream looks each patch document up with a linear scan (first match wins) and removes
/// entries from its list. Here entries sit in numbered slots (a removed one leaves `None`, so
/// later slots keep their numbers and the order is the slot order), and each identity maps to
/// the live slots holding it: the smallest is the entry the linear scan would find.
struct Slots {
    slots: Vec<Option<Entry>>,
    index: HashMap<String, BTreeSet<usize>>,
}

impl Slots {
    fn new(entries: Vec<Entry>) -> Slots {
        let mut slots = Slots { slots: Vec::with_capacity(entries.len()), index: HashMap::new() };
        for e in entries {
            slots.push(e);
        }
        slots
    }

    /// The first live slot holding `id`.
    fn find(&self, id: &str) -> Option<usize> {
        self.index.get(id).and_then(|s| s.first().copied())
    }

    /// Appends an entry.
    fn push(&mut self, e: Entry) {
        self.index.entry(e.identity()).or_default().insert(self.slots.len());
        self.slots.push(Some(e));
    }

    /// Removes the entry of slot `pos`, known under `id`.
    fn remove(&mut self, pos: usize, id: &str) {
        self.slots[pos] = None;
        self.unindex(pos, id);
    }

    /// Re-files slot `pos`, known under `id`, after it changed (its identity may differ now).
    fn reindex(&mut self, pos: usize, id: &str) {
        let Some(now) = self.slots[pos].as_ref().map(Entry::identity) else {
            return;
        };
        if now != id {
            self.unindex(pos, id);
            self.index.entry(now).or_default().insert(pos);
        }
    }

    fn unindex(&mut self, pos: usize, id: &str) {
        if let Some(set) = self.index.get_mut(id) {
            set.remove(&pos);
            if set.is_empty() {
                self.index.remove(id);
            }
        }
    }

    fn into_entries(self) -> Vec<Entry> {
        self.slots.into_iter().flatten().collect()
    }
}

/// Applies a strategic patch to a config (the config is not changed on error).
pub(crate) fn strategic_merge(config: Config, patch: &StrategicPatch) -> Result<Config, Error> {
    let mut left = Slots::new(config.into_documents());
    for right in &patch.entries {
        let id = right.identity();
        let Some(pos) = left.find(&id) else {
            if let Entry::Delete(sel) = right
                && let Some(name) = &sel.name
            {
                // Upstream crashes encoding such a selector; we refuse instead.
                return Err(Error::new(
                    ErrorKind::Delete,
                    format!("named patch delete: document {}/{}/{name} does not exist", sel.api_version, sel.kind),
                ));
            }
            left.push(right.clone());
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
                } else {
                    left.reindex(pos, &id);
                }
            }
            (Entry::Doc(doc), Entry::Doc(patch_doc)) => {
                doc.merge_from(patch_doc.as_ref()).map_err(Error::merge)?;
                left.reindex(pos, &id);
            }
            (Entry::Delete(_), _) => {
                // A selector appended earlier (upstream quirk) holds this identity; a second
                // selector or document for it is appended again, as upstream's list lookup would
                // find the selector and fail to treat it as a document.
                left.push(right.clone());
            }
        }
    }
    Config::new(left.into_entries())
}
