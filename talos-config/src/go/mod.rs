//! The Go standard-library (and Go library) behaviour only this crate's checks need, gathered
//! in one place: [`parse`] (the parsers Talos's v1alpha1 checks lean on: `net.ParseIP`,
//! `ParseCIDR`, siderolabs/net, `url.ParseRequestURI`, the DNS-name rule, semver) and
//! [`errors`] (error texts new-style documents embed: `net.SplitHostPort`, `strconv.ParseUint`,
//! PEM framing). What other crates share is in `talos-go` (quoting,
//! base64, durations) and `talos-yaml` (Go's number parsing); `net/netip` is this crate's public
//! `net` module and `net/url` the model's Go URL value (`value::url`).

pub(crate) mod errors;
pub(crate) mod image_ref;
pub(crate) mod parse;
