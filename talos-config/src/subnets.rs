//! Pod and service subnets against the host's own ranges: a check Talos never makes (it accepts
//! overlapping, and even unparsable, subnets at validation time), which catches a cluster whose
//! pods or services would shadow the network it runs on.

use crate::Config;
use crate::net::{Prefix, overlaps, parse_prefix};

/// Talos's default pod subnet (`constants.DefaultIPv4PodNet`), used when `podSubnets` is empty.
pub(crate) const DEFAULT_POD_SUBNET: &str = "10.244.0.0/16";

/// Talos's default service subnet (`constants.DefaultIPv4ServiceNet`), used when
/// `serviceSubnets` is empty.
pub(crate) const DEFAULT_SERVICE_SUBNET: &str = "10.96.0.0/12";

/// One pod or service subnet of a config and the host ranges it overlaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubnetCheck {
    /// The document the subnet is in: a `KubeNetworkConfig` (Talos v1.14) when the config has
    /// one, else the v1alpha1 document.
    pub document: crate::DocumentId,
    /// The field of the entry (`cluster.network.podSubnets[0]`), or of the list when the
    /// subnet is Talos's default (`cluster.network.podSubnets`).
    pub path: crate::FieldPath,
    /// The subnet, as written.
    pub subnet: Prefix,
    /// Whether the list was empty or absent and this is Talos's default, which Talos uses then.
    pub defaulted: bool,
    /// The host ranges it overlaps, in the order they were given.
    pub overlaps: Vec<Prefix>,
}

/// What [`subnets_overlap_host`] found: every effective pod and service subnet, each with the
/// host ranges it overlaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubnetOverlap {
    /// `cluster.network.podSubnets`, in order (Talos's default when the list is empty).
    pub pod_subnets: Vec<SubnetCheck>,
    /// `cluster.network.serviceSubnets`, in order (Talos's default when the list is empty).
    pub service_subnets: Vec<SubnetCheck>,
}

impl SubnetOverlap {
    /// Whether any pod or service subnet overlaps any host range (the lab's `overlaps_host`).
    ///
    /// ```
    /// use talos_config::{Config, net::Prefix, subnets};
    ///
    /// let lab: [Prefix; 2] = ["10.244.0.0/16".parse()?, "10.96.0.0/12".parse()?];
    /// let config = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  network:\n    podSubnets: [10.200.0.0/16]\n    serviceSubnets: [10.100.0.0/16]\n")?;
    /// let found = subnets::subnets_overlap_host(&config, &lab).unwrap();
    /// assert!(found.any()); // 10.100.0.0/16 lies inside 10.96.0.0/12
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn any(&self) -> bool {
        self.iter().any(|c| !c.overlaps.is_empty())
    }

    /// Every checked subnet, pod subnets first.
    ///
    /// ```
    /// use talos_config::{Config, net::Prefix, subnets};
    ///
    /// let lab: [Prefix; 2] = ["10.244.0.0/16".parse()?, "10.96.0.0/12".parse()?];
    /// let config = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n")?;
    /// let found = subnets::subnets_overlap_host(&config, &lab).unwrap();
    /// let paths: Vec<String> = found.iter().map(|c| c.path.to_string()).collect();
    /// assert_eq!(paths, ["cluster.network.podSubnets", "cluster.network.serviceSubnets"]);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &SubnetCheck> {
        self.pod_subnets.iter().chain(&self.service_subnets)
    }
}

