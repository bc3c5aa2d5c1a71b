//! The lab's network policy: the host cluster's ranges that step 4 compares the node's pod and
//! service subnets against. Lab knowledge, so it lives here rather than in the library.

use std::net::{IpAddr, Ipv4Addr};

use talos_config::net::Prefix;

/// `10.244.0.0/16` and `10.96.0.0/12`: the lab host cluster's pod and service ranges (which are
/// also Talos's default pod and service subnets).
pub fn lab_host_ranges() -> Vec<Prefix> {
    [(Ipv4Addr::new(10, 244, 0, 0), 16), (Ipv4Addr::new(10, 96, 0, 0), 12)]
        .into_iter()
        .filter_map(|(addr, bits)| Prefix::new(IpAddr::V4(addr), bits))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lab_ranges() {
        let ranges: Vec<String> = super::lab_host_ranges().iter().map(ToString::to_string).collect();
        assert_eq!(ranges, ["10.244.0.0/16", "10.96.0.0/12"]);
    }
}
