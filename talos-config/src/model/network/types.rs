//! Value types shared by the network documents: enumer-generated enums, `netip` text forms and
//! their Talos wrappers, hardware addresses, port ranges and CEL expressions.

use crate::value::{DecodeCx, MergeFlags, Value, construct_error, decode_binary, is_null, text_unmarshaler_refuses};
use crate::yaml::{Node, NodeValue};

/// Records the error a custom unmarshaler returns (go-yaml `fail(err)`).
///
/// go-yaml aborts the whole decode with the bare error text; the framework only collects
/// construct errors, so the text is recorded there (with its line prefix).
pub(crate) fn unmarshal_error(cx: &mut DecodeCx, node: &Node, message: impl std::fmt::Display) {
    cx.error(node, message);
}

/// The text go-yaml hands to `UnmarshalText` for `node`: `Ok(None)` for null (the zero value),
/// `Err(())` after recording go-yaml's `(TextUnmarshaler)` error for a collection.
pub(crate) fn text_for_unmarshal(node: &Node, cx: &mut DecodeCx, go_type: &str) -> Result<Option<String>, ()> {
    if text_unmarshaler_refuses(cx, node, go_type) {
        return Err(());
    }
    if is_null(node) {
        return Ok(None);
    }
    match &node.value {
        NodeValue::Scalar(s) if node.tag.as_deref() == Some("!!binary") => match decode_binary(&s.text) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) => {
                cx.error(node, e);
                Err(())
            }
        },
        NodeValue::Scalar(s) => Ok(Some(s.text.clone())),
        _ => Err(()),
    }
}

pub(crate) use crate::gofmt::quote as go_quote;

/// An integer Go type printed and read through names (`encoding.TextMarshaler`). The engine's
/// view; users parse with `FromStr` and print with `Display`.
pub(crate) trait GoEnum: Copy + Default + std::fmt::Debug + PartialEq {
    /// Go type name (`nethelpers.BondMode`).
    const GO: &'static str;
    /// The raw value.
    fn raw(&self) -> u32;
    /// Upstream `String()`.
    fn text(&self) -> String;
    /// Upstream `UnmarshalText`: the value, or the error text.
    fn parse_text(text: &str) -> Result<Self, String>;
    /// The names `parse_text` takes (any letter case), when they are a fixed list.
    fn names() -> Vec<&'static str> {
        Vec::new()
    }
}

