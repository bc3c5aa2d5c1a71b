//! Document kinds of upstream `pkg/machinery/config/types/block`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

pub mod types;

pub use types::{ByteSize, CelExpression, EncryptionProviderType, FilesystemType, PercentageSize, Size, VolumeType};

/// `VolumeConfig` (named): a system volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VolumeConfigV1Alpha1")]
pub struct VolumeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
    #[talos(key = "mount", omitempty, go_name = "MountSpec")]
    pub mount: VolumeMountSpec,
}
crate::document::named_kind!(VolumeConfig => "VolumeConfig");

/// `MountSpec` of `VolumeConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.MountSpec")]
pub struct VolumeMountSpec {
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
}

/// How a volume is provisioned.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ProvisioningSpec")]
pub struct ProvisioningSpec {
    #[talos(key = "diskSelector", omitempty, go_name = "DiskSelectorSpec")]
    pub disk_selector: DiskSelector,
    #[talos(key = "grow", omitempty, go_name = "ProvisioningGrow")]
    pub grow: Option<bool>,
    #[talos(key = "minSize", omitempty, go_name = "ProvisioningMinSize")]
    pub min_size: ByteSize,
    #[talos(key = "maxSize", omitempty, go_name = "ProvisioningMaxSize")]
    pub max_size: Size,
}

/// A CEL disk selector.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.DiskSelector")]
pub struct DiskSelector {
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// Volume encryption settings.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionSpec")]
pub struct EncryptionSpec {
    #[talos(key = "provider", go_name = "EncryptionProvider")]
    pub provider: EncryptionProviderType,
    #[talos(key = "keys", go_name = "EncryptionKeys")]
    pub keys: Vec<EncryptionKey>,
    #[talos(key = "cipher", omitempty, go_name = "EncryptionCipher")]
    pub cipher: String,
    #[talos(key = "keySize", omitempty, go_name = "EncryptionKeySize")]
    pub key_size: u64,
    #[talos(key = "blockSize", omitempty, go_name = "EncryptionBlockSize")]
    pub block_size: u64,
    #[talos(key = "options", omitempty, go_name = "EncryptionPerfOptions")]
    pub options: Vec<String>,
}

/// One encryption key slot.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKey")]
pub struct EncryptionKey {
    #[talos(key = "slot", go_name = "KeySlot")]
    pub slot: i64,
    #[talos(key = "static", omitempty, go_name = "KeyStatic")]
    pub r#static: Option<EncryptionKeyStatic>,
    #[talos(key = "nodeID", omitempty, go_name = "KeyNodeID")]
    pub node_id: Option<EncryptionKeyNodeId>,
    #[talos(key = "kms", omitempty, go_name = "KeyKMS")]
    pub kms: Option<EncryptionKeyKms>,
    #[talos(key = "tpm", omitempty, go_name = "KeyTPM")]
    pub tpm: Option<EncryptionKeyTpm>,
    #[talos(key = "lockToState", omitempty, go_name = "KeyLockToSTATE")]
    pub lock_to_state: Option<bool>,
}

/// A static passphrase.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyStatic")]
pub struct EncryptionKeyStatic {
    #[talos(key = "passphrase", omitempty, go_name = "KeyData")]
    pub passphrase: String,
}

/// A key derived from the node UUID (no fields).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyNodeID")]
pub struct EncryptionKeyNodeId {}

/// A KMS-sealed key.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyKMS")]
pub struct EncryptionKeyKms {
    #[talos(key = "endpoint", go_name = "KMSEndpoint")]
    pub endpoint: String,
}

/// A TPM-sealed key.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyTPM")]
pub struct EncryptionKeyTpm {
    #[talos(key = "options", omitempty, go_name = "TPMOptions")]
    pub options: Option<EncryptionKeyTpmOptions>,
    #[talos(key = "checkSecurebootStatusOnEnroll", omitempty, go_name = "TPMCheckSecurebootStatusOnEnroll")]
    pub check_secureboot_status_on_enroll: Option<bool>,
}

/// TPM key protection options.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyTPMOptions")]
pub struct EncryptionKeyTpmOptions {
    #[talos(key = "pcrs", omitempty, go_name = "PCRs")]
    pub pcrs: Vec<i64>,
}

/// `UserVolumeConfig` (named): a user volume under `/var/mnt/<name>`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.UserVolumeConfigV1Alpha1")]
pub struct UserVolumeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "volumeType", omitempty, go_name = "VolumeType")]
    pub volume_type: Option<VolumeType>,
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    #[talos(key = "filesystem", omitempty, go_name = "FilesystemSpec")]
    pub filesystem: FilesystemSpec,
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
    #[talos(key = "mount", omitempty, go_name = "MountSpec")]
    pub mount: UserMountSpec,
}
crate::document::named_kind!(UserVolumeConfig => "UserVolumeConfig");

