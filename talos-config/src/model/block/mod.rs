//! Document kinds of upstream `pkg/machinery/config/types/block`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

pub mod maintenance;
pub mod types;

pub use maintenance::{FilesystemScrubConfig, FilesystemTrimConfig, ScrubConfig, TrimConfig};

pub use types::{ByteSize, CelExpression, EncryptionProviderType, FilesystemType, PercentageSize, Size, VolumeType};

/// `VolumeConfig` (named): a system volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VolumeConfigV1Alpha1")]
pub struct VolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The system volume configured (`EPHEMERAL`, `IMAGECACHE`, `STATE`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Which disk the volume goes on and how large it is.
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    /// Filesystem options of the volume (v1.14).
    #[talos(key = "filesystem", omitempty, go_name = "FilesystemSpec", since = V1_14_0_RC1)]
    pub filesystem: SystemVolumeFilesystemSpec,
    /// How the volume is encrypted.
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
    /// How the volume is mounted.
    #[talos(key = "mount", omitempty, go_name = "MountSpec", since = V1_13_9)]
    pub mount: VolumeMountSpec,
    /// The volume's own trim setting (v1.14).
    #[talos(key = "trim", omitempty, go_name = "TrimSpec", since = V1_14_0_RC1)]
    pub trim: Option<TrimConfig>,
    /// The volume's own scrub setting (v1.14).
    #[talos(key = "scrub", omitempty, go_name = "ScrubSpec", since = V1_14_0_RC1)]
    pub scrub: Option<ScrubConfig>,
}
crate::document::named_kind!(VolumeConfig => "VolumeConfig");

/// `MountSpec` of `VolumeConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.MountSpec")]
pub struct VolumeMountSpec {
    /// Mounts with `nosuid,nodev` (on unless set to false).
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
    /// Mounts with `noatime` (v1.14).
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime", since = V1_14_0_RC1)]
    pub disable_access_time: Option<bool>,
}

/// `block.SystemVolumeFilesystemSpec`: filesystem options of a system volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.SystemVolumeFilesystemSpec")]
pub struct SystemVolumeFilesystemSpec {
    /// XFS options.
    #[talos(key = "xfs", omitempty, go_name = "XFSSpec")]
    pub xfs: Option<XfsSpec>,
}

/// `block.XFSSpec`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.XFSSpec")]
pub struct XfsSpec {
    /// The smallest allocation group size `mkfs.xfs` may use.
    #[talos(key = "minAllocationGroupSize", omitempty, go_name = "MinAllocationGroupSizeConfig")]
    pub min_allocation_group_size: ByteSize,
}

/// How a volume is provisioned.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ProvisioningSpec")]
pub struct ProvisioningSpec {
    /// A CEL expression choosing the disk the volume is created on.
    #[talos(key = "diskSelector", omitempty, go_name = "DiskSelectorSpec")]
    pub disk_selector: DiskSelector,
    /// Lets the volume grow into free space after creation.
    #[talos(key = "grow", omitempty, go_name = "ProvisioningGrow")]
    pub grow: Option<bool>,
    /// The smallest size the volume may be created with.
    #[talos(key = "minSize", omitempty, go_name = "ProvisioningMinSize")]
    pub min_size: ByteSize,
    /// The largest size of the volume, in bytes or as a percentage of the disk.
    #[talos(key = "maxSize", omitempty, go_name = "ProvisioningMaxSize")]
    pub max_size: Size,
}