/// Implements [`Value`] for a [`GoEnum`]: decoded through `UnmarshalText`, encoded through
/// `MarshalText`, merged as a Go integer, matched through `String()`. `Display` is `String()`
/// and `FromStr` is `UnmarshalText` (error [`crate::Error`], kind `InvalidValue`, upstream's
/// text); the doc attributes after the name document `from_str`.
macro_rules! enum_value {
    ($name:ident $(, $(#[$from_str_doc:meta])+)?) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::model::network::types::GoEnum::text(self))
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::Error;

            $($(#[$from_str_doc])+)?
            fn from_str(text: &str) -> Result<Self, $crate::Error> {
                <Self as $crate::model::network::types::GoEnum>::parse_text(text).map_err($crate::Error::invalid_value)
            }
        }

        impl $crate::value::Value for $name {
            fn go_type() -> String {
                <$name as $crate::model::network::types::GoEnum>::GO.into()
            }

            fn json_schema(_cx: &mut $crate::value::json_schema::SchemaCx) -> $crate::value::json_schema::Json {
                let names = <$name as $crate::model::network::types::GoEnum>::names();
                if names.is_empty() { $crate::value::json_schema::scalar() } else { $crate::value::json_schema::enum_names(&names) }
            }

            fn text_unmarshaler() -> bool {
                true
            }

            fn decode(node: &$crate::yaml::Node, cx: &mut $crate::value::DecodeCx) -> Self {
                use $crate::model::network::types::GoEnum as _;
                match $crate::model::network::types::text_for_unmarshal(node, cx, Self::GO) {
                    Ok(Some(text)) => match Self::parse_text(&text) {
                        Ok(v) => v,
                        Err(e) => {
                            $crate::model::network::types::unmarshal_error(cx, node, e);
                            Self::default()
                        }
                    },
                    _ => Self::default(),
                }
            }

            fn encode(&self) -> $crate::yaml::Node {
                $crate::yaml::Node::go_string($crate::model::network::types::GoEnum::text(self))
            }

            fn is_empty(&self) -> bool {
                $crate::model::network::types::GoEnum::raw(self) == 0
            }

            fn merge(&mut self, right: &Self, flags: $crate::value::MergeFlags) -> Result<(), String> {
                if $crate::model::network::types::GoEnum::raw(right) != 0 || flags.overwrite {
                    *self = *right;
                }
                Ok(())
            }

            fn match_text(&self) -> Option<String> {
                Some($crate::model::network::types::GoEnum::text(self))
            }
        }

        impl $crate::value::MapValue for $name {}
    };
}

/// Defines an enumer-generated Go enum (`enumer -linecomment -text`): names are matched as
/// written or lower-cased; unknown values print as `Type(N)`.
macro_rules! go_enum {
    (
        $(#[$m:meta])* $name:ident, $go:literal, $short:literal,
        { $first_val:literal => $first_text:literal $(, $val:literal => $text:literal)* $(,)? }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// Values and names, in upstream order.
            pub const NAMES: &'static [(u32, &'static str)] = &[($first_val, $first_text) $(, ($val, $text))*];
        }

        impl $crate::model::network::types::GoEnum for $name {
            const GO: &'static str = $go;

            fn raw(&self) -> u32 {
                self.0
            }

            fn text(&self) -> String {
                match Self::NAMES.iter().find(|(v, _)| *v == self.0) {
                    Some((_, n)) => (*n).to_string(),
                    None => format!("{}({})", $short, self.0),
                }
            }

            fn names() -> Vec<&'static str> {
                Self::NAMES.iter().map(|(_, n)| *n).collect()
            }

            fn parse_text(text: &str) -> Result<Self, String> {
                $crate::model::network::types::enumer_lookup(Self::NAMES, text)
                    .map($name)
                    .ok_or_else(|| format!("{} does not belong to {} values", text, $short))
            }
        }

        $crate::model::network::types::enum_value!(
            $name,
            /// Upstream `UnmarshalText` (enumer's `-text`): a name as written or lower-cased; the
            /// error is enumer's text.
            ///
            #[doc = concat!(
                "```\n",
                "use talos_config::model::network::types::", stringify!($name), ";\n\n",
                "let value: ", stringify!($name), " = \"", $first_text, "\".parse()?;\n",
                "assert_eq!(value.to_string(), \"", $first_text, "\");\n",
                "assert_eq!(\n",
                "    \"nope\".parse::<", stringify!($name), ">().unwrap_err().to_string(),\n",
                "    \"nope does not belong to ", $short, " values\"\n",
                ");\n",
                "# Ok::<(), talos_config::Error>(())\n",
                "```",
            )]
        );
    };
}

pub(crate) use enum_value;

/// enumer's `<Type>String`: the exact name or lower-cased name, then the lower-cased text.
pub(crate) fn enumer_lookup(names: &[(u32, &str)], text: &str) -> Option<u32> {
    let lower = text.to_lowercase();
    names
        .iter()
        .find(|(_, n)| *n == text || n.to_lowercase() == text)
        .or_else(|| names.iter().find(|(_, n)| *n == lower || n.to_lowercase() == lower))
        .map(|(v, _)| *v)
}

go_enum!(
    /// `nethelpers.DNSProtocol` (v1.14).
    DnsProtocol, "nethelpers.DNSProtocol", "DNSProtocol", {
        0 => "Do53", 1 => "DoT", 2 => "DoH",
    }
);

go_enum!(
    /// `nethelpers.AutoHostnameKind`.
    AutoHostnameKind, "nethelpers.AutoHostnameKind", "AutoHostnameKind", {
        0 => "off", 1 => "talos-addr", 2 => "stable",
    }
);

go_enum!(
    /// `nethelpers.BondMode`.
    BondMode, "nethelpers.BondMode", "BondMode", {
        0 => "balance-rr", 1 => "active-backup", 2 => "balance-xor", 3 => "broadcast",
        4 => "802.3ad", 5 => "balance-tlb", 6 => "balance-alb",
    }
);

go_enum!(
    /// `nethelpers.BondXmitHashPolicy`.
    BondXmitHashPolicy, "nethelpers.BondXmitHashPolicy", "BondXmitHashPolicy", {
        0 => "layer2", 1 => "layer3+4", 2 => "layer2+3", 3 => "encap2+3", 4 => "encap3+4",
    }
);

go_enum!(
    /// `nethelpers.ARPValidate`.
    ArpValidate, "nethelpers.ARPValidate", "ARPValidate", {
        0 => "none", 1 => "active", 2 => "backup", 3 => "all", 4 => "filter",
        5 => "filter-active", 6 => "filter-backup",
    }
);

