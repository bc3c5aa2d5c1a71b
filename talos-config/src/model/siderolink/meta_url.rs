//! `meta.URL`: a struct embedding `*url.URL`, read from and printed as URL text.

use crate::value::url::GoUrl;
use crate::value::{DecodeCx, MergeFlags, Value, construct_error, is_null};
use crate::yaml::{Node, NodeValue};

/// The text a custom `UnmarshalYAML` that first unmarshals into a Go `string` receives:
/// `Ok(None)` for null (go-yaml leaves the value alone), `Err(())` after recording the
/// construct error for a collection.
pub(crate) fn unmarshal_string(node: &Node, cx: &mut DecodeCx) -> Result<Option<String>, ()> {
    if is_null(node) {
        return Ok(None);
    }
    match &node.value {
        NodeValue::Scalar(_) => Ok(Some(String::decode(node, cx))),
        _ => {
            construct_error(cx, node, "string");
            Err(())
        }
    }
}

/// `meta.URL` (`struct { *url.URL }`): `None` is the nil URL, printed `""`.
///
/// Decoding an empty string leaves the URL nil. Merging follows the generic rules through the
/// embedded pointer: a nil side keeps/takes the other, two URLs merge component by component.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetaUrl(pub Option<GoUrl>);

impl MetaUrl {
    /// Parses URL text (`""` gives the nil URL).
    pub(crate) fn parse(text: &str) -> Result<MetaUrl, String> {
        if text.is_empty() {
            return Ok(MetaUrl(None));
        }
        GoUrl::parse(text).map(|u| MetaUrl(Some(u)))
    }

    /// `url.String()`, or `""` for the nil URL.
    pub fn text(&self) -> String {
        self.0.as_ref().map(ToString::to_string).unwrap_or_default()
    }
}

impl std::str::FromStr for MetaUrl {
    type Err = crate::Error;

    /// Upstream `UnmarshalYAML`: `""` is the nil URL, anything else goes through Go's
    /// `url.Parse`, whose text (`parse "<text>": <reason>`) the error carries.
    ///
    /// ```
    /// use talos_config::model::siderolink::MetaUrl;
    ///
    /// let url: MetaUrl = "https://siderolink.example:8099/?jointoken=x".parse()?;
    /// assert_eq!(url.text(), "https://siderolink.example:8099/?jointoken=x");
    /// assert_eq!("".parse::<MetaUrl>()?, MetaUrl(None));
    /// assert_eq!("http://[::1".parse::<MetaUrl>().unwrap_err().to_string(), r#"parse "http://[::1": missing ']' in host"#);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<MetaUrl, crate::Error> {
        MetaUrl::parse(text).map_err(crate::Error::invalid_value)
    }
}

impl Value for MetaUrl {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "meta.URL".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        match unmarshal_string(node, cx) {
            Ok(Some(text)) => match MetaUrl::parse(&text) {
                Ok(u) => u,
                Err(e) => {
                    cx.error(node, e);
                    MetaUrl(None)
                }
            },
            _ => MetaUrl(None),
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.text())
    }

    fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        let prefix = "merge field meta.URL.URL: ";
        match (&mut self.0, &right.0) {
            (_, None) => Ok(()),
            (None, Some(r)) => {
                self.0 = Some(r.clone());
                Ok(())
            }
            (Some(l), Some(r)) => l.merge_components(r).map_err(|e| format!("{prefix}{e}")),
        }
    }

    fn match_text(&self) -> Option<String> {
        self.0.as_ref().map(ToString::to_string)
    }
}

impl crate::value::MapValue for MetaUrl {}
