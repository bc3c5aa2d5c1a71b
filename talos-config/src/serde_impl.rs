//! The `serde` feature: `Serialize` and `Deserialize` for every model type and [`Config`],
//! carried by the types' [`Value`] rules.
//!
//! Serializing a value encodes it as Talos does (YAML key names, `omitempty`, Go's text forms)
//! and hands that tree to the serializer: mappings as maps (keys in order), sequences as
//! sequences, quoted and string scalars as strings, and plain scalars as go-yaml v4 reads them
//! (`null`, booleans, integers, floats; anything else a string). Deserializing builds a YAML
//! tree from the serde data (strings as quoted scalars, so that `"true"` stays a string) and
//! decodes it as Talos's loader does: go-yaml's type errors, then the unknown-keys check, with
//! Talos's texts. The trees built from serde data have no positions: the texts say `line 0`.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::value::{DecodeCx, Value};
use crate::yaml::emit_v4::emit_v4_with_comments;
use crate::yaml::node::deep;
use crate::yaml::resolve::{Resolved, format_float, resolve_v4};
use crate::yaml::{Node, NodeValue, Scalar, ScalarStyle};

/// `Serialize` through [`Value::encode`]: what `#[derive(Talos)]` and `via_value!` call.
pub(crate) fn serialize_value<T: Value, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    NodeSer(&value.encode()).serialize(serializer)
}

/// `Deserialize` through [`Value::decode`] (strict, as [`decode_strict`]): what
/// `#[derive(Talos)]` and `via_value!` call.
pub(crate) fn deserialize_value<'de, T: Value, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    let node = deserializer.deserialize_any(NodeVisitor)?;
    decode_strict(&node).map_err(de::Error::custom)
}

/// Decodes `node` into `T` as Talos's loader decodes a document: go-yaml's construct errors
/// first, then `xyaml.CheckUnknownKeys`, each with Talos's text.
fn decode_strict<T: Value>(node: &Node) -> Result<T, String> {
    let mut cx = DecodeCx::new();
    let value = T::decode(node, &mut cx);
    if let Some(e) = cx.into_error() {
        return Err(e);
    }
    match T::unknown_keys(node)? {
        Some(summary) => Err(format!("unknown keys found during decoding:\n{}", emit_v4_with_comments(&summary))),
        None => Ok(value),
    }
}

/// A YAML tree as serde data.
struct NodeSer<'a>(&'a Node);

impl Serialize for NodeSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The tree may be as deep as the YAML a value came from.
        deep(|| match &self.0.value {
            NodeValue::Mapping(entries, _) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    let Some(key) = key.as_scalar() else {
                        return Err(ser::Error::custom("a mapping key that is not a scalar has no serde form"));
                    };
                    map.serialize_entry(key.text.as_str(), &NodeSer(value))?;
                }
                map.end()
            }
            NodeValue::Sequence(items, _) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&NodeSer(item))?;
                }
                seq.end()
            }
            NodeValue::Scalar(scalar) => serialize_scalar(scalar, self.0.tag.as_deref(), serializer),
        })
    }
}

/// A scalar as go-yaml v4 reads it back: a plain (or `!!null`/`!!bool`/`!!int`/`!!float`
/// tagged) scalar by its resolved type, anything else as its text.
fn serialize_scalar<S: Serializer>(scalar: &Scalar, tag: Option<&str>, serializer: S) -> Result<S::Ok, S::Error> {
    let resolves = match tag {
        None => scalar.style == ScalarStyle::Plain,
        Some(tag) => matches!(tag, "!!null" | "!!bool" | "!!int" | "!!float"),
    };
    if !resolves {
        return serializer.serialize_str(&scalar.text);
    }
    match resolve_v4(&scalar.text) {
        Resolved::Null => serializer.serialize_unit(),
        Resolved::Bool(b) => serializer.serialize_bool(b),
        Resolved::Int(text) => {
            if let Ok(i) = text.parse::<i64>() {
                serializer.serialize_i64(i)
            } else if let Ok(u) = text.parse::<u64>() {
                serializer.serialize_u64(u)
            } else {
                serializer.serialize_str(&scalar.text)
            }
        }
        // JSON has no infinities or NaN: those stay their YAML text.
        Resolved::Float(f) if f.is_finite() => serializer.serialize_f64(f),
        Resolved::Float(_) | Resolved::Timestamp(_) | Resolved::Str => serializer.serialize_str(&scalar.text),
    }
}