go_enum!(
    /// `nethelpers.ARPAllTargets`.
    ArpAllTargets, "nethelpers.ARPAllTargets", "ARPAllTargets", { 0 => "any", 1 => "all" }
);

go_enum!(
    /// `nethelpers.LACPRate`.
    LacpRate, "nethelpers.LACPRate", "LACPRate", { 0 => "slow", 1 => "fast" }
);

go_enum!(
    /// `nethelpers.ADSelect`.
    AdSelect, "nethelpers.ADSelect", "ADSelect", { 0 => "stable", 1 => "bandwidth", 2 => "count" }
);

go_enum!(
    /// `nethelpers.ADLACPActive`.
    AdLacpActive, "nethelpers.ADLACPActive", "ADLACPActive", { 0 => "off", 1 => "on" }
);

go_enum!(
    /// `nethelpers.PrimaryReselect`.
    PrimaryReselect, "nethelpers.PrimaryReselect", "PrimaryReselect", {
        0 => "always", 1 => "better", 2 => "failure",
    }
);

go_enum!(
    /// `nethelpers.ClientIdentifier`.
    ClientIdentifier, "nethelpers.ClientIdentifier", "ClientIdentifier", {
        0 => "none", 1 => "mac", 2 => "duid",
    }
);

go_enum!(
    /// `nethelpers.DefaultAction`.
    DefaultAction, "nethelpers.DefaultAction", "DefaultAction", { 0 => "accept", 1 => "block" }
);

go_enum!(
    /// `nethelpers.Protocol`.
    Protocol, "nethelpers.Protocol", "Protocol", { 1 => "icmp", 6 => "tcp", 17 => "udp", 58 => "icmpv6" }
);

go_enum!(
    /// `nethelpers.RoutingRuleAction`.
    RoutingRuleAction, "nethelpers.RoutingRuleAction", "RoutingRuleAction", {
        0 => "unspec", 1 => "unicast", 6 => "blackhole", 7 => "unreachable", 8 => "prohibit",
    }
);

go_enum!(
    /// `nethelpers.VLANProtocol`.
    VlanProtocol, "nethelpers.VLANProtocol", "VLANProtocol", { 33024 => "802.1q", 34984 => "802.1ad" }
);

go_enum!(
    /// `nethelpers.WOLMode`.
    WolMode, "nethelpers.WOLMode", "WOLMode", {
        1 => "phy", 2 => "unicast", 4 => "multicast", 8 => "broadcast", 32 => "magic",
        64 => "magicsecure", 128 => "filter",
    }
);

/// `nethelpers.RoutingTable`: `unspec` (0), the tables `1`..`252` by number, `default`,
/// `main`, `local` (253..255).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoutingTable(pub u32);

impl GoEnum for RoutingTable {
    const GO: &'static str = "nethelpers.RoutingTable";

    fn raw(&self) -> u32 {
        self.0
    }

    fn text(&self) -> String {
        match self.0 {
            0 => "unspec".into(),
            1..=252 => self.0.to_string(),
            253 => "default".into(),
            254 => "main".into(),
            255 => "local".into(),
            n => format!("RoutingTable({n})"),
        }
    }

    fn parse_text(text: &str) -> Result<Self, String> {
        let lower = text.to_lowercase();
        for candidate in [text, lower.as_str()] {
            match candidate {
                "unspec" => return Ok(RoutingTable(0)),
                "default" => return Ok(RoutingTable(253)),
                "main" => return Ok(RoutingTable(254)),
                "local" => return Ok(RoutingTable(255)),
                _ => {}
            }
            // Only the canonical decimal spellings `1`..`252` are names.
            if let Ok(n) = candidate.parse::<u32>()
                && (1..=252).contains(&n)
                && n.to_string() == candidate
            {
                return Ok(RoutingTable(n));
            }
        }
        Err(format!("{text} does not belong to RoutingTable values"))
    }
}

enum_value!(
    RoutingTable,
    /// Upstream `UnmarshalText`: a name (`unspec`, `default`, `main`, `local`, as written or
    /// lower-cased) or a table number `1`..`252`; the error is upstream's text.
    ///
    /// ```
    /// use talos_config::model::network::types::RoutingTable;
    ///
    /// assert_eq!("MAIN".parse::<RoutingTable>()?, RoutingTable(254));
    /// assert_eq!("100".parse::<RoutingTable>()?.to_string(), "100");
    /// assert_eq!("253".parse::<RoutingTable>().unwrap_err().to_string(), "253 does not belong to RoutingTable values");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
);

