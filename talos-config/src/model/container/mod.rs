//! Document kinds of upstream `pkg/machinery/config/types/container` (new in v1.14): a
//! container Talos runs on the host.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

/// `ContainerConfig` (named): a host container.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerConfigV1Alpha1")]
pub struct ContainerConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The container's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The image reference.
    #[talos(key = "image", go_name = "ContainerImage")]
    pub image: String,
    /// Replaces the image's entrypoint.
    #[talos(key = "entrypoint", omitempty, go_name = "ContainerEntrypoint")]
    pub entrypoint: Vec<String>,
    /// Arguments of the entrypoint.
    #[talos(key = "args", omitempty, go_name = "ContainerArgs")]
    pub args: Vec<String>,
    /// The working directory.
    #[talos(key = "workingDir", omitempty, go_name = "ContainerWorkingDir")]
    pub working_dir: String,
    /// The user and group the process runs as.
    #[talos(key = "runAs", omitempty, go_name = "RunAsConfig")]
    pub run_as: Option<ContainerRunAs>,
    /// `KEY=value` environment entries.
    #[talos(key = "environment", omitempty, go_name = "ContainerEnvironment")]
    pub environment: Vec<String>,
    /// Mounts into the container.
    #[talos(key = "mounts", omitempty, go_name = "MountsConfig")]
    pub mounts: Vec<ContainerMount>,
    /// Security profile and capabilities.
    #[talos(key = "security", omitempty, go_name = "SecurityConfig")]
    pub security: Option<ContainerSecurity>,
    /// The network mode.
    #[talos(key = "network", omitempty, go_name = "NetworkConfig")]
    pub network: Option<ContainerNetwork>,
    /// Resource limits.
    #[talos(key = "resources", omitempty, go_name = "ResourcesConfig")]
    pub resources: Option<ContainerResources>,
    /// What the container waits for before it starts.
    #[talos(key = "dependsOn", omitempty, go_name = "DependsOnConfig")]
    pub depends_on: Option<ContainerDependsOn>,
}
crate::document::named_kind!(ContainerConfig => "ContainerConfig" since V1_14_0_RC1);

/// `container.ContainerRunAs`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerRunAs")]
pub struct ContainerRunAs {
    /// The user ID.
    #[talos(key = "uid", omitempty, go_name = "RunAsUID")]
    pub uid: Option<i32>,
    /// The group ID.
    #[talos(key = "gid", omitempty, go_name = "RunAsGID")]
    pub gid: Option<i32>,
}

/// `container.ContainerMount`: exactly one of the three sources.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerMount")]
pub struct ContainerMount {
    /// A user volume mounted in.
    #[talos(key = "userVolume", omitempty, go_name = "UserVolumeMount")]
    pub user_volume: Option<UserVolumeMount>,
    /// A tmpfs.
    #[talos(key = "tmpfs", omitempty, go_name = "TmpfsMount")]
    pub tmpfs: Option<TmpfsMount>,
    /// A host path.
    #[talos(key = "hostPath", omitempty, go_name = "HostPathMount")]
    pub host_path: Option<HostPathMount>,
}

/// `container.UserVolumeMount`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.UserVolumeMount")]
pub struct UserVolumeMount {
    /// The user volume's name.
    #[talos(key = "name", go_name = "VolumeName")]
    pub name: String,
    /// Where it is mounted in the container.
    #[talos(key = "destination", go_name = "MountDestination")]
    pub destination: String,
    /// Mount options.
    #[talos(key = "options", omitempty, go_name = "MountOpts")]
    pub options: Vec<String>,
}

/// `container.TmpfsMount`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.TmpfsMount")]
pub struct TmpfsMount {
    /// Where it is mounted in the container.
    #[talos(key = "destination", go_name = "MountDestination")]
    pub destination: String,
    /// The tmpfs size.
    #[talos(key = "size", omitempty, go_name = "MountSize")]
    pub size: String,
    /// Mount options.
    #[talos(key = "options", omitempty, go_name = "MountOpts")]
    pub options: Vec<String>,
}

/// `container.HostPathMount`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.HostPathMount")]
pub struct HostPathMount {
    /// The host path.
    #[talos(key = "source", go_name = "MountSource")]
    pub source: String,
    /// Where it is mounted in the container.
    #[talos(key = "destination", go_name = "MountDestination")]
    pub destination: String,
    /// Mount options.
    #[talos(key = "options", omitempty, go_name = "MountOpts")]
    pub options: Vec<String>,
}

/// `container.ContainerSecurity`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerSecurity")]
pub struct ContainerSecurity {
    /// `restricted` (the default) or `privileged`.
    #[talos(key = "profile", omitempty, go_name = "SecurityProfile")]
    pub profile: String,
    /// Capabilities added and dropped.
    #[talos(key = "capabilities", omitempty, go_name = "SecurityCapabilities")]
    pub capabilities: Option<ContainerCapabilities>,
}

/// `container.ContainerCapabilities`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerCapabilities")]
pub struct ContainerCapabilities {
    /// Capabilities added (without `CAP_`).
    #[talos(key = "add", omitempty, go_name = "CapabilitiesAddConfig")]
    pub add: Vec<String>,
    /// Capabilities dropped (without `CAP_`; `ALL` drops every one).
    #[talos(key = "drop", omitempty, go_name = "CapabilitiesDropConfig")]
    pub drop: Vec<String>,
}

/// `container.ContainerNetwork`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerNetwork")]
pub struct ContainerNetwork {
    /// `none` (the default) or `host`.
    #[talos(key = "mode", omitempty, go_name = "NetworkMode")]
    pub mode: String,
}

/// `container.ContainerResources`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerResources")]
pub struct ContainerResources {
    /// The limits.
    #[talos(key = "limits", omitempty, go_name = "Limits")]
    pub limits: Option<ContainerResourceLimits>,
}

/// `container.ContainerResourceLimits`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerResourceLimits")]
pub struct ContainerResourceLimits {
    /// CPU in millicores (`1500m`).
    #[talos(key = "cpu", omitempty, go_name = "CPU")]
    pub cpu: String,
    /// Memory as a byte size (`512MiB`).
    #[talos(key = "memory", omitempty, go_name = "Memory")]
    pub memory: String,
}

/// `container.ContainerDependsOn`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "container.ContainerDependsOn")]
pub struct ContainerDependsOn {
    /// Paths that must exist.
    #[talos(key = "paths", omitempty, go_name = "PathsConfig")]
    pub paths: Vec<String>,
    /// Network conditions (`addresses`, `connectivity`, `hostname`, `etcfiles`).
    #[talos(key = "networks", omitempty, go_name = "NetworksConfig")]
    pub networks: Vec<String>,
    /// Waits for time sync.
    #[talos(key = "time", omitempty, go_name = "TimeConfig")]
    pub time: Option<bool>,
    /// Other containers that must run first.
    #[talos(key = "containers", omitempty, go_name = "ContainersConfig")]
    pub containers: Vec<String>,
}

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<ContainerConfig>()];
