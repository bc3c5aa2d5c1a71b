//! Document kinds of upstream `pkg/machinery/config/types/storage` (new in v1.14): LVM volume
//! groups and logical volumes, and software RAID arrays.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::block::types::{LvmLogicalVolumeType, MdLevel, MdMetadata};
use crate::model::block::{ByteSize, CelExpression, Size};
use crate::model::meta::Meta;

/// `LVMVolumeGroupConfig` (named): an LVM volume group over the volumes a selector matches.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.LVMVolumeGroupConfigV1Alpha1")]
pub struct LvmVolumeGroupConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The volume group's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Which volumes become physical volumes of the group.
    #[talos(key = "provisioning", go_name = "ProvisioningSpec")]
    pub provisioning: LvmVolumeGroupProvisioning,
}
crate::document::named_kind!(LvmVolumeGroupConfig => "LVMVolumeGroupConfig" since V1_14_0_RC1);

/// `storage.ProvisioningSpec` of a volume group.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.ProvisioningSpec")]
pub struct LvmVolumeGroupProvisioning {
    /// A CEL expression over volumes.
    #[talos(key = "volumeSelector", omitempty, go_name = "VolumeSelector")]
    pub volume_selector: LvmVolumeSelector,
}

/// `storage.LVMVolumeSelectorSpec`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.LVMVolumeSelectorSpec")]
pub struct LvmVolumeSelector {
    /// A CEL expression over each volume's facts.
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// `LVMLogicalVolumeConfig` (named): a logical volume in a volume group.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.LVMLogicalVolumeConfigV1Alpha1")]
pub struct LvmLogicalVolumeConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The logical volume's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// `linear`, `raid1`, `raid0` or `raid10`.
    #[talos(key = "type", go_name = "LVType")]
    pub r#type: LvmLogicalVolumeType,
    /// Mirror count (raid1, raid10).
    #[talos(key = "mirrors", omitempty, go_name = "LVMirrors")]
    pub mirrors: Option<u32>,
    /// Stripe count (raid0, raid10).
    #[talos(key = "stripes", omitempty, go_name = "LVStripes")]
    pub stripes: Option<u32>,
    /// Where and how large the volume is.
    #[talos(key = "provisioning", go_name = "Provisioning")]
    pub provisioning: LvmLogicalVolumeProvisioning,
}
crate::document::named_kind!(LvmLogicalVolumeConfig => "LVMLogicalVolumeConfig" since V1_14_0_RC1);

/// `storage.LVMLogicalVolumeProvisioningSpec`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.LVMLogicalVolumeProvisioningSpec")]
pub struct LvmLogicalVolumeProvisioning {
    /// The volume group the volume is created in.
    #[talos(key = "volumeGroup", go_name = "VolumeGroup")]
    pub volume_group: String,
    /// The smallest size the volume may have.
    #[talos(key = "minSize", omitempty, go_name = "ProvisioningMinSize")]
    pub min_size: ByteSize,
    /// The volume's size, in bytes or as a percentage of the group.
    #[talos(key = "maxSize", omitempty, go_name = "ProvisioningMaxSize")]
    pub max_size: Size,
}

/// `RAIDArrayConfig` (named): a software RAID array.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.RAIDArrayConfigV1Alpha1")]
pub struct RaidArrayConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The array's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The RAID level (`raid1`).
    #[talos(key = "level", go_name = "Level")]
    pub level: MdLevel,
    /// The superblock format (`1.0`, the default, or `1.2`).
    #[talos(key = "metadata", omitempty, go_name = "MetadataFormat")]
    pub metadata: MdMetadata,
    /// Which volumes become the array's members.
    #[talos(key = "provisioning", go_name = "ProvisioningSpec")]
    pub provisioning: RaidProvisioning,
}
crate::document::named_kind!(RaidArrayConfig => "RAIDArrayConfig" since V1_14_0_RC1);

/// `storage.RAIDProvisioningSpec`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.RAIDProvisioningSpec")]
pub struct RaidProvisioning {
    /// A CEL expression over volumes.
    #[talos(key = "volumeSelector", go_name = "RAIDVolumeSelector")]
    pub volume_selector: RaidVolumeSelector,
}

/// `storage.RAIDVolumeSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "storage.RAIDVolumeSelector")]
pub struct RaidVolumeSelector {
    /// A CEL expression over each volume's facts.
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] =
    &[entry::<LvmLogicalVolumeConfig>(), entry::<LvmVolumeGroupConfig>(), entry::<RaidArrayConfig>()];