/// `nethelpers.FailOverMAC`: `none`/`active`/`follow` (exact), `""`, or the numbers 0..2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FailOverMac(pub u32);

impl GoEnum for FailOverMac {
    const GO: &'static str = "nethelpers.FailOverMAC";

    fn raw(&self) -> u32 {
        self.0
    }

    fn text(&self) -> String {
        match self.0 {
            0 => "none".into(),
            1 => "active".into(),
            2 => "follow".into(),
            n => format!("FailOverMAC({n})"),
        }
    }

    fn parse_text(text: &str) -> Result<Self, String> {
        match text {
            "" | "none" => return Ok(FailOverMac(0)),
            "active" => return Ok(FailOverMac(1)),
            "follow" => return Ok(FailOverMac(2)),
            _ => {}
        }
        // strconv.ParseInt(text, 10, 8): optional sign, decimal digits.
        let digits = text.strip_prefix('+').or_else(|| text.strip_prefix('-')).unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let negative = text.starts_with('-');
            if let Ok(v) = digits.parse::<u32>() {
                if negative && v == 0 {
                    return Ok(FailOverMac(0));
                }
                if !negative && v <= 2 {
                    return Ok(FailOverMac(v));
                }
            }
        }
        Err(format!("invalid fail_over_mac value {text}"))
    }
}

enum_value!(
    FailOverMac,
    /// Upstream `UnmarshalText`: `none`, `active`, `follow` (exact), `""`, or the numbers 0..2;
    /// the error is upstream's text.
    ///
    /// ```
    /// use talos_config::model::network::types::FailOverMac;
    ///
    /// assert_eq!("follow".parse::<FailOverMac>()?, FailOverMac(2));
    /// assert_eq!("1".parse::<FailOverMac>()?.to_string(), "active");
    /// assert_eq!("Active".parse::<FailOverMac>().unwrap_err().to_string(), "invalid fail_over_mac value Active");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
);

// ---------------------------------------------------------------------------------------------
// net/netip

/// A Go `netip.Addr`: invalid (zero), IPv4, or IPv6 with an optional zone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum IpAddr {
    /// The zero `Addr`.
    #[default]
    Invalid,
    /// An IPv4 address.
    V4([u8; 4]),
    /// An IPv6 address and its zone (`""` for none).
    V6([u8; 16], String),
}

impl IpAddr {
    /// Go's `netip.ParseAddr`, with its error texts ([`crate::net`]'s parser).
    pub(crate) fn parse(s: &str) -> Result<IpAddr, String> {
        crate::net::parse_addr(s).map(|(addr, zone)| IpAddr::from_std(addr, zone))
    }

    /// The Go form of a parsed address and its zone (an IPv4-mapped IPv6 address stays IPv6).
    fn from_std(addr: std::net::IpAddr, zone: &str) -> IpAddr {
        match addr {
            std::net::IpAddr::V4(v4) => IpAddr::V4(v4.octets()),
            std::net::IpAddr::V6(v6) => IpAddr::V6(v6.octets(), zone.to_string()),
        }
    }

    /// True for a valid (non-zero) address.
    pub fn is_valid(&self) -> bool {
        !matches!(self, IpAddr::Invalid)
    }

    /// The high half of Go's internal 128-bit form (IPv4 is stored mapped: high half 0).
    pub fn hi(&self) -> u64 {
        match self {
            IpAddr::V6(b, _) => {
                let mut hi = [0u8; 8];
                hi.copy_from_slice(&b[..8]);
                u64::from_be_bytes(hi)
            }
            _ => 0,
        }
    }

    /// Go's `Addr.String()`.
    pub fn go_string(&self) -> String {
        match self {
            IpAddr::Invalid => "invalid IP".into(),
            IpAddr::V4(b) => format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]),
            IpAddr::V6(b, zone) => {
                let mut out = if b[..10].iter().all(|&x| x == 0) && b[10] == 0xff && b[11] == 0xff {
                    format!("::ffff:{}.{}.{}.{}", b[12], b[13], b[14], b[15])
                } else {
                    format_v6(b)
                };
                if !zone.is_empty() {
                    out.push('%');
                    out.push_str(zone);
                }
                out
            }
        }
    }

    /// Go's `Addr.MarshalText()` (`""` for the zero address).
    pub fn marshal_text(&self) -> String {
        match self {
            IpAddr::Invalid => String::new(),
            _ => self.go_string(),
        }
    }

    /// Go's `Addr.UnmarshalText()` (`""` is the zero address).
    pub(crate) fn unmarshal_text(s: &str) -> Result<IpAddr, String> {
        if s.is_empty() { Ok(IpAddr::Invalid) } else { IpAddr::parse(s) }
    }
}