/// Builds a YAML tree from serde data: numbers and booleans as the plain scalars go-yaml prints
/// for them, strings as double-quoted scalars (never re-resolved), `null` as `null`.
struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a map, a sequence, a string, a number, a boolean or null")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::plain(if v { "true" } else { "false" }))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::plain(v.to_string()))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Node, E> {
        Ok(Node::plain(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::plain(v.to_string()))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Node, E> {
        Ok(Node::plain(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::plain(format_float(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::scalar(v, ScalarStyle::DoubleQuoted))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::scalar(v, ScalarStyle::DoubleQuoted))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::null())
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::null())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        deep(|| {
            let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
            while let Some(item) = seq.next_element_seed(NodeSeed)? {
                items.push(item);
            }
            Ok(Node::sequence(items))
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        deep(|| {
            let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1024));
            while let Some(key) = map.next_key_seed(NodeSeed)? {
                let value = map.next_value_seed(NodeSeed)?;
                entries.push((key, value));
            }
            Ok(Node::mapping(entries))
        })
    }
}

/// Deserializes one YAML tree (a sequence item, a mapping key or value).
struct NodeSeed;

impl<'de> DeserializeSeed<'de> for NodeSeed {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

impl Serialize for Config {
    /// The documents in [`Config::encode`] order, each as its Talos encoding.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let trees: Vec<Node> = self.encoded_trees().collect();
        let mut seq = serializer.serialize_seq(Some(trees.len()))?;
        for tree in &trees {
            seq.serialize_element(&NodeSer(tree))?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Config {
    /// A sequence of documents (or one document) loaded as [`Config::from_bytes`] loads text:
    /// the same kind selection, strict decoding, duplicate and conflict checks and error texts.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Config, D::Error> {
        let roots = deserializer.deserialize_any(ConfigVisitor)?;
        Config::from_trees(roots).map_err(de::Error::custom)
    }
}

/// A config's serde form: a sequence of documents, or one document.
struct ConfigVisitor;

impl<'de> Visitor<'de> for ConfigVisitor {
    type Value = Vec<Node>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence of Talos machine config documents, or one document")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Node>, A::Error> {
        let mut roots = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(root) = seq.next_element_seed(NodeSeed)? {
            roots.push(root);
        }
        Ok(roots)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Vec<Node>, A::Error> {
        NodeVisitor.visit_map(map).map(|root| vec![root])
    }
}

/// `Serialize` and `Deserialize` through [`Value`] for the model's types whose `Value` is
/// written by hand (the derived ones get theirs from `#[derive(Talos)]`).
macro_rules! via_value {
    ($($ty:ty),* $(,)?) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_value(self, serializer)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserialize_value(deserializer)
            }
        }
    )*};
}

