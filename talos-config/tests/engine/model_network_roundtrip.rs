//! Every Talos v1.13.9 network testdata file decodes and re-encodes byte for byte.

use crate::model_network_util;

use model_network_util::peer;
use talos_config::testing::roundtrip;

fn check(name: &str) {
    let Some(input) = peer(name) else { return };
    let expected = String::from_utf8(input.clone()).expect("utf-8");
    assert_eq!(roundtrip(&input), Ok(expected), "{name}");
}

macro_rules! peer_tests {
    ($($test:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            check($file);
        }
    )*};
}

peer_tests!(
    rt_blackholerouteconfig => "blackholerouteconfig.yaml",
    rt_bondconfig => "bondconfig.yaml",
    rt_bridgeconfig => "bridgeconfig.yaml",
    rt_defaultactionconfig => "defaultactionconfig.yaml",
    rt_dhcpv4config => "dhcpv4config.yaml",
    rt_dhcpv6config => "dhcpv6config.yaml",
    rt_dummylinkconfig => "dummylinkconfig.yaml",
    rt_ethernetconfig => "ethernetconfig.yaml",
    rt_hcloudvipconfig => "hcloudvipconfig.yaml",
    rt_hostnameconfig => "hostnameconfig.yaml",
    rt_kubespanconfig => "kubespanconfig.yaml",
    rt_kubespanendpointsconfig => "kubespanendpointsconfig.yaml",
    rt_layer2vipconfig => "layer2vipconfig.yaml",
    rt_linkaliasconfig => "linkaliasconfig.yaml",
    rt_linkconfig => "linkconfig.yaml",
    rt_resolverconfig => "resolverconfig.yaml",
    rt_routingruleconfig => "routingruleconfig.yaml",
    rt_ruleconfig => "ruleconfig.yaml",
    rt_statichostconfig => "statichostconfig.yaml",
    rt_tcpprobeconfig => "tcpprobeconfig.yaml",
    rt_timesyncconfig => "timesyncconfig.yaml",
    rt_vlanconfig => "vlanconfig.yaml",
    rt_vrfconfig => "vrfconfig.yaml",
    rt_wireguardconfig => "wireguardconfig.yaml",
    rt_wireguardconfig_redacted => "wireguardconfig_redacted.yaml",
);

#[test]
fn every_peer_file_is_covered() {
    let Some(dir) = model_network_util::peer_dir() else { return };
    let mut names: Vec<String> = std::fs::read_dir(dir.join("types/network/testdata"))
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    assert_eq!(names.len(), 25);
}