impl std::str::FromStr for IpAddr {
    type Err = crate::Error;

    /// Go's `Addr.UnmarshalText`, as a config's text is read: `""` is the zero address,
    /// anything else goes through `netip.ParseAddr`, whose text the error carries.
    ///
    /// ```
    /// use talos_config::model::network::types::IpAddr;
    ///
    /// assert_eq!("fe80::1%eth0".parse::<IpAddr>()?.go_string(), "fe80::1%eth0");
    /// assert_eq!("".parse::<IpAddr>()?, IpAddr::Invalid);
    /// assert_eq!("1.2.3".parse::<IpAddr>().unwrap_err().to_string(), r#"ParseAddr("1.2.3"): IPv4 address too short"#);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<IpAddr, crate::Error> {
        IpAddr::unmarshal_text(s).map_err(crate::Error::invalid_value)
    }
}

/// RFC 5952 text of 16 bytes: the longest run (first of equals) of two or more zero groups
/// becomes `::`.
fn format_v6(b: &[u8; 16]) -> String {
    let groups: Vec<u16> = (0..8).map(|i| u16::from_be_bytes([b[2 * i], b[2 * i + 1]])).collect();
    let (mut best_start, mut best_len) = (usize::MAX, 0usize);
    let mut i = 0;
    while i < 8 {
        if groups[i] == 0 {
            let start = i;
            while i < 8 && groups[i] == 0 {
                i += 1;
            }
            if i - start > best_len && i - start >= 2 {
                best_start = start;
                best_len = i - start;
            }
        } else {
            i += 1;
        }
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == best_start {
            out.push_str("::");
            i += best_len;
            continue;
        }
        if i > 0 && !out.ends_with(':') {
            out.push(':');
        }
        out.push_str(&format!("{:x}", groups[i]));
        i += 1;
    }
    out
}

/// The merge error Go's reflection-based merge reports for any `netip.Addr` it walks into
/// (its fields are unexported).
fn addr_merge_error(left: &IpAddr) -> String {
    format!(
        "merge field netip.Addr.addr: merge field netip.uint128.hi: merge not possible, left {} is not settable",
        left.hi()
    )
}

/// A Go `netip.Prefix`: an address (not masked) and a prefix length.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct IpPrefix {
    /// The address as written.
    pub addr: IpAddr,
    /// The prefix length (meaningful when `addr` is valid).
    pub bits: u8,
}

impl IpPrefix {
    /// Go's `netip.ParsePrefix`, with its error texts ([`crate::net::parse_prefix`]).
    pub(crate) fn parse(s: &str) -> Result<IpPrefix, String> {
        let prefix = crate::net::parse_prefix(s)?;
        Ok(IpPrefix { addr: IpAddr::from_std(prefix.addr(), ""), bits: prefix.bits() })
    }

    /// Go's `Prefix.String()`.
    pub fn go_string(&self) -> String {
        if !self.addr.is_valid() {
            return "invalid Prefix".into();
        }
        format!("{}/{}", self.addr.go_string(), self.bits)
    }

    /// Go's `Prefix.MarshalText()`.
    pub fn marshal_text(&self) -> String {
        if *self == IpPrefix::default() { String::new() } else { self.go_string() }
    }

    /// Go's `Prefix.UnmarshalText()`.
    pub(crate) fn unmarshal_text(s: &str) -> Result<IpPrefix, String> {
        if s.is_empty() { Ok(IpPrefix::default()) } else { IpPrefix::parse(s) }
    }
}

impl std::str::FromStr for IpPrefix {
    type Err = crate::Error;

    /// Go's `Prefix.UnmarshalText`, as a config's text is read: `""` is the zero prefix,
    /// anything else goes through `netip.ParsePrefix`, whose text the error carries.
    ///
    /// ```
    /// use talos_config::model::network::types::IpPrefix;
    ///
    /// assert_eq!("2001:0DB8::1/64".parse::<IpPrefix>()?.go_string(), "2001:db8::1/64");
    /// assert_eq!("".parse::<IpPrefix>()?, IpPrefix::default());
    /// assert_eq!("10.0.0.1".parse::<IpPrefix>().unwrap_err().to_string(), r#"netip.ParsePrefix("10.0.0.1"): no '/'"#);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<IpPrefix, crate::Error> {
        IpPrefix::unmarshal_text(s).map_err(crate::Error::invalid_value)
    }
}

