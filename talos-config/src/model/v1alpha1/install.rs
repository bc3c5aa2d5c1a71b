//! `machine.install`, `machine.disks` and `machine.systemDiskEncryption` of the legacy document.

use talos_config_derive::Talos;

use super::types::{DiskSize, InstallDiskSizeMatcher, InstallDiskType};

/// `v1alpha1.InstallConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.InstallConfig")]
pub struct InstallConfig {
    #[talos(key = "disk", omitempty, go_name = "InstallDisk")]
    pub disk: String,
    #[talos(key = "diskSelector", omitempty, go_name = "InstallDiskSelector")]
    pub disk_selector: Option<InstallDiskSelector>,
    #[talos(key = "extraKernelArgs", omitempty, go_name = "InstallExtraKernelArgs")]
    pub extra_kernel_args: Vec<String>,
    #[talos(key = "image", omitempty, go_name = "InstallImage")]
    pub image: String,
    #[talos(key = "extensions", omitempty, go_name = "InstallExtensions")]
    pub extensions: Vec<InstallExtensionConfig>,
    #[talos(key = "bootloader", omitempty, go_name = "InstallBootloader")]
    pub bootloader: Option<bool>,
    #[talos(key = "wipe", go_name = "InstallWipe")]
    pub wipe: Option<bool>,
    #[talos(key = "legacyBIOSSupport", omitempty, go_name = "InstallLegacyBIOSSupport")]
    pub legacy_bios_support: Option<bool>,
    #[talos(key = "grubUseUKICmdline", omitempty, go_name = "InstallGrubUseUKICmdline")]
    pub grub_use_uki_cmdline: Option<bool>,
}

/// `v1alpha1.InstallDiskSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.InstallDiskSelector")]
pub struct InstallDiskSelector {
    #[talos(key = "size", omitempty, go_name = "Size")]
    pub size: Option<InstallDiskSizeMatcher>,
    #[talos(key = "name", omitempty, go_name = "Name")]
    pub name: String,
    #[talos(key = "model", omitempty, go_name = "Model")]
    pub model: String,
    #[talos(key = "serial", omitempty, go_name = "Serial")]
    pub serial: String,
    #[talos(key = "modalias", omitempty, go_name = "Modalias")]
    pub modalias: String,
    #[talos(key = "uuid", omitempty, go_name = "UUID")]
    pub uuid: String,
    #[talos(key = "wwid", omitempty, go_name = "WWID")]
    pub wwid: String,
    #[talos(key = "type", omitempty, go_name = "Type")]
    pub r#type: InstallDiskType,
    #[talos(key = "busPath", omitempty, go_name = "BusPath")]
    pub bus_path: String,
}

/// `v1alpha1.InstallExtensionConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.InstallExtensionConfig")]
pub struct InstallExtensionConfig {
    #[talos(key = "image", go_name = "ExtensionImage")]
    pub image: String,
}

/// `v1alpha1.MachineDisk`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineDisk")]
pub struct MachineDisk {
    #[talos(key = "device", omitempty, go_name = "DeviceName")]
    pub device: String,
    #[talos(key = "partitions", omitempty, go_name = "DiskPartitions")]
    pub partitions: Vec<Option<DiskPartition>>,
}

/// `v1alpha1.DiskPartition`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DiskPartition")]
pub struct DiskPartition {
    #[talos(key = "size", omitempty, go_name = "DiskSize")]
    pub size: DiskSize,
    #[talos(key = "mountpoint", omitempty, go_name = "DiskMountPoint")]
    pub mountpoint: String,
}

/// `v1alpha1.SystemDiskEncryptionConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.SystemDiskEncryptionConfig")]
pub struct SystemDiskEncryptionConfig {
    #[talos(key = "state", omitempty, go_name = "StatePartition")]
    pub state: Option<EncryptionConfig>,
    #[talos(key = "ephemeral", omitempty, go_name = "EphemeralPartition")]
    pub ephemeral: Option<EncryptionConfig>,
}

/// `v1alpha1.EncryptionConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionConfig")]
pub struct EncryptionConfig {
    #[talos(key = "provider", go_name = "EncryptionProvider")]
    pub provider: String,
    #[talos(key = "keys", go_name = "EncryptionKeys")]
    pub keys: Vec<Option<EncryptionKey>>,
    #[talos(key = "cipher", omitempty, go_name = "EncryptionCipher")]
    pub cipher: String,
    #[talos(key = "keySize", omitempty, go_name = "EncryptionKeySize")]
    pub key_size: u64,
    #[talos(key = "blockSize", omitempty, go_name = "EncryptionBlockSize")]
    pub block_size: u64,
    #[talos(key = "options", omitempty, go_name = "EncryptionPerfOptions")]
    pub options: Vec<String>,
}

/// `v1alpha1.EncryptionKey`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKey")]
pub struct EncryptionKey {
    #[talos(key = "static", omitempty, go_name = "KeyStatic")]
    pub r#static: Option<EncryptionKeyStatic>,
    #[talos(key = "nodeID", omitempty, go_name = "KeyNodeID")]
    pub node_id: Option<EncryptionKeyNodeID>,
    #[talos(key = "kms", omitempty, go_name = "KeyKMS")]
    pub kms: Option<EncryptionKeyKMS>,
    #[talos(key = "slot", go_name = "KeySlot")]
    pub slot: i64,
    #[talos(key = "tpm", omitempty, go_name = "KeyTPM")]
    pub tpm: Option<EncryptionKeyTPM>,
}

/// `v1alpha1.EncryptionKeyStatic`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKeyStatic")]
pub struct EncryptionKeyStatic {
    #[talos(key = "passphrase", omitempty, go_name = "KeyData")]
    pub passphrase: String,
}

/// `v1alpha1.EncryptionKeyNodeID` (no fields).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKeyNodeID")]
pub struct EncryptionKeyNodeID {}

/// `v1alpha1.EncryptionKeyKMS`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKeyKMS")]
pub struct EncryptionKeyKMS {
    #[talos(key = "endpoint", go_name = "KMSEndpoint")]
    pub endpoint: String,
}

/// `v1alpha1.EncryptionKeyTPM`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKeyTPM")]
pub struct EncryptionKeyTPM {
    #[talos(key = "checkSecurebootStatusOnEnroll", omitempty, go_name = "TPMCheckSecurebootStatusOnEnroll")]
    pub check_secureboot_status_on_enroll: Option<bool>,
}
