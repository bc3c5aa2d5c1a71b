//! Checks several `types/k8s` kinds share: PEM material (`types/meta/certificate_key.go`),
//! pod resources, Kubernetes image tags and subnet lists.

use crate::go::errors::pem_blocks;
use crate::gofmt::quote;
use crate::model::cri::CertificateAndKey;
use crate::model::k8s::ResourcesConfig;
use crate::model::network::types::IpPrefix;
use crate::value::Unstructured;

/// The only PEM block type a CA certificate may have.
pub(super) const PEM_CERTIFICATE: &str = "CERTIFICATE";

/// Talos's `AssertValidPEM`: at least one block, each of an expected type when types are given.
pub(super) fn assert_valid_pem(data: &str, expected: &[&str]) -> Result<(), String> {
    let blocks = pem_blocks(data);
    if let Some(block) = blocks.iter().find(|b| !expected.is_empty() && !expected.contains(&b.kind.as_str())) {
        let types: Vec<String> = expected.iter().map(|t| quote(t)).collect();
        return Err(format!("unexpected PEM block type {}, expected one of [{}]", quote(&block.kind), types.join(" ")));
    }
    if blocks.is_empty() {
        return Err("no PEM blocks found".into());
    }
    Ok(())
}

/// `meta.CertificateAndKey.Validate(true)`: both present, both PEM, then both loadable.
pub(super) fn certificate_and_key(pair: &CertificateAndKey) -> Result<(), String> {
    if pair.cert.is_empty() {
        return Err("certificate is required".into());
    }
    if pair.key.is_empty() {
        return Err("key is required".into());
    }
    assert_valid_pem(&pair.cert, &[PEM_CERTIFICATE]).map_err(|e| format!("certificate: {e}"))?;
    assert_valid_pem(&pair.key, &[]).map_err(|e| format!("key: {e}"))?;
    crate::generate::keys::check_certificate(pair.cert.as_bytes())
        .map_err(|e| format!("certificate is invalid: {e}"))?;
    crate::generate::keys::check_key(pair.key.as_bytes(), true).map_err(|e| format!("key is invalid: {e}"))
}

/// `ResourcesConfig.Validate`: only `cpu` and `memory`, requests before limits. Upstream walks
/// a Go map (random order) and stops at the first bad key; keys are taken in byte order here.
pub(super) fn resources(res: &ResourcesConfig) -> Option<String> {
    let keys = |u: &Unstructured| u.object.iter().flat_map(|m| m.keys().cloned()).collect::<Vec<_>>();
    keys(&res.requests)
        .into_iter()
        .chain(keys(&res.limits))
        .find(|k| k != "cpu" && k != "memory")
        .map(|k| format!("unsupported pod resource {}", quote(&k)))
}

/// The image check a node makes (`ValidateKubernetesImageTag`, skipped by the client-side
/// `talosctl validate`): `<component> image is not valid: ...`.
pub(crate) fn image_tag(component: &str, image: &str, release: crate::Release) -> Option<String> {
    crate::validate::v1alpha1::validate_kubernetes_image_tag(image, release)
        .err()
        .map(|e| format!("{component} image is not valid: {e}"))
}

/// Subnets whose size is too small to hold anything (upstream `minSubnetHostBits`).
const MIN_SUBNET_HOST_BITS: u32 = 4;
/// The most bits between a pod subnet and the per-node mask (`PodSubnetNodeMaskMaxDiff`).
const POD_SUBNET_NODE_MASK_MAX_DIFF: i64 = 16;
/// The most host bits of a service subnet (`MaxHostBitsForServiceSubnet`).
const MAX_HOST_BITS_FOR_SERVICE_SUBNET: u32 = 20;

/// The size rule of one list: pod subnets against the per-node masks, or service subnets.
pub(super) enum SubnetSize {
    /// Pod subnets: the per-node IPv4 and IPv6 masks, `None` when the mask itself is invalid.
    Pod { v4: Option<i64>, v6: Option<i64> },
    /// Service subnets.
    Service,
}