/// How a user volume is formatted.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.FilesystemSpec")]
pub struct FilesystemSpec {
    #[talos(key = "type", omitempty, go_name = "FilesystemType")]
    pub r#type: FilesystemType,
    #[talos(key = "projectQuotaSupport", omitempty, go_name = "ProjectQuotaSupportConfig")]
    pub project_quota_support: Option<bool>,
}

/// Mount options of a user volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.UserMountSpec")]
pub struct UserMountSpec {
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime")]
    pub disable_access_time: Option<bool>,
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
}

/// `RawVolumeConfig` (named): an unformatted partition.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.RawVolumeConfigV1Alpha1")]
pub struct RawVolumeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
}
crate::document::named_kind!(RawVolumeConfig => "RawVolumeConfig");

/// `SwapVolumeConfig` (named): a swap partition.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.SwapVolumeConfigV1Alpha1")]
pub struct SwapVolumeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
}
crate::document::named_kind!(SwapVolumeConfig => "SwapVolumeConfig");

/// `ExistingVolumeConfig` (named): mounts a volume created outside Talos.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExistingVolumeConfigV1Alpha1")]
pub struct ExistingVolumeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "discovery", omitempty, go_name = "VolumeDiscoverySpec")]
    pub discovery: VolumeDiscoverySpec,
    #[talos(key = "mount", omitempty, go_name = "MountSpec")]
    pub mount: MountSpec,
}
crate::document::named_kind!(ExistingVolumeConfig => "ExistingVolumeConfig");

/// How an existing volume is found.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VolumeDiscoverySpec")]
pub struct VolumeDiscoverySpec {
    #[talos(key = "volumeSelector", omitempty, go_name = "VolumeSelectorConfig")]
    pub volume_selector: VolumeSelector,
}

/// A CEL volume selector.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VolumeSelector")]
pub struct VolumeSelector {
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// Mount options of an existing volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.MountSpec")]
pub struct MountSpec {
    #[talos(key = "readOnly", omitempty, go_name = "MountReadOnly")]
    pub read_only: Option<bool>,
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime")]
    pub disable_access_time: Option<bool>,
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
}

/// `ExternalVolumeConfig` (named): a network or virtiofs mount.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExternalVolumeConfigV1Alpha1")]
pub struct ExternalVolumeConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "filesystemType", go_name = "FilesystemType")]
    pub filesystem_type: FilesystemType,
    #[talos(key = "mount", omitempty, go_name = "MountSpec")]
    pub mount: ExternalMountSpec,
}
crate::document::named_kind!(ExternalVolumeConfig => "ExternalVolumeConfig");

/// Mount options of an external volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExternalMountSpec")]
pub struct ExternalMountSpec {
    #[talos(key = "readOnly", omitempty, go_name = "MountReadOnly")]
    pub read_only: Option<bool>,
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime")]
    pub disable_access_time: Option<bool>,
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
    #[talos(key = "virtiofs", omitempty, go_name = "MountVirtiofs")]
    pub virtiofs: Option<VirtiofsMountSpec>,
}

/// Virtiofs mount options.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VirtiofsMountSpec")]
pub struct VirtiofsMountSpec {
    #[talos(key = "tag", go_name = "VirtiofsTag")]
    pub tag: String,
}

/// `ZswapConfig` (unnamed): compressed memory.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ZswapConfigV1Alpha1")]
pub struct ZswapConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "maxPoolPercent", omitempty, go_name = "MaxPoolPercentConfig")]
    pub max_pool_percent: Option<i64>,
    #[talos(key = "shrinkerEnabled", omitempty, go_name = "ShrinkerEnabledConfig")]
    pub shrinker_enabled: Option<bool>,
}

crate::document::unnamed_kind!(ZswapConfig => "ZswapConfig");

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[
    entry::<VolumeConfig>(),
    entry::<UserVolumeConfig>(),
    entry::<RawVolumeConfig>(),
    entry::<SwapVolumeConfig>(),
    entry::<ExistingVolumeConfig>(),
    entry::<ExternalVolumeConfig>(),
    entry::<ZswapConfig>(),
];
