//! Kinds of `types/k8s`.

use crate::model::k8s::*;
use crate::validate::Validate;

impl Validate for KubeAdmissionControlConfig {}
impl Validate for KubeAggregatorCaConfig {}
impl Validate for KubeApiServerConfig {}
impl Validate for KubeApiServerCaConfig {}
impl Validate for KubeAuditPolicyConfig {}
impl Validate for KubeAuthenticationConfig {}
impl Validate for KubeAuthorizerConfig {}
impl Validate for KubeClusterConfig {}
impl Validate for KubeControllerManagerConfig {}
impl Validate for KubeCoreDnsConfig {}
impl Validate for KubeCredentialProviderConfig {}
impl Validate for KubeEtcdEncryptionConfig {}
impl Validate for KubeExternalManifestConfig {}
impl Validate for KubeFlannelCniConfig {}
impl Validate for KubeInlineManifestConfig {}
impl Validate for KubeletConfig {}
impl Validate for KubePrismConfig {}
impl Validate for KubeNetworkConfig {}
impl Validate for KubeNodeConfig {}
impl Validate for KubeProxyConfig {}
impl Validate for KubeSchedulerConfig {}
impl Validate for KubeServiceAccountConfig {}
impl Validate for KubeStaticPodConfig {}
impl Validate for KubeTalosApiAccessConfig {}
