//! Placeholder until the JSON6902 engine lands (same public API).

/// A JSON6902 patch.
#[derive(Clone, Debug, Default)]
pub struct JsonPatch {
    ops: usize,
}

impl JsonPatch {
    pub fn from_json(_bytes: &[u8]) -> Result<JsonPatch, String> {
        Err("not implemented".into())
    }
    pub fn from_yaml_list(_bytes: &[u8]) -> Result<JsonPatch, String> {
        Err("not implemented".into())
    }
    pub fn append(&mut self, other: JsonPatch) {
        self.ops += other.ops;
    }
    pub fn len(&self) -> usize {
        self.ops
    }
    pub fn is_empty(&self) -> bool {
        self.ops == 0
    }
}

pub fn apply_json6902(_config: &[u8], _patch: &JsonPatch) -> Result<String, String> {
    Err("not implemented".into())
}
