//! Document kinds of upstream `pkg/machinery/config/types/cluster` (new in v1.14): the cluster
//! discovery service and the cluster's identity.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;

/// `DiscoveryServiceConfig` (named): a cluster discovery service endpoint.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cluster.DiscoveryServiceConfigV1Alpha1")]
pub struct DiscoveryServiceConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The discovery service's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The service's URL (`http`, `https` or `grpc`).
    #[talos(key = "endpoint", go_name = "EndpointURL")]
    pub endpoint: MetaUrl,
}
crate::document::named_kind!(DiscoveryServiceConfig => "DiscoveryServiceConfig" since V1_14_0_RC1);

/// `DiscoveryIdentityConfig` (unnamed): the cluster's identifier and shared secret.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cluster.DiscoveryIdentityConfigV1Alpha1")]
pub struct DiscoveryIdentityConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The cluster's unique identifier (base64).
    #[talos(key = "clusterID", go_name = "MetaClusterID")]
    pub cluster_id: String,
    /// The members' shared secret (base64 of 32 bytes); a secret.
    #[talos(key = "clusterSecret", go_name = "MetaClusterSecret")]
    pub cluster_secret: String,
}
crate::document::unnamed_kind!(DiscoveryIdentityConfig => "DiscoveryIdentityConfig" since V1_14_0_RC1);

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<DiscoveryServiceConfig>(), entry::<DiscoveryIdentityConfig>()];
