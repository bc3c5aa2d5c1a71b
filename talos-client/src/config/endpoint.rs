//! An endpoint as talosctl takes it: host (IPv4, IPv6 with or without brackets, a name) and port.

use std::fmt;
use std::net::Ipv6Addr;

use super::DEFAULT_PORT;
use crate::error::{Error, Result};

/// An endpoint: host (IPv6 without brackets) and port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// Host name or IP address (IPv6 without brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
}

impl Endpoint {
    /// Parses `host`, `host:port`, `[v6]`, `[v6]:port`, a bare IPv6 address, or `https://host[:port][/]`.
    /// A missing port is 50000, or 443 for an `https://` URL (as talosctl does).
    ///
    /// ```
    /// use talos_client::config::Endpoint;
    /// assert_eq!(Endpoint::parse("10.5.0.2").unwrap().to_string(), "10.5.0.2:50000");
    /// assert_eq!(Endpoint::parse("[::1]:6000").unwrap().to_string(), "[::1]:6000");
    /// assert_eq!(Endpoint::parse("https://talos.example").unwrap().port, 443);
    /// ```
    pub fn parse(text: &str) -> Result<Endpoint> {
        let bad = |why: &str| Error::config(format!("invalid endpoint {text:?}: {why}"));
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(bad("empty"));
        }
        let (rest, default_port) = match trimmed.split_once("://") {
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("https") => (rest, 443),
            Some((scheme, _)) => return Err(bad(&format!("unsupported scheme {scheme:?} (only https)"))),
            None => (trimmed, DEFAULT_PORT),
        };
        // Drop a URL path.
        let rest = rest.split('/').next().unwrap_or_default();
        if rest.contains('@') {
            return Err(bad("user info is not supported"));
        }
        let (host, port) = if let Some(after) = rest.strip_prefix('[') {
            let (host, tail) = after.split_once(']').ok_or_else(|| bad("missing ']'"))?;
            let port = match tail {
                "" => default_port,
                t => match t.strip_prefix(':') {
                    Some(p) => parse_port(p).ok_or_else(|| bad("invalid port"))?,
                    None => return Err(bad("unexpected text after ']'")),
                },
            };
            if host.parse::<Ipv6Addr>().is_err() {
                return Err(bad("not an IPv6 address inside brackets"));
            }
            (host.to_string(), port)
        } else if rest.parse::<Ipv6Addr>().is_ok() {
            (rest.to_string(), default_port)
        } else {
            match rest.rsplit_once(':') {
                Some((host, port)) => {
                    if host.contains(':') {
                        return Err(bad("IPv6 addresses with a port need brackets"));
                    }
                    (host.to_string(), parse_port(port).ok_or_else(|| bad("invalid port"))?)
                }
                None => (rest.to_string(), default_port),
            }
        };
        if host.is_empty() {
            return Err(bad("empty host"));
        }
        if host.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("invalid host"));
        }
        Ok(Endpoint { host, port })
    }

    /// The `https://` URI tonic connects to.
    pub fn uri(&self) -> String {
        format!("https://{self}")
    }
}

fn parse_port(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u16>().ok().filter(|p| *p != 0)
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}