/// A Go `netip.AddrPort`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct IpAddrPort {
    /// The address.
    pub addr: IpAddr,
    /// The port.
    pub port: u16,
}

impl IpAddrPort {
    /// Go's `netip.ParseAddrPort`, with its error texts.
    pub(crate) fn parse(s: &str) -> Result<IpAddrPort, String> {
        let Some(i) = s.rfind(':') else {
            return Err("not an ip:port".into());
        };
        let (mut ip, port) = (&s[..i], &s[i + 1..]);
        if ip.is_empty() {
            return Err("no IP".into());
        }
        if port.is_empty() {
            return Err("no port".into());
        }
        let mut v6 = false;
        if ip.starts_with('[') {
            if ip.len() < 2 || !ip.ends_with(']') {
                return Err("missing ]".into());
            }
            ip = &ip[1..ip.len() - 1];
            v6 = true;
        }
        let port_num = match port.parse::<u16>() {
            Ok(p) if port.bytes().all(|c| c.is_ascii_digit()) => p,
            _ => {
                return Err(format!("invalid port {} parsing {}", go_quote(port), go_quote(s)));
            }
        };
        let addr = IpAddr::parse(ip)?;
        match (&addr, v6) {
            (IpAddr::V4(_), true) => {
                Err(format!("invalid ip:port {}, square brackets can only be used with IPv6 addresses", go_quote(s)))
            }
            (IpAddr::V6(..), false) => {
                Err(format!("invalid ip:port {}, IPv6 addresses must be surrounded by square brackets", go_quote(s)))
            }
            _ => Ok(IpAddrPort { addr, port: port_num }),
        }
    }

    /// Go's `AddrPort.String()`.
    pub fn go_string(&self) -> String {
        match &self.addr {
            IpAddr::Invalid => "invalid AddrPort".into(),
            IpAddr::V4(_) => format!("{}:{}", self.addr.go_string(), self.port),
            IpAddr::V6(..) => format!("[{}]:{}", self.addr.go_string(), self.port),
        }
    }

    /// Go's `AddrPort.MarshalText()` (`""` when the address is invalid).
    pub fn marshal_text(&self) -> String {
        if self.addr.is_valid() { self.go_string() } else { String::new() }
    }

    /// Go's `AddrPort.UnmarshalText()`.
    pub(crate) fn unmarshal_text(s: &str) -> Result<IpAddrPort, String> {
        if s.is_empty() { Ok(IpAddrPort::default()) } else { IpAddrPort::parse(s) }
    }
}

impl std::str::FromStr for IpAddrPort {
    type Err = crate::Error;

    /// Go's `AddrPort.UnmarshalText`, as a config's text is read: `""` is the zero value,
    /// anything else goes through `netip.ParseAddrPort`, whose text the error carries.
    ///
    /// ```
    /// use talos_config::model::network::types::IpAddrPort;
    ///
    /// assert_eq!("[2001:db8::1]:51820".parse::<IpAddrPort>()?.go_string(), "[2001:db8::1]:51820");
    /// assert_eq!("".parse::<IpAddrPort>()?, IpAddrPort::default());
    /// assert_eq!(
    ///     "10.3.4.3:x".parse::<IpAddrPort>().unwrap_err().to_string(),
    ///     r#"invalid port "x" parsing "10.3.4.3:x""#
    /// );
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<IpAddrPort, crate::Error> {
        IpAddrPort::unmarshal_text(s).map_err(crate::Error::invalid_value)
    }
}

/// Implements [`Value`] for a text-form netip type (bare or wrapped in a Talos struct).
macro_rules! netip_value {
    ($ty:ident, $go:literal, $parse:path, $text:ident, $stringer:ident, $merge:expr $(, atomic_since $since:ident)?) => {
        impl Value for $ty {
            fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
                crate::value::json_schema::scalar()
            }

            fn go_type() -> String {
                $go.into()
            }

            fn text_unmarshaler() -> bool {
                true
            }

            fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
                match text_for_unmarshal(node, cx, $go) {
                    Ok(Some(text)) => match $parse(&text) {
                        Ok(v) => v.into(),
                        Err(e) => {
                            unmarshal_error(cx, node, e);
                            Self::default()
                        }
                    },
                    _ => Self::default(),
                }
            }

            fn encode(&self) -> Node {
                Node::go_string(self.0.$text())
            }

            fn is_empty(&self) -> bool {
                *self == Self::default()
            }

            fn merge(&mut self, _right: &Self, _flags: MergeFlags) -> Result<(), String> {
                // From `since` the wrapper's own `Merge` takes a patch value that is not zero.
                $(if _flags.release >= crate::Release::$since {
                    if !_right.is_empty() {
                        *self = _right.clone();
                    }
                    return Ok(());
                })?
                let f: fn(&Self) -> String = $merge;
                Err(f(self))
            }

            fn match_text(&self) -> Option<String> {
                Some(self.0.$stringer())
            }
        }

        impl crate::value::MapValue for $ty {}
    };
}