use crate::model::network::types::IpAddr;

fn is_ipv4(p: &IpPrefix) -> bool {
    matches!(p.addr, IpAddr::V4(_))
}

fn addr_bits(p: &IpPrefix) -> u32 {
    if is_ipv4(p) { 32 } else { 128 }
}

/// Go's `Prefix.Masked() == Prefix`: no address bit set past the prefix length.
fn is_masked(p: &IpPrefix) -> bool {
    let bytes: &[u8] = match &p.addr {
        IpAddr::V4(b) => b,
        IpAddr::V6(b, _) => b,
        IpAddr::Invalid => return false,
    };
    bytes.iter().enumerate().all(|(i, byte)| {
        let keep = (usize::from(p.bits).saturating_sub(i * 8)).min(8);
        let host_mask = if keep == 8 { 0 } else { 0xffu8 >> keep };
        byte & host_mask == 0
    })
}

impl SubnetSize {
    fn check(&self, p: &IpPrefix) -> Result<(), String> {
        let bits = i64::from(p.bits);
        match self {
            SubnetSize::Pod { v4, v6 } => {
                let Some(node_mask) = (if is_ipv4(p) { *v4 } else { *v6 }) else { return Ok(()) };
                let shown = p.go_string();
                if bits > node_mask {
                    return Err(format!(
                        "invalid subnet: {shown} is smaller than the per-node pod CIDR mask size /{node_mask}"
                    ));
                }
                if node_mask - bits > POD_SUBNET_NODE_MASK_MAX_DIFF {
                    return Err(format!(
                        "invalid subnet: {shown} is too large for the per-node pod CIDR mask size /{node_mask}, the difference must be at most {POD_SUBNET_NODE_MASK_MAX_DIFF} bits"
                    ));
                }
                Ok(())
            }
            SubnetSize::Service => {
                let len = addr_bits(p);
                if len - u32::from(p.bits) > MAX_HOST_BITS_FOR_SERVICE_SUBNET {
                    return Err(format!(
                        "invalid subnet: {} is too large, it must be at least /{} (at most {MAX_HOST_BITS_FOR_SERVICE_SUBNET} host identifier bits)",
                        p.go_string(),
                        len - MAX_HOST_BITS_FOR_SERVICE_SUBNET
                    ));
                }
                Ok(())
            }
        }
    }
}

/// One subnet: valid, masked, not tiny, then the list's size rule; `Ok(true)` for IPv4.
fn subnet(p: &IpPrefix, size: &SubnetSize) -> Result<bool, String> {
    if !p.addr.is_valid() {
        return Err(format!("invalid subnet: {}", p.go_string()));
    }
    if !is_masked(p) {
        return Err(format!("invalid subnet: {} is not a valid CIDR", p.go_string()));
    }
    if addr_bits(p) - u32::from(p.bits) < MIN_SUBNET_HOST_BITS {
        return Err(format!(
            "invalid subnet: /{} is too small, it must be larger than /{}",
            p.bits,
            i64::from(p.bits) - i64::from(MIN_SUBNET_HOST_BITS)
        ));
    }
    size.check(p)?;
    Ok(is_ipv4(p))
}

/// Upstream `validateSubnets`: one or two subnets, at most one per IP family.
pub(super) fn subnets(list: &[IpPrefix], size: &SubnetSize) -> Result<(), String> {
    if list.is_empty() {
        return Err("at least one subnet must be specified".into());
    }
    if list.len() > 2 {
        return Err("at most two subnets can be specified for dual-stack clusters".into());
    }
    let mut v4 = 0;
    for p in list {
        if subnet(p, size)? {
            v4 += 1;
        }
    }
    if v4 > 1 || list.len() - v4 > 1 {
        return Err("at most one IPv4 and one IPv6 subnet can be specified for dual-stack clusters".into());
    }
    Ok(())
}
