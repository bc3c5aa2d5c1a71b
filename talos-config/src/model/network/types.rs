//! Value types shared by the network documents: enumer-generated enums, `netip` text forms,
//! hardware addresses, port ranges.

use crate::value::{DecodeCx, construct_error, is_null};
use crate::yaml::{Node, NodeValue};

/// Records the error a custom unmarshaler returns (go-yaml `fail(err)`).
///
/// go-yaml aborts the whole decode with the bare error text; the framework only collects
/// construct errors, so the text is recorded there (with its line prefix).
pub(crate) fn unmarshal_error(cx: &mut DecodeCx, node: &Node, message: impl std::fmt::Display) {
    cx.error(node, message);
}

/// The text go-yaml hands to `UnmarshalText` for `node`: `Ok(None)` for null (the zero value),
/// `Err(())` after recording a construct error for a collection.
pub(crate) fn text_for_unmarshal(node: &Node, cx: &mut DecodeCx, go_type: &str) -> Result<Option<String>, ()> {
    if is_null(node) {
        return Ok(None);
    }
    match &node.value {
        NodeValue::Scalar(s) if node.tag.as_deref() == Some("!!binary") => {
            use base64::Engine as _;
            let compact: String = s.text.chars().filter(|c| !c.is_whitespace()).collect();
            match base64::engine::general_purpose::STANDARD.decode(compact) {
                Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
                Err(_) => {
                    cx.error(node, "!!binary value contains invalid base64 data");
                    Err(())
                }
            }
        }
        NodeValue::Scalar(s) => Ok(Some(s.text.clone())),
        _ => {
            construct_error(cx, node, go_type);
            Err(())
        }
    }
}

/// Defines an enumer-generated Go enum (`enumer -linecomment -text`): an integer printed and
/// read through its name (names are matched as written or lower-cased).
macro_rules! go_enum {
    ($(#[$m:meta])* $name:ident, $go:literal, $short:literal, { $($val:literal => $text:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// Values and names, in upstream order.
            pub const NAMES: &'static [(u32, &'static str)] = &[$(($val, $text)),*];

            /// Upstream `<Type>String`: exact name, or the lower-cased text against lower-cased
            /// names.
            pub fn parse(text: &str) -> Option<Self> {
                if let Some((v, _)) = Self::NAMES.iter().find(|(_, n)| *n == text) {
                    return Some($name(*v));
                }
                let lower = text.to_lowercase();
                Self::NAMES.iter().find(|(_, n)| n.to_lowercase() == lower).map(|(v, _)| $name(*v))
            }

            /// Upstream `String()`.
            pub fn text(&self) -> String {
                match Self::NAMES.iter().find(|(v, _)| *v == self.0) {
                    Some((_, n)) => (*n).to_string(),
                    None => format!("{}({})", $short, self.0),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.text())
            }
        }

        impl $crate::value::Value for $name {
            fn go_type() -> String {
                $go.into()
            }

            fn decode(node: &$crate::yaml::Node, cx: &mut $crate::value::DecodeCx) -> Self {
                match $crate::model::network::types::text_for_unmarshal(node, cx, $go) {
                    Ok(Some(text)) => match Self::parse(&text) {
                        Some(v) => v,
                        None => {
                            $crate::model::network::types::unmarshal_error(
                                cx,
                                node,
                                format!("{} does not belong to {} values", text, $short),
                            );
                            Self::default()
                        }
                    },
                    _ => Self::default(),
                }
            }

            fn encode(&self) -> $crate::yaml::Node {
                $crate::yaml::Node::go_string(self.text())
            }

            fn is_empty(&self) -> bool {
                self.0 == 0
            }

            fn merge(&mut self, right: &Self, flags: $crate::value::MergeFlags) -> Result<(), String> {
                if right.0 != 0 || flags.overwrite {
                    *self = *right;
                }
                Ok(())
            }

            fn match_text(&self) -> Option<String> {
                Some(self.text())
            }
        }

        impl $crate::value::MapValue for $name {}
    };
}
#[allow(unused_imports)]
pub(crate) use go_enum;

go_enum!(
    /// `nethelpers.AutoHostnameKind`.
    AutoHostnameKind, "nethelpers.AutoHostnameKind", "AutoHostnameKind", {
        0 => "off",
        1 => "talos-addr",
        2 => "stable",
    }
);