via_value!(
    // The engine's own types the model uses.
    crate::value::Any,
    crate::value::Unstructured,
    crate::value::Duration,
    crate::value::FileMode,
    crate::value::url::GoUrl,
    // network: enums, netip types and the rest.
    crate::model::network::types::AutoHostnameKind,
    crate::model::network::types::BondMode,
    crate::model::network::types::BondXmitHashPolicy,
    crate::model::network::types::ArpValidate,
    crate::model::network::types::ArpAllTargets,
    crate::model::network::types::LacpRate,
    crate::model::network::types::AdSelect,
    crate::model::network::types::AdLacpActive,
    crate::model::network::types::PrimaryReselect,
    crate::model::network::types::ClientIdentifier,
    crate::model::network::types::DefaultAction,
    crate::model::network::types::Protocol,
    crate::model::network::types::RoutingRuleAction,
    crate::model::network::types::VlanProtocol,
    crate::model::network::types::WolMode,
    crate::model::network::types::RoutingTable,
    crate::model::network::types::FailOverMac,
    crate::model::network::types::NetipPrefix,
    crate::model::network::types::Prefix,
    crate::model::network::types::Addr,
    crate::model::network::types::NetipAddr,
    crate::model::network::types::AddrPort,
    crate::model::network::types::NetipAddrPort,
    crate::model::network::types::HardwareAddr,
    crate::model::network::types::PortRange,
    crate::model::network::PortRanges,
    crate::model::network::IngressConfig,
    crate::model::network::types::CelExpression,
    // block.
    crate::model::block::ByteSize,
    crate::model::block::PercentageSize,
    crate::model::block::Size,
    crate::model::block::CelExpression,
    crate::model::block::VolumeType,
    crate::model::block::FilesystemType,
    crate::model::block::EncryptionProviderType,
    // v1alpha1.
    crate::model::v1alpha1::ArgValue,
    crate::model::v1alpha1::Args,
    crate::model::v1alpha1::Endpoint,
    crate::model::v1alpha1::Base64Bytes,
    crate::model::v1alpha1::PEMEncodedCertificateAndKey,
    crate::model::v1alpha1::PEMEncodedCertificate,
    crate::model::v1alpha1::PEMEncodedKey,
    crate::model::v1alpha1::DiskSize,
    crate::model::v1alpha1::InstallDiskSizeMatcher,
    crate::model::v1alpha1::InstallDiskType,
    crate::model::v1alpha1::AuthorizationConfigAuthorizerConfigList,
    crate::model::v1alpha1::AdmissionPluginConfigList,
    crate::model::v1alpha1::ClusterInlineManifests,
    crate::model::v1alpha1::NetworkDeviceList,
    crate::model::v1alpha1::VlanList,
    // Named slices of the other areas.
    crate::model::runtime::ConfigFileList,
    crate::model::security::ImageVerificationRules,
    crate::model::siderolink::MetaUrl,
);

impl<T: Value> Serialize for crate::value::NilableVec<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_value(self, serializer)
    }
}

impl<'de, T: Value> Deserialize<'de> for crate::value::NilableVec<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_value(deserializer)
    }
}

impl<T: Value> Serialize for crate::value::Replaced<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_value(self, serializer)
    }
}

impl<'de, T: Value> Deserialize<'de> for crate::value::Replaced<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_value(deserializer)
    }
}

/// Values whose serde form is one string: written with `$write`, read back with `$read`
/// (which may refuse the text).
macro_rules! via_text {
    ($($ty:ty: $write:expr, $read:expr;)*) => {$(
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(&$write(self))
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                $read(&text).map_err(serde::de::Error::custom)
            }
        }
    )*};
}

use crate::model::network::types::{IpAddr, IpAddrPort, IpPrefix};
use crate::{DocumentId, FieldPath};

via_text! {
    // The `netip` values the model's address fields hold: their Go text (`MarshalText`), read
    // back with `UnmarshalText`, as the fields holding them encode and decode.
    IpAddr: IpAddr::marshal_text, |t: &str| IpAddr::unmarshal_text(t);
    IpPrefix: IpPrefix::marshal_text, |t: &str| IpPrefix::unmarshal_text(t);
    IpAddrPort: IpAddrPort::marshal_text, |t: &str| IpAddrPort::unmarshal_text(t);
    // A path and a document identity as their `Display` text.
    FieldPath: FieldPath::to_string, |t: &str| Ok::<_, String>(FieldPath::parse(t));
    DocumentId: DocumentId::to_string, |t: &str| Ok::<_, String>(DocumentId::from_text(t));
}