/// A CEL disk selector.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.DiskSelector")]
pub struct DiskSelector {
    /// A CEL expression over each disk's facts; the first disk it is true for is used.
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// Volume encryption settings.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionSpec")]
pub struct EncryptionSpec {
    /// The encryption provider (`luks2`).
    #[talos(key = "provider", go_name = "EncryptionProvider")]
    pub provider: EncryptionProviderType,
    /// The key slots that can unlock the volume.
    #[talos(key = "keys", go_name = "EncryptionKeys")]
    pub keys: Vec<EncryptionKey>,
    /// The cipher (`aes-xts-plain64`, `xchacha12,aes-adiantum-plain64`, ...).
    #[talos(key = "cipher", omitempty, go_name = "EncryptionCipher")]
    pub cipher: String,
    /// The key size in bits.
    #[talos(key = "keySize", omitempty, go_name = "EncryptionKeySize")]
    pub key_size: usize,
    /// The encryption sector size in bytes.
    #[talos(key = "blockSize", omitempty, go_name = "EncryptionBlockSize")]
    pub block_size: u64,
    /// Extra options passed to cryptsetup.
    #[talos(key = "options", omitempty, go_name = "EncryptionPerfOptions")]
    pub options: Vec<String>,
    /// Passes discards (TRIM) through the encryption layer (v1.14).
    #[talos(key = "allowDiscards", omitempty, go_name = "EncryptionAllowDiscards", since = V1_14_0_RC1)]
    pub allow_discards: Option<bool>,
}

/// One encryption key slot.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKey")]
pub struct EncryptionKey {
    /// The LUKS key slot the key occupies.
    #[talos(key = "slot", go_name = "KeySlot")]
    pub slot: i64,
    /// A static passphrase key.
    #[talos(key = "static", omitempty, go_name = "KeyStatic")]
    pub r#static: Option<EncryptionKeyStatic>,
    /// A key derived from the node's identity.
    #[talos(key = "nodeID", omitempty, go_name = "KeyNodeID")]
    pub node_id: Option<EncryptionKeyNodeId>,
    /// A key sealed by a key management server.
    #[talos(key = "kms", omitempty, go_name = "KeyKMS")]
    pub kms: Option<EncryptionKeyKms>,
    /// A key sealed by the TPM.
    #[talos(key = "tpm", omitempty, go_name = "KeyTPM")]
    pub tpm: Option<EncryptionKeyTpm>,
    /// Binds the key to the STATE volume, so the volume opens only with this node's STATE.
    #[talos(key = "lockToState", omitempty, go_name = "KeyLockToSTATE")]
    pub lock_to_state: Option<bool>,
}

/// A static passphrase.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyStatic")]
pub struct EncryptionKeyStatic {
    /// The passphrase; a secret.
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
    /// The key management server's URL.
    #[talos(key = "endpoint", go_name = "KMSEndpoint")]
    pub endpoint: String,
}

/// A TPM-sealed key.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyTPM")]
pub struct EncryptionKeyTpm {
    /// Which TPM PCRs the key is sealed to.
    #[talos(key = "options", omitempty, go_name = "TPMOptions")]
    pub options: Option<EncryptionKeyTpmOptions>,
    /// Refuses to enroll the key unless Secure Boot is on.
    #[talos(key = "checkSecurebootStatusOnEnroll", omitempty, go_name = "TPMCheckSecurebootStatusOnEnroll")]
    pub check_secureboot_status_on_enroll: Option<bool>,
}

/// TPM key protection options.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.EncryptionKeyTPMOptions")]
pub struct EncryptionKeyTpmOptions {
    /// The PCR registers the key is sealed to.
    #[talos(key = "pcrs", omitempty, go_name = "PCRs")]
    pub pcrs: Vec<i64>,
}

/// `UserVolumeConfig` (named): a user volume under `/var/mnt/<name>`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.UserVolumeConfigV1Alpha1")]
pub struct UserVolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The volume's name (mounted at `/var/mnt/<name>`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// `partition` (default), `directory` or `disk`.
    #[talos(key = "volumeType", omitempty, go_name = "VolumeType")]
    pub volume_type: Option<VolumeType>,
    /// Which disk the volume goes on and how large it is.
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    /// The volume's filesystem.
    #[talos(key = "filesystem", omitempty, go_name = "FilesystemSpec")]
    pub filesystem: FilesystemSpec,
    /// How the volume is encrypted.
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
    /// How the volume is mounted.
    #[talos(key = "mount", omitempty, go_name = "MountSpec", since = V1_13_9)]
    pub mount: UserMountSpec,
    /// The volume's own trim setting (v1.14).
    #[talos(key = "trim", omitempty, go_name = "TrimSpec", since = V1_14_0_RC1)]
    pub trim: Option<TrimConfig>,
    /// The volume's own scrub setting (v1.14).
    #[talos(key = "scrub", omitempty, go_name = "ScrubSpec", since = V1_14_0_RC1)]
    pub scrub: Option<ScrubConfig>,
}
crate::document::named_kind!(UserVolumeConfig => "UserVolumeConfig");

/// How a user volume is formatted.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.FilesystemSpec")]
pub struct FilesystemSpec {
    /// The filesystem type (`xfs`, `ext4`).
    #[talos(key = "type", omitempty, go_name = "FilesystemType")]
    pub r#type: FilesystemType,
    /// Enables project quotas on the filesystem.
    #[talos(key = "projectQuotaSupport", omitempty, go_name = "ProjectQuotaSupportConfig")]
    pub project_quota_support: Option<bool>,
    /// XFS options (v1.14).
    #[talos(key = "xfs", omitempty, go_name = "XFSSpec", since = V1_14_0_RC1)]
    pub xfs: Option<XfsSpec>,
}

/// Mount options of a user volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.UserMountSpec")]
pub struct UserMountSpec {
    /// Mounts with `noatime`.
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime")]
    pub disable_access_time: Option<bool>,
    /// Mounts with `nosuid,nodev` (on unless set to false).
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
}

/// `RawVolumeConfig` (named): an unformatted partition.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.RawVolumeConfigV1Alpha1")]
pub struct RawVolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The volume's name (its partition label is `r-<name>`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Which disk the volume goes on and how large it is.
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    /// How the volume is encrypted.
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
}
crate::document::named_kind!(RawVolumeConfig => "RawVolumeConfig");

