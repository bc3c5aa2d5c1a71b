//! apid's reply envelope: per-node items, in-band errors, node names.

use crate::error::{Code, Error, code_from_name};
use crate::proto::{common, machine};

/// A reply item that may carry apid's `common.Metadata` (field 1).
pub trait HasMetadata {
    /// The item's metadata, if present.
    fn metadata(&self) -> Option<&common::Metadata>;
}

macro_rules! has_metadata {
    ($($t:ty),* $(,)?) => {$(
        impl HasMetadata for $t {
            fn metadata(&self) -> Option<&common::Metadata> {
                self.metadata.as_ref()
            }
        }
    )*};
}

has_metadata!(common::Data, common::Empty, machine::Version, machine::ServiceList, machine::ApplyConfiguration,);

/// The node an item belongs to: `metadata.hostname`, else `fallback` (the target or the endpoint, as talosctl
/// falls back to the peer address).
pub fn node_of<T: HasMetadata>(item: &T, fallback: &str) -> String {
    match item.metadata().map(|m| m.hostname.as_str()) {
        Some(h) if !h.is_empty() => h.to_string(),
        _ => fallback.to_string(),
    }
}

/// The in-band error an item carries (`metadata.error` non-empty), as an [`Error`] with the node and code.
///
/// The code comes from `metadata.status.code`; the message is `metadata.status.message` (Talos's text, intact).
/// Without a status, the `rpc error: code = X desc = ...` text in `metadata.error` is parsed, and anything else is
/// kept whole with code `Unknown`.
pub fn in_band_error<T: HasMetadata>(item: &T, fallback: &str) -> Option<Error> {
    let md = item.metadata()?;
    if md.error.is_empty() {
        return None;
    }
    let node = Some(node_of(item, fallback));
    if let Some(status) = &md.status {
        let message = if status.message.is_empty() { md.error.clone() } else { status.message.clone() };
        let code = Code::from_i32(status.code);
        if code != Code::Ok {
            return Some(Error::status(node, code, message));
        }
    }
    let (code, message) = parse_grpc_error_text(&md.error).unwrap_or((Code::Unknown, md.error.clone()));
    Some(Error::status(node, code, message))
}

/// Parses grpc-go's `rpc error: code = <Name> desc = <message>`.
pub fn parse_grpc_error_text(text: &str) -> Option<(Code, String)> {
    let rest = text.strip_prefix("rpc error: code = ")?;
    let (name, desc) = rest.split_once(" desc = ")?;
    Some((code_from_name(name)?, desc.to_string()))
}

/// One node's share of a reply.
#[derive(Debug)]
pub struct NodeReply<T> {
    /// The node (apid's `metadata.hostname`: the target string as sent), or the fallback.
    pub node: String,
    /// The item, or the node's in-band error.
    pub result: Result<T, Error>,
}

/// Splits a reply's `messages` into per-node results: items with `metadata.error` become errors.
pub fn split_replies<T: HasMetadata>(messages: Vec<T>, fallback: &str) -> Vec<NodeReply<T>> {
    messages
        .into_iter()
        .map(|item| {
            let node = node_of(&item, fallback);
            match in_band_error(&item, fallback) {
                Some(err) => NodeReply { node, result: Err(err) },
                None => NodeReply { node, result: Ok(item) },
            }
        })
        .collect()
}

/// The single node's item of a reply to a call aimed at one target: the item whose hostname is `target`
/// (else the first), with an in-band error turned into an error.
pub fn single_reply<T: HasMetadata>(messages: Vec<T>, target: &str) -> Result<(String, T), Error> {
    let mut replies = split_replies(messages, target);
    if replies.is_empty() {
        return Err(Error::protocol(Some(target), "empty reply (no messages)"));
    }
    let index = replies.iter().position(|r| r.node == target).unwrap_or(0);
    let reply = replies.swap_remove(index);
    reply.result.map(|item| (reply.node, item))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::google::rpc::Status;

    fn md(host: &str, error: &str, status: Option<(i32, &str)>) -> Option<common::Metadata> {
        Some(common::Metadata {
            hostname: host.into(),
            error: error.into(),
            status: status.map(|(code, message)| Status { code, message: message.into(), details: vec![] }),
        })
    }

    #[test]
    fn in_band_error_keeps_talos_text_and_code() {
        let text = "1 error occurred:\n\t* v1alpha1.Config: bad\n\n";
        let items = vec![
            machine::ApplyConfiguration {
                metadata: md("10.5.0.2", &format!("rpc error: code = InvalidArgument desc = {text}"), Some((3, text))),
                ..Default::default()
            },
            machine::ApplyConfiguration {
                metadata: md("10.5.0.3", "", None),
                mode_details: "Applied configuration without a reboot".into(),
                ..Default::default()
            },
        ];
        let replies = split_replies(items, "endpoint");
        assert_eq!(replies.len(), 2);
        assert_eq!(replies[0].node, "10.5.0.2");
        let err = replies[0].result.as_ref().unwrap_err();
        assert_eq!(err.code(), Some(Code::InvalidArgument));
        assert_eq!(err.node(), Some("10.5.0.2"));
        assert_eq!(err.message(), text);
        assert_eq!(err.to_string(), format!("10.5.0.2: rpc error: code = InvalidArgument desc = {text}"));
        assert!(replies[1].result.is_ok());
    }

    #[test]
    fn error_without_status_is_parsed_or_kept() {
        let item = common::Empty { metadata: md("10.5.0.9", "rpc error: code = Unavailable desc = dial tcp", None) };
        let err = in_band_error(&item, "x").unwrap();
        assert_eq!(err.code(), Some(Code::Unavailable));
        assert_eq!(err.message(), "dial tcp");
        let item = common::Empty { metadata: md("", "no request forwarding", None) };
        let err = in_band_error(&item, "10.5.0.3").unwrap();
        assert_eq!(err.code(), Some(Code::Unknown));
        assert_eq!(err.node(), Some("10.5.0.3"));
        assert_eq!(err.message(), "no request forwarding");
    }

    #[test]
    fn single_reply_picks_target_and_falls_back() {
        let items = vec![
            machine::Version { metadata: md("10.5.0.2", "", None), ..Default::default() },
            machine::Version { metadata: md("10.5.0.3", "", None), ..Default::default() },
        ];
        let (node, _) = single_reply(items, "10.5.0.3").unwrap();
        assert_eq!(node, "10.5.0.3");
        let (node, _) = single_reply(vec![machine::Version::default()], "127.0.0.1:50000").unwrap();
        assert_eq!(node, "127.0.0.1:50000");
        let err = single_reply(Vec::<machine::Version>::new(), "n").unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Protocol);
        // A streaming error item: a Data with only metadata.
        let data = common::Data { metadata: md("10.5.0.3", "x", Some((7, "not authorized"))), bytes: vec![] };
        let err = in_band_error(&data, "n").unwrap();
        assert_eq!(
            err.to_string(),
            format!(
                "10.5.0.3: rpc error: code = PermissionDenied desc = not authorized (the role in the talosconfig's certificate may not make this call: {}; use a talosconfig with the role it needs)",
                crate::error::ROLE_RULES
            )
        );
        assert_eq!(err.message(), "not authorized");
    }
}