/// A bare `netip.Prefix` field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NetipPrefix(pub IpPrefix);

impl From<IpPrefix> for NetipPrefix {
    fn from(p: IpPrefix) -> Self {
        NetipPrefix(p)
    }
}

netip_value!(NetipPrefix, "netip.Prefix", IpPrefix::unmarshal_text, marshal_text, go_string, |l| {
    format!("merge field netip.Prefix.ip: {}", addr_merge_error(&l.0.addr))
});

/// `network.Prefix`: a `netip.Prefix` with `IsZero()` (omitempty-aware); no custom merge.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prefix(pub IpPrefix);

impl From<IpPrefix> for Prefix {
    fn from(p: IpPrefix) -> Self {
        Prefix(p)
    }
}

netip_value!(Prefix, "network.Prefix", IpPrefix::unmarshal_text, marshal_text, go_string, |l| {
    format!("merge field network.Prefix.Prefix: merge field netip.Prefix.ip: {}", addr_merge_error(&l.0.addr))
}, atomic_since V1_14_0_RC1);

/// `network.Addr`: a `netip.Addr` with `IsZero()`; no custom merge.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Addr(pub IpAddr);

impl From<IpAddr> for Addr {
    fn from(a: IpAddr) -> Self {
        Addr(a)
    }
}

netip_value!(Addr, "network.Addr", IpAddr::unmarshal_text, marshal_text, go_string, |l| {
    format!("merge field network.Addr.Addr: {}", addr_merge_error(&l.0))
}, atomic_since V1_14_0_RC1);

/// A bare `netip.Addr` field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NetipAddr(pub IpAddr);

impl From<IpAddr> for NetipAddr {
    fn from(a: IpAddr) -> Self {
        NetipAddr(a)
    }
}

netip_value!(NetipAddr, "netip.Addr", IpAddr::unmarshal_text, marshal_text, go_string, |l| { addr_merge_error(&l.0) });

/// `network.AddrPort`: a `netip.AddrPort` with `IsZero()`; no custom merge.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AddrPort(pub IpAddrPort);

impl From<IpAddrPort> for AddrPort {
    fn from(a: IpAddrPort) -> Self {
        AddrPort(a)
    }
}

netip_value!(AddrPort, "network.AddrPort", IpAddrPort::unmarshal_text, marshal_text, go_string, |l| {
    format!("merge field network.AddrPort.AddrPort: merge field netip.AddrPort.ip: {}", addr_merge_error(&l.0.addr))
}, atomic_since V1_14_0_RC1);

/// A bare `netip.AddrPort` field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NetipAddrPort(pub IpAddrPort);

impl From<IpAddrPort> for NetipAddrPort {
    fn from(a: IpAddrPort) -> Self {
        NetipAddrPort(a)
    }
}

netip_value!(NetipAddrPort, "netip.AddrPort", IpAddrPort::unmarshal_text, marshal_text, go_string, |l| {
    format!("merge field netip.AddrPort.ip: {}", addr_merge_error(&l.0.addr))
});

// ---------------------------------------------------------------------------------------------
// Hardware addresses, port ranges, CEL

/// `nethelpers.HardwareAddr` (a byte slice): text is `:`-separated hex; `None` is Go's nil.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HardwareAddr(pub Option<Vec<u8>>);

impl HardwareAddr {
    /// `net.HardwareAddr.String()`.
    pub fn go_string(&self) -> String {
        self.0.as_deref().unwrap_or(&[]).iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(":")
    }