/// `SwapVolumeConfig` (named): a swap partition.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.SwapVolumeConfigV1Alpha1")]
pub struct SwapVolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The swap volume's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Which disk the swap goes on and how large it is.
    #[talos(key = "provisioning", omitempty, go_name = "ProvisioningSpec")]
    pub provisioning: ProvisioningSpec,
    /// How the swap is encrypted.
    #[talos(key = "encryption", omitempty, go_name = "EncryptionSpec")]
    pub encryption: EncryptionSpec,
}
crate::document::named_kind!(SwapVolumeConfig => "SwapVolumeConfig");

/// `ExistingVolumeConfig` (named): mounts a volume created outside Talos.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExistingVolumeConfigV1Alpha1")]
pub struct ExistingVolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The volume's name (mounted at `/var/mnt/<name>`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// How the existing partition is found.
    #[talos(key = "discovery", omitempty, go_name = "VolumeDiscoverySpec")]
    pub discovery: VolumeDiscoverySpec,
    /// How the volume is mounted.
    #[talos(key = "mount", omitempty, go_name = "MountSpec")]
    pub mount: MountSpec,
    /// The volume's own trim setting (v1.14).
    #[talos(key = "trim", omitempty, go_name = "TrimSpec", since = V1_14_0_RC1)]
    pub trim: Option<TrimConfig>,
    /// The volume's own scrub setting (v1.14).
    #[talos(key = "scrub", omitempty, go_name = "ScrubSpec", since = V1_14_0_RC1)]
    pub scrub: Option<ScrubConfig>,
}
crate::document::named_kind!(ExistingVolumeConfig => "ExistingVolumeConfig");

/// How an existing volume is found.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VolumeDiscoverySpec")]
pub struct VolumeDiscoverySpec {
    /// A CEL expression matching the existing volume.
    #[talos(key = "volumeSelector", omitempty, go_name = "VolumeSelectorConfig")]
    pub volume_selector: VolumeSelector,
}

/// A CEL volume selector.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VolumeSelector")]
pub struct VolumeSelector {
    /// A CEL expression over each volume's facts; it must match exactly one.
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// Mount options of an existing volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExistingMountSpec")]
pub struct MountSpec {
    /// Mounts read-only.
    #[talos(key = "readOnly", omitempty, go_name = "MountReadOnly")]
    pub read_only: Option<bool>,
    /// Mounts with `noatime`.
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime", since = V1_13_9)]
    pub disable_access_time: Option<bool>,
    /// Mounts with `nosuid,nodev` (on unless set to false).
    #[talos(key = "secure", omitempty, go_name = "MountSecure", since = V1_13_9)]
    pub secure: Option<bool>,
}

/// `ExternalVolumeConfig` (named): a network or virtiofs mount.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExternalVolumeConfigV1Alpha1")]
pub struct ExternalVolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The volume's name (mounted at `/var/mnt/<name>`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The filesystem of the external source (e.g. `virtiofs`).
    #[talos(key = "filesystemType", go_name = "FilesystemType")]
    pub filesystem_type: FilesystemType,
    /// How the external volume is mounted.
    #[talos(key = "mount", omitempty, go_name = "MountSpec")]
    pub mount: ExternalMountSpec,
}
crate::document::named_kind!(ExternalVolumeConfig => "ExternalVolumeConfig" since V1_13_9);

/// Mount options of an external volume.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ExternalMountSpec")]
pub struct ExternalMountSpec {
    /// Mounts read-only.
    #[talos(key = "readOnly", omitempty, go_name = "MountReadOnly")]
    pub read_only: Option<bool>,
    /// Mounts with `noatime`.
    #[talos(key = "disableAccessTime", omitempty, go_name = "MountDisableAccessTime")]
    pub disable_access_time: Option<bool>,
    /// Mounts with `nosuid,nodev` (on unless set to false).
    #[talos(key = "secure", omitempty, go_name = "MountSecure")]
    pub secure: Option<bool>,
    /// The virtiofs share mounted.
    #[talos(key = "virtiofs", omitempty, go_name = "MountVirtiofs")]
    pub virtiofs: Option<VirtiofsMountSpec>,
}

/// Virtiofs mount options.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.VirtiofsMountSpec")]
pub struct VirtiofsMountSpec {
    /// The virtiofs tag the host exports.
    #[talos(key = "tag", go_name = "VirtiofsTag")]
    pub tag: String,
}

/// `ZswapConfig` (unnamed): compressed memory.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ZswapConfigV1Alpha1")]
pub struct ZswapConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The largest share of memory, in percent, the compressed pool may use.
    #[talos(key = "maxPoolPercent", omitempty, go_name = "MaxPoolPercentConfig")]
    pub max_pool_percent: Option<i64>,
    /// Lets the kernel shrink the pool under memory pressure.
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
    entry::<FilesystemTrimConfig>(),
    entry::<FilesystemScrubConfig>(),
];
