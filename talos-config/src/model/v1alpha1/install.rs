//! `machine.install`, `machine.disks` and `machine.systemDiskEncryption` of the legacy document.

use talos_config_derive::Talos;

use super::types::{DiskSize, InstallDiskSizeMatcher, InstallDiskType};

/// `v1alpha1.InstallConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.InstallConfig")]
pub struct InstallConfig {
    /// The disk Talos installs to (`/dev/sda`); either this or `diskSelector`.
    #[talos(key = "disk", omitempty, go_name = "InstallDisk")]
    pub disk: String,
    /// Picks the install disk by its facts.
    #[talos(key = "diskSelector", omitempty, go_name = "InstallDiskSelector")]
    pub disk_selector: Option<InstallDiskSelector>,
    /// Extra kernel command-line arguments.
    #[talos(key = "extraKernelArgs", omitempty, go_name = "InstallExtraKernelArgs")]
    pub extra_kernel_args: Vec<String>,
    /// The installer image (its tag is the Talos version installed).
    #[talos(key = "image", omitempty, go_name = "InstallImage")]
    pub image: String,
    /// System extension images (deprecated: use boot assets instead).
    #[talos(key = "extensions", omitempty, go_name = "InstallExtensions")]
    pub extensions: Vec<InstallExtensionConfig>,
    /// Installs the bootloader (always true in practice).
    #[talos(key = "bootloader", omitempty, go_name = "InstallBootloader")]
    pub bootloader: Option<bool>,
    /// Wipes the whole install disk first.
    #[talos(key = "wipe", go_name = "InstallWipe")]
    pub wipe: Option<bool>,
    /// Marks the disk bootable for legacy BIOS too.
    #[talos(key = "legacyBIOSSupport", omitempty, go_name = "InstallLegacyBIOSSupport")]
    pub legacy_bios_support: Option<bool>,
    /// Makes GRUB use the kernel command line of the UKI.
    #[talos(key = "grubUseUKICmdline", omitempty, go_name = "InstallGrubUseUKICmdline")]
    pub grub_use_uki_cmdline: Option<bool>,
}

/// `v1alpha1.InstallDiskSelector`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.InstallDiskSelector")]
pub struct InstallDiskSelector {
    /// Matches the disk size (`4GB`, `>= 1TB`, ...).
    #[talos(key = "size", omitempty, go_name = "Size")]
    pub size: Option<InstallDiskSizeMatcher>,
    /// Matches the disk's name.
    #[talos(key = "name", omitempty, go_name = "Name")]
    pub name: String,
    /// Matches the disk's model (glob).
    #[talos(key = "model", omitempty, go_name = "Model")]
    pub model: String,
    /// Matches the disk's serial number (glob).
    #[talos(key = "serial", omitempty, go_name = "Serial")]
    pub serial: String,
    /// Matches the disk's modalias (glob).
    #[talos(key = "modalias", omitempty, go_name = "Modalias")]
    pub modalias: String,
    /// Matches the disk's UUID (glob).
    #[talos(key = "uuid", omitempty, go_name = "UUID")]
    pub uuid: String,
    /// Matches the disk's WWID (glob).
    #[talos(key = "wwid", omitempty, go_name = "WWID")]
    pub wwid: String,
    /// Matches the disk type (`ssd`, `hdd`, `nvme`, `sd`).
    #[talos(key = "type", omitempty, go_name = "Type")]
    pub r#type: InstallDiskType,
    /// Matches the disk's bus path (glob).
    #[talos(key = "busPath", omitempty, go_name = "BusPath")]
    pub bus_path: String,
}

/// `v1alpha1.InstallExtensionConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.InstallExtensionConfig")]
pub struct InstallExtensionConfig {
    /// The extension's image reference.
    #[talos(key = "image", go_name = "ExtensionImage")]
    pub image: String,
}

/// `v1alpha1.MachineDisk`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.MachineDisk")]
pub struct MachineDisk {
    /// The disk's device path.
    #[talos(key = "device", omitempty, go_name = "DeviceName")]
    pub device: String,
    /// Partitions created on the disk.
    #[talos(key = "partitions", omitempty, go_name = "DiskPartitions")]
    pub partitions: Vec<Option<DiskPartition>>,
}

/// `v1alpha1.DiskPartition`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.DiskPartition")]
pub struct DiskPartition {
    /// The partition's size (0 for the rest of the disk).
    #[talos(key = "size", omitempty, go_name = "DiskSize")]
    pub size: DiskSize,
    /// Where the partition is mounted.
    #[talos(key = "mountpoint", omitempty, go_name = "DiskMountPoint")]
    pub mountpoint: String,
}

/// `v1alpha1.SystemDiskEncryptionConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.SystemDiskEncryptionConfig")]
pub struct SystemDiskEncryptionConfig {
    /// Encryption of the STATE partition.
    #[talos(key = "state", omitempty, go_name = "StatePartition")]
    pub state: Option<EncryptionConfig>,
    /// Encryption of the EPHEMERAL partition.
    #[talos(key = "ephemeral", omitempty, go_name = "EphemeralPartition")]
    pub ephemeral: Option<EncryptionConfig>,
}

/// `v1alpha1.EncryptionConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionConfig")]
pub struct EncryptionConfig {
    /// The encryption provider (`luks2`).
    #[talos(key = "provider", go_name = "EncryptionProvider")]
    pub provider: String,
    /// The key slots that can unlock the partition.
    #[talos(key = "keys", go_name = "EncryptionKeys")]
    pub keys: Vec<Option<EncryptionKey>>,
    /// The cipher.
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
}

/// `v1alpha1.EncryptionKey`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKey")]
pub struct EncryptionKey {
    /// A static passphrase key.
    #[talos(key = "static", omitempty, go_name = "KeyStatic")]
    pub r#static: Option<EncryptionKeyStatic>,
    /// A key derived from the node's identity.
    #[talos(key = "nodeID", omitempty, go_name = "KeyNodeID")]
    pub node_id: Option<EncryptionKeyNodeID>,
    /// A key sealed by a key management server.
    #[talos(key = "kms", omitempty, go_name = "KeyKMS")]
    pub kms: Option<EncryptionKeyKMS>,
    /// The LUKS key slot the key occupies.
    #[talos(key = "slot", go_name = "KeySlot")]
    pub slot: i64,
    /// A key sealed by the TPM.
    #[talos(key = "tpm", omitempty, go_name = "KeyTPM")]
    pub tpm: Option<EncryptionKeyTPM>,
}

/// `v1alpha1.EncryptionKeyStatic`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKeyStatic")]
pub struct EncryptionKeyStatic {
    /// The passphrase; a secret.
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
    /// The key management server's URL.
    #[talos(key = "endpoint", go_name = "KMSEndpoint")]
    pub endpoint: String,
}

/// `v1alpha1.EncryptionKeyTPM`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.EncryptionKeyTPM")]
pub struct EncryptionKeyTPM {
    /// Refuses to enroll the key unless Secure Boot is on.
    #[talos(key = "checkSecurebootStatusOnEnroll", omitempty, go_name = "TPMCheckSecurebootStatusOnEnroll")]
    pub check_secureboot_status_on_enroll: Option<bool>,
}
