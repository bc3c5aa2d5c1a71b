//! `ExtensionServiceConfig` (upstream `types/runtime/extensions`).

use talos_config_derive::Talos;

use crate::model::meta::Meta;
use crate::value::{DecodeCx, DeletePath, MergeFlags, Value, delete_element, merge_values};
use crate::yaml::Node;

/// `ExtensionServiceConfig` (named by `name`): config files and environment of an extension
/// service.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "extensions.ServiceConfigV1Alpha1")]
pub struct ExtensionServiceConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "ServiceName")]
    pub name: String,
    #[talos(key = "configFiles", omitempty, go_name = "ServiceConfigFiles")]
    pub config_files: ConfigFileList,
    #[talos(key = "environment", omitempty, go_name = "ServiceEnvironment")]
    pub environment: Vec<String>,
}

crate::document::named_kind!(ExtensionServiceConfig => "ExtensionServiceConfig");

/// One config file of an extension service.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "extensions.ConfigFile")]
pub struct ConfigFile {
    #[talos(key = "content", go_name = "ConfigFileContent")]
    pub content: String,
    #[talos(key = "mountPath", go_name = "ConfigFileMountPath")]
    pub mount_path: String,
}

/// `extensions.ConfigFileList`: a slice with a custom `Merge` keyed by `mountPath` (a patch file
/// with a known mount path is merged into it, any other is appended).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigFileList(pub Vec<ConfigFile>);

impl Value for ConfigFileList {
    fn go_type() -> String {
        "extensions.ConfigFileList".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        ConfigFileList(crate::value::decode_seq(node, cx, &Self::go_type()))
    }

    fn unknown_keys(node: &Node) -> Result<Option<Node>, String> {
        crate::value::seq_unknown_keys::<ConfigFile>(node)
    }

    fn encode(&self) -> Node {
        self.0.encode()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn replace_keeps_left(&self) -> bool {
        false
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        for file in &right.0 {
            match self.0.iter_mut().find(|f| f.mount_path == file.mount_path) {
                // `merge.Merge(existing, &file)`: two pointers, so the struct merge runs with
                // the generic rules (an empty `content` keeps the existing one).
                Some(existing) => merge_values(existing, file)?,
                None => self.0.push(file.clone()),
            }
        }
        Ok(())
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        delete_element(&mut self.0, path)
    }
}