    /// Upstream `UnmarshalText`: `:` removed, the rest decoded as hex.
    pub(crate) fn unmarshal_text(s: &str) -> Result<HardwareAddr, String> {
        let raw: Vec<u8> = s.bytes().filter(|&b| b != b':').collect();
        let val = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        };
        let invalid = |c: u8| {
            let ch = char::from(c);
            format!("encoding/hex: invalid byte: U+{:04X} {}", c, go_quote_rune(ch))
        };
        let mut out = Vec::with_capacity(raw.len() / 2);
        let mut pairs = raw.chunks_exact(2);
        for pair in &mut pairs {
            let a = val(pair[0]).ok_or_else(|| invalid(pair[0]))?;
            let b = val(pair[1]).ok_or_else(|| invalid(pair[1]))?;
            out.push((a << 4) | b);
        }
        if let [last] = pairs.remainder() {
            if val(*last).is_none() {
                return Err(invalid(*last));
            }
            return Err("encoding/hex: odd length hex string".into());
        }
        Ok(HardwareAddr(Some(out)))
    }
}

impl std::str::FromStr for HardwareAddr {
    type Err = crate::Error;

    /// Upstream `UnmarshalText`: `:` removed, the rest decoded as hex; the error is Go's
    /// `encoding/hex` text.
    ///
    /// ```
    /// use talos_config::model::network::types::HardwareAddr;
    ///
    /// assert_eq!("2E3C4D5E6F70".parse::<HardwareAddr>()?.go_string(), "2e:3c:4d:5e:6f:70");
    /// assert_eq!("2e:3".parse::<HardwareAddr>().unwrap_err().to_string(), "encoding/hex: odd length hex string");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<HardwareAddr, crate::Error> {
        HardwareAddr::unmarshal_text(s).map_err(crate::Error::invalid_value)
    }
}

use crate::gofmt::quote_rune as go_quote_rune;

impl Value for HardwareAddr {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "nethelpers.HardwareAddr".into()
    }

    fn text_unmarshaler() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        match text_for_unmarshal(node, cx, "nethelpers.HardwareAddr") {
            Ok(Some(text)) => match HardwareAddr::unmarshal_text(&text) {
                Ok(v) => v,
                Err(e) => {
                    unmarshal_error(cx, node, e);
                    HardwareAddr::default()
                }
            },
            _ => HardwareAddr::default(),
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.go_string())
    }

    fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(Vec::is_empty)
    }

    // A byte slice: a non-nil patch value replaces the whole value.
    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        if right.0.is_some() {
            self.clone_from(right);
        }
        Ok(())
    }

    fn match_text(&self) -> Option<String> {
        Some(self.go_string())
    }
}

/// `network.PortRange`: a single port (printed as a number) or `lo-hi` (printed as a string).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PortRange {
    /// Low end (inclusive).
    pub lo: u16,
    /// High end (inclusive).
    pub hi: u16,
}

impl Value for PortRange {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "network.PortRange".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        // First try a uint16 (its type errors are discarded), then a string.
        let mut probe = cx.sibling();
        let port = u16::decode(node, &mut probe);
        if probe.errors().is_empty() {
            return PortRange { lo: port, hi: port };
        }
        let mut probe = cx.sibling();
        let text = String::decode(node, &mut probe);
        if !probe.errors().is_empty() {
            construct_error(cx, node, "string");
            return PortRange::default();
        }
        let parsed = text.split_once('-').and_then(|(lo, hi)| {
            let num = |s: &str| {
                if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) { s.parse::<u16>().ok() } else { None }
            };
            Some(PortRange { lo: num(lo)?, hi: num(hi)? })
        });
        match parsed {
            Some(pr) => pr,
            None => {
                unmarshal_error(cx, node, format!("invalid port range: {}", go_quote(&text)));
                PortRange::default()
            }
        }
    }

    fn encode(&self) -> Node {
        if self.lo == self.hi {
            Node::plain(self.lo.to_string())
        } else {
            Node::go_string(format!("{}-{}", self.lo, self.hi))
        }
    }

    fn is_empty(&self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        self.lo.merge(&right.lo, flags)?;
        self.hi.merge(&right.hi, flags)
    }

    fn match_text(&self) -> Option<String> {
        Some(format!("{}-{}", self.lo, self.hi))
    }
}

/// `cel.Expression` in text form; `None` is the zero expression. Its custom `Merge` always
/// takes the patch value, even a zero one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CelExpression(pub Option<String>);

impl Value for CelExpression {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "cel.Expression".into()
    }

    fn text_unmarshaler() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        match text_for_unmarshal(node, cx, "cel.Expression") {
            Ok(Some(text)) if !text.is_empty() => CelExpression(Some(text)),
            _ => CelExpression(None),
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.0.clone().unwrap_or_default())
    }

    fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        self.clone_from(right);
        Ok(())
    }
}
