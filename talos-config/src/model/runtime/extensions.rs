//! `ExtensionServiceConfig` (upstream `types/runtime/extensions`).

use talos_config_derive::Talos;

use crate::model::meta::Meta;
use crate::value::{MergeFlags, Value};

/// `ExtensionServiceConfig` (named by `name`): config files and environment of an extension
/// service.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "extensions.ServiceConfigV1Alpha1")]
pub struct ExtensionServiceConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The extension service configured.
    #[talos(key = "name", go_name = "ServiceName")]
    pub name: String,
    /// Files mounted into the service's container.
    #[talos(key = "configFiles", omitempty, go_name = "ServiceConfigFiles")]
    pub config_files: ConfigFileList,
    /// Environment variables of the service (`NAME=value`).
    #[talos(key = "environment", omitempty, go_name = "ServiceEnvironment")]
    pub environment: Vec<String>,
}

crate::document::named_kind!(ExtensionServiceConfig => "ExtensionServiceConfig");

/// One config file of an extension service.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "extensions.ConfigFile")]
pub struct ConfigFile {
    /// The file's text.
    #[talos(key = "content", go_name = "ConfigFileContent")]
    pub content: String,
    /// Where the file appears in the service's container.
    #[talos(key = "mountPath", go_name = "ConfigFileMountPath")]
    pub mount_path: String,
}

/// `extensions.ConfigFileList`: a slice with a custom `Merge` keyed by `mountPath` (a patch file
/// with a known mount path is merged into it, any other is appended).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigFileList(pub Vec<ConfigFile>);

crate::value::go_slice_type!(ConfigFileList, ConfigFile, "extensions.ConfigFileList", merge = merge_config_files);

/// Files with a known mount path are merged into the existing one (`merge.Merge(existing, &file)`:
/// two pointers, so the generic struct rules run and an empty `content` keeps the existing one);
/// any other is appended.
fn merge_config_files(left: &mut Vec<ConfigFile>, right: &[ConfigFile], flags: MergeFlags) -> Result<(), String> {
    for file in right {
        match left.iter_mut().find(|f| f.mount_path == file.mount_path) {
            Some(existing) => existing.merge(file, flags.nested())?,
            None => left.push(file.clone()),
        }
    }
    Ok(())
}