/// For the config's pod and service subnets (a `KubeNetworkConfig` document's `podSubnets` and
/// `serviceSubnets` when the config has one, as Talos v1.14 reads them, else the v1alpha1
/// document's `cluster.network`), reports which of them overlap which of `host_ranges`
/// ([`overlaps`]).
///
/// The subnets checked are the ones Talos would use: the configured list, or Talos's default
/// (`10.244.0.0/16`, `10.96.0.0/12`) when it is empty or absent, marked
/// [`defaulted`](SubnetCheck::defaulted). **This is not a Talos check**: Talos accepts
/// overlapping (and even unparsable) subnets at validation time (docs/validation.md §6).
///
/// `Err` when the config has neither document, or a subnet does not parse (the path and
/// Go's `netip.ParsePrefix` error, e.g.
/// `cluster.network.podSubnets[0]: netip.ParsePrefix("10.244.0.0"): no '/'`).
///
/// ```
/// use talos_config::{Config, net::Prefix, subnets};
///
/// let yaml = b"version: v1alpha1\nmachine:\n  type: controlplane\ncluster:\n  network:\n    podSubnets:\n      - 10.244.0.0/16\n    serviceSubnets:\n      - 10.96.0.0/12\n";
/// let lab: [Prefix; 2] = ["10.244.0.0/16".parse()?, "10.96.0.0/12".parse()?];
/// let config = Config::from_bytes(yaml)?;
/// let found = subnets::subnets_overlap_host(&config, &lab).unwrap();
/// assert!(found.any());
/// assert_eq!(found.pod_subnets[0].path.to_string(), "cluster.network.podSubnets[0]");
/// assert_eq!(found.pod_subnets[0].overlaps[0].to_string(), "10.244.0.0/16");
/// assert_eq!(found.service_subnets[0].overlaps[0].to_string(), "10.96.0.0/12");
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn subnets_overlap_host(config: &Config, host_ranges: &[Prefix]) -> Result<SubnetOverlap, crate::Error> {
    if let Some(doc) = config.get::<crate::model::k8s::KubeNetworkConfig>() {
        let text = |list: &Option<Vec<crate::model::network::types::Prefix>>| -> Vec<String> {
            list.iter().flatten().map(|p| p.0.marshal_text()).collect()
        };
        let at = Lists { document: crate::DocumentId::of(doc), pods: "podSubnets", services: "serviceSubnets" };
        return at.check(&text(&doc.pod_subnets.0), &text(&doc.service_subnets.0), host_ranges);
    }
    let Some(doc) = config.get::<crate::model::v1alpha1::Config>() else {
        return Err(crate::Error::invalid_value("the config has no v1alpha1 document (no cluster.network)"));
    };
    let network = doc.cluster.as_ref().and_then(|c| c.network.as_ref());
    let pods = network.and_then(|n| n.pod_subnets.0.as_deref()).unwrap_or_default();
    let services = network.and_then(|n| n.service_subnets.0.as_deref()).unwrap_or_default();
    let at = Lists {
        document: crate::DocumentId::legacy(),
        pods: "cluster.network.podSubnets",
        services: "cluster.network.serviceSubnets",
    };
    at.check(pods, services, host_ranges)
}

/// Where the two lists are.
struct Lists {
    document: crate::DocumentId,
    pods: &'static str,
    services: &'static str,
}

impl Lists {
    fn check(
        &self,
        pods: &[String],
        services: &[String],
        host_ranges: &[Prefix],
    ) -> Result<SubnetOverlap, crate::Error> {
        Ok(SubnetOverlap {
            pod_subnets: check_list(&self.document, self.pods, pods, DEFAULT_POD_SUBNET, host_ranges)
                .map_err(crate::Error::invalid_value)?,
            service_subnets: check_list(&self.document, self.services, services, DEFAULT_SERVICE_SUBNET, host_ranges)
                .map_err(crate::Error::invalid_value)?,
        })
    }
}

fn check_list(
    document: &crate::DocumentId,
    path: &str,
    list: &[String],
    default: &str,
    host_ranges: &[Prefix],
) -> Result<Vec<SubnetCheck>, String> {
    let list_path = crate::FieldPath::parse(path);
    let check = |path: crate::FieldPath, text: &str, defaulted: bool| -> Result<SubnetCheck, String> {
        let subnet = parse_prefix(text).map_err(|e| format!("{path}: {e}"))?;
        let overlaps = host_ranges.iter().filter(|h| overlaps(&subnet, h)).copied().collect();
        Ok(SubnetCheck { document: document.clone(), path, subnet, defaulted, overlaps })
    };
    if list.is_empty() {
        return Ok(vec![check(list_path, default, true)?]);
    }
    list.iter().enumerate().map(|(i, text)| check(list_path.index(i), text, false)).collect()
}
