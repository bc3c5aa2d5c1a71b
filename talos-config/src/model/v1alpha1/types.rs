//! The hand-written value types of the legacy document: extra args, endpoints, PEM material,
//! base64 bytes, disk sizes and matchers, inline manifests.

use std::collections::BTreeMap;

use crate::value::url::GoUrl;
use crate::value::{DecodeCx, DeletePath, MergeFlags, Value, construct_error, encode_map, is_null};
use crate::yaml::{Node, NodeValue, ScalarStyle};

/// `v1alpha1.Env`: an alias of `map[string]string`.
pub type Env = BTreeMap<String, String>;

// ---------------------------------------------------------------------------------------------
// Args / ArgValue

/// One `extraArgs` value: a string or a list of strings (`ArgValue{listValue, strValue}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgValue {
    /// `listValue`: `None` is Go's nil slice (then the string form is used).
    pub list: Option<Vec<String>>,
    /// `strValue`.
    pub string: String,
}

impl ArgValue {
    /// A string value.
    pub fn string(s: impl Into<String>) -> ArgValue {
        ArgValue { list: None, string: s.into() }
    }

    /// A list value.
    pub fn list<I: IntoIterator<Item = S>, S: Into<String>>(items: I) -> ArgValue {
        ArgValue { list: Some(items.into_iter().map(Into::into).collect()), string: String::new() }
    }

    /// Upstream `ToMap` for one value: the string (when non-empty) then the list.
    pub fn values(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.string.is_empty() {
            out.push(self.string.clone());
        }
        if let Some(l) = &self.list {
            out.extend(l.iter().cloned());
        }
        out
    }
}

/// The error of `ArgValue.UnmarshalYAML` for anything but a string or a list of strings.
pub const ARG_VALUE_ERROR: &str = "arg value must be a string or list of strings";

impl Value for ArgValue {
    /// A flag's value, or a list of them (repeated flag).
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar_or_list()
    }

    fn go_type() -> String {
        "v1alpha1.ArgValue".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return ArgValue::default();
        }
        match &node.value {
            NodeValue::Scalar(_) => {
                // A tag mismatch fails the string attempt inside the custom unmarshaler, which
                // then reports its own text.
                let mut sub = cx.sibling();
                let s = String::decode(node, &mut sub);
                if sub.errors().is_empty() && crate::value::tag_error(node).is_none() {
                    return ArgValue::string(s);
                }
                cx.error(node, ARG_VALUE_ERROR);
                cx.undecoded(node);
                ArgValue::default()
            }
            NodeValue::Sequence(..) => {
                let mut sub = cx.sibling();
                let l = Vec::<String>::decode(node, &mut sub);
                let tagged =
                    node.as_sequence().is_some_and(|items| items.iter().any(|i| crate::value::tag_error(i).is_some()));
                if sub.errors().is_empty() && !tagged {
                    return ArgValue { list: Some(l), string: String::new() };
                }
                cx.error(node, ARG_VALUE_ERROR);
                cx.undecoded(node);
                ArgValue::default()
            }
            NodeValue::Mapping(..) => {
                cx.error(node, ARG_VALUE_ERROR);
                cx.undecoded(node);
                ArgValue::default()
            }
        }
    }

    /// Go's `ArgValue` is a struct with a custom unmarshaler: xyaml lets a sequence through
    /// and checks a mapping (reached through a merge key) against the struct's two unexported
    /// fields, known by their lowercased names.
    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        let NodeValue::Mapping(entries, _) = &node.value else {
            return Ok(None);
        };
        let mut found = Vec::new();
        for (k, v) in entries {
            let Some(key) = k.as_scalar() else {
                return Err("unexpected mapping key type".into());
            };
            let summary = match key.text.as_str() {
                "listvalue" => Vec::<String>::unknown_keys_for(v, release)?,
                "strvalue" => String::unknown_keys_for(v, release)?,
                _ => Some(v.clone()),
            };
            if let Some(summary) = summary {
                found.push((crate::value::summary_key(k, &key.text), summary));
            }
        }
        Ok(if found.is_empty() { None } else { Some(crate::value::sorted_mapping(found)) })
    }

    fn encode(&self) -> Node {
        if let Some(l) = &self.list {
            return Node::sequence(l.iter().map(|s| Node::scalar(s.clone(), ScalarStyle::GoNode)).collect());
        }
        if !self.string.is_empty() {
            return Node::scalar(self.string.clone(), ScalarStyle::GoNode);
        }
        Node::null()
    }

    fn is_empty(&self) -> bool {
        self.list.is_none() && self.string.is_empty()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        // Only reached through `Args`, whose merge replaces values wholesale.
        self.clone_from(right);
        Ok(())
    }
}

impl crate::value::MapValue for ArgValue {}

/// `v1alpha1.Args` (`map[string]ArgValue`) with its custom merge: an empty patch is a no-op,
/// otherwise every patch key replaces the base value (`maps.Copy`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args(pub BTreeMap<String, ArgValue>);

impl Args {
    /// Upstream `ToMap`.
    pub fn to_map(&self) -> BTreeMap<String, Vec<String>> {
        self.0.iter().map(|(k, v)| (k.clone(), v.values())).collect()
    }
}

/// Until v1.13 `extraArgs` were a plain `map[string]string`: string values only, Go's map
/// decoding, encoding and merge.
fn args_are_string_map(release: crate::Release) -> bool {
    release < crate::Release::V1_13_9
}

impl Args {
    /// v1.12's `map[string]string` decoding: every value a string.
    fn decode_string_map(node: &Node, cx: &mut DecodeCx) -> Args {
        let mut strings = <BTreeMap<String, String> as Value>::decode(node, cx);
        Args(std::mem::take(&mut strings).into_iter().map(|(k, v)| (k, ArgValue::string(v))).collect())
    }

    /// v1.12's `map[string]string`, as the Go map holds it: a list (only set through the API)
    /// counts as its joined values.
    fn string_map(&self) -> BTreeMap<String, String> {
        self.0.iter().map(|(k, v)| (k.clone(), v.values().join(","))).collect()
    }
}

impl Value for Args {
    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        if args_are_string_map(cx.release()) {
            return <BTreeMap<String, String> as Value>::json_schema(cx);
        }
        let values = ArgValue::json_schema(cx);
        cx.map_of(values)
    }

    fn go_type() -> String {
        "v1alpha1.Args".into()
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if args_are_string_map(cx.release()) {
            return Args::decode_string_map(node, cx);
        }
        let mut out = BTreeMap::new();
        if is_null(node) {
            return Args(out);
        }
        match &node.value {
            NodeValue::Mapping(entries, _) if cx.check_duplicate_keys(entries) => {}
            NodeValue::Mapping(entries, _) => {
                for (k, v) in crate::value::mapping_entries(entries, cx).iter() {
                    let key = String::decode(k, cx);
                    out.insert(key, ArgValue::decode(v, cx));
                }
            }
            _ => construct_error(cx, node, &Self::go_type()),
        }
        Args(out)
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        if args_are_string_map(release) {
            return <BTreeMap<String, String> as Value>::unknown_keys_for(node, release);
        }
        crate::value::map_unknown_keys::<ArgValue>(node, &Self::go_type(), release)
    }

    fn encode(&self) -> Node {
        self.encode_for(crate::Release::DEFAULT)
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        if args_are_string_map(release) {
            return self.string_map().encode();
        }
        encode_map(self.0.iter().map(|(k, v)| (k.as_str(), v.encode())))
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn replace_keeps_left(&self) -> bool {
        false
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        if args_are_string_map(flags.release) {
            // Go's map merge: a key whose patch value is empty keeps the base value.
            let mut left = self.string_map();
            Value::merge(&mut left, &right.string_map(), flags)?;
            *self = Args(left.into_iter().map(|(k, v)| (k, ArgValue::string(v))).collect());
            return Ok(());
        }
        for (k, v) in &right.0 {
            self.0.insert(k.clone(), v.clone());
        }
        Ok(())
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        self.0.delete(path)
    }
}

// ---------------------------------------------------------------------------------------------
// Endpoint

/// `v1alpha1.Endpoint` (`struct{ *url.URL }`): parsed with `url.Parse`, printed with
/// `URL.String`, merged component by component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Endpoint(pub GoUrl);

impl Endpoint {
    /// Parses like `url.Parse`.
    pub(crate) fn parse(text: &str) -> Result<Endpoint, String> {
        GoUrl::parse(text).map(Endpoint)
    }
}

impl std::str::FromStr for Endpoint {
    type Err = crate::Error;

    /// Go's `url.Parse`, as a config's endpoint text is read; the error is Go's text
    /// (`parse "<text>": <reason>`).
    ///
    /// ```
    /// use talos_config::model::v1alpha1::Endpoint;
    ///
    /// assert_eq!("https://10.5.0.2:6443".parse::<Endpoint>()?.to_string(), "https://10.5.0.2:6443");
    /// assert_eq!(":6443".parse::<Endpoint>().unwrap_err().to_string(), r#"parse ":6443": missing protocol scheme"#);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<Endpoint, crate::Error> {
        Endpoint::parse(text).map_err(crate::Error::invalid_value)
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Value for Endpoint {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "v1alpha1.Endpoint".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        Endpoint(GoUrl::decode(node, cx))
    }

    fn encode(&self) -> Node {
        Node::go_string(self.0.to_string())
    }

    fn is_empty(&self) -> bool {
        false
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        self.0.merge_components(&right.0).map_err(|e| format!("merge field v1alpha1.Endpoint.URL: {e}"))
    }

    fn match_text(&self) -> Option<String> {
        Some(self.0.to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// base64 (Go's encoding/base64 StdEncoding), shared with every other decoder of the crate.

pub(crate) use crate::gofmt::base64_decode;
pub use crate::gofmt::base64_encode;

/// Decodes a base64 text scalar; a bad text is a construct error at the node.
fn decode_b64_node(node: &Node, cx: &mut DecodeCx) -> Vec<u8> {
    let text = String::decode(node, cx);
    match base64_decode(&text) {
        Ok(b) => b,
        Err(e) => {
            cx.error(node, e);
            Vec::new()
        }
    }
}

/// `v1alpha1.Base64Bytes`: bytes written as base64 text. Merged like a byte slice (replaced
/// when the patch side is non-nil).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Base64Bytes(pub Option<Vec<u8>>);

impl Value for Base64Bytes {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "v1alpha1.Base64Bytes".into()
    }

    fn go_nillable() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Base64Bytes(None);
        }
        Base64Bytes(Some(decode_b64_node(node, cx)))
    }

    fn encode(&self) -> Node {
        Node::go_string(base64_encode(self.0.as_deref().unwrap_or(&[])))
    }

    fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(Vec::is_empty)
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        if right.0.is_some() {
            self.0.clone_from(&right.0);
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// PEM material (siderolabs/crypto x509)

/// The marker redacted configs (Omni, `talosctl get mc` of a redacted config) hold in place of
/// a private key: siderolabs/crypto's `x509.Redacted`, kept as these very bytes.
const REDACTED_KEY: &str = "******";

/// The Go types siderolabs/crypto's `UnmarshalYAML` decodes each PEM mapping into (an anonymous
/// struct of strings), which Talos's decode errors name.
const CERT_AND_KEY_AUX: &str = r#"struct { Crt string "yaml:\"crt\""; Key string "yaml:\"key\"" }"#;
const CERT_AUX: &str = r#"struct { Crt string "yaml:\"crt\"" }"#;
const KEY_AUX: &str = r#"struct { Key string "yaml:\"key\"" }"#;

/// Decodes the `crt`/`key` text fields of a PEM mapping as siderolabs/crypto's `UnmarshalYAML`
/// does: the mapping into strings first (their type errors end it), then each text from base64
/// in order, a `key` that reads `******` kept as is.
fn decode_pem_fields(node: &Node, cx: &mut DecodeCx, aux_type: &str, keys: &[&str]) -> Vec<Vec<u8>> {
    let mut texts = vec![String::new(); keys.len()];
    let errors_before = cx.errors().len();
    match &node.value {
        NodeValue::Mapping(entries, _) if cx.check_duplicate_keys(entries) => {}
        NodeValue::Mapping(entries, _) => {
            for (k, v) in entries {
                if let Some(i) = k.as_scalar().and_then(|s| keys.iter().position(|key| *key == s.text)) {
                    texts[i] = String::decode(v, cx);
                }
            }
        }
        _ => {
            construct_error(cx, node, aux_type);
            return vec![Vec::new(); keys.len()];
        }
    }
    if cx.errors().len() > errors_before {
        return vec![Vec::new(); keys.len()];
    }
    let mut out = Vec::new();
    for (key, t) in keys.iter().zip(texts) {
        if *key == "key" && t == REDACTED_KEY {
            out.push(REDACTED_KEY.as_bytes().to_vec());
            continue;
        }
        match base64_decode(&t) {
            Ok(b) => out.push(b),
            Err(e) => {
                cx.error(node, e);
                return vec![Vec::new(); keys.len()];
            }
        }
    }
    out
}

fn pem_unknown_keys(node: &Node, keys: &[&str], _release: crate::Release) -> Result<Option<Node>, String> {
    let NodeValue::Mapping(entries, _) = &node.value else {
        return Ok(None);
    };
    let mut found = Vec::new();
    for (k, v) in entries {
        let Some(key) = k.as_scalar() else {
            return Err("unexpected mapping key type".into());
        };
        if !keys.contains(&key.text.as_str()) {
            found.push((crate::value::summary_key(k, &key.text), v.clone()));
        }
    }
    Ok(if found.is_empty() { None } else { Some(crate::value::sorted_mapping(found)) })
}

fn merge_bytes(left: &mut Option<Vec<u8>>, right: &Option<Vec<u8>>) {
    if right.is_some() {
        left.clone_from(right);
    }
}

fn b64_node(v: &Option<Vec<u8>>) -> Node {
    Node::go_string(base64_encode(v.as_deref().unwrap_or(&[])))
}

/// A key's text: base64, or the redaction marker as it was read.
fn key_node(v: &Option<Vec<u8>>) -> Node {
    match v.as_deref() {
        Some(bytes) if bytes == REDACTED_KEY.as_bytes() => Node::go_string(REDACTED_KEY),
        _ => b64_node(v),
    }
}

/// `x509.PEMEncodedCertificateAndKey`: `crt` and `key`, base64 text, both always printed.
/// `Debug` shows the certificate and only the key's size: keys stay out of logs.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PEMEncodedCertificateAndKey {
    /// `Crt` (PEM bytes); `None` is Go's nil slice.
    pub crt: Option<Vec<u8>>,
    /// `Key` (PEM bytes); `None` is Go's nil slice.
    pub key: Option<Vec<u8>>,
}

impl Value for PEMEncodedCertificateAndKey {
    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        cx.object(vec![
            ("crt".to_string(), crate::value::json_schema::scalar()),
            ("key".to_string(), crate::value::json_schema::scalar()),
        ])
    }

    fn go_type() -> String {
        "x509.PEMEncodedCertificateAndKey".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Self::default();
        }
        let mut f = decode_pem_fields(node, cx, CERT_AND_KEY_AUX, &["crt", "key"]).into_iter();
        Self { crt: f.next(), key: f.next() }
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        pem_unknown_keys(node, &["crt", "key"], release)
    }

    fn encode(&self) -> Node {
        Node::mapping(vec![
            (Node::go_string("crt"), b64_node(&self.crt)),
            (Node::go_string("key"), key_node(&self.key)),
        ])
    }

    fn is_empty(&self) -> bool {
        self.crt.as_ref().is_none_or(Vec::is_empty) && self.key.as_ref().is_none_or(Vec::is_empty)
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        merge_bytes(&mut self.crt, &right.crt);
        merge_bytes(&mut self.key, &right.key);
        Ok(())
    }

    // No `delete`: upstream's delete walker finds struct fields by their yaml tags, and the Go
    // struct has none (it marshals itself), so a path into it is `lookup failed`.
}

/// `x509.PEMEncodedCertificate`: `crt` only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PEMEncodedCertificate {
    /// The PEM certificate (base64 in YAML).
    pub crt: Option<Vec<u8>>,
}

impl Value for PEMEncodedCertificate {
    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        cx.object(vec![("crt".to_string(), crate::value::json_schema::scalar())])
    }

    fn go_type() -> String {
        "x509.PEMEncodedCertificate".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Self::default();
        }
        Self { crt: decode_pem_fields(node, cx, CERT_AUX, &["crt"]).into_iter().next() }
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        pem_unknown_keys(node, &["crt"], release)
    }

    fn encode(&self) -> Node {
        Node::mapping(vec![(Node::go_string("crt"), b64_node(&self.crt))])
    }

    fn is_empty(&self) -> bool {
        self.crt.as_ref().is_none_or(Vec::is_empty)
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        merge_bytes(&mut self.crt, &right.crt);
        Ok(())
    }
}

/// `x509.PEMEncodedKey`: `key` only. `Debug` shows only the key's size.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PEMEncodedKey {
    /// The PEM private key (base64 in YAML); a secret.
    pub key: Option<Vec<u8>>,
}

/// A secret's stand-in in `Debug` output: its size only (`None` for an absent one).
pub(crate) struct Redacted(pub(crate) Option<usize>);

impl Redacted {
    /// The stand-in of these secret bytes.
    pub(crate) fn of(secret: Option<&[u8]>) -> Redacted {
        Redacted(secret.map(<[u8]>::len))
    }
}

impl std::fmt::Debug for Redacted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            None => f.write_str("None"),
            Some(len) => write!(f, "<redacted, {len} bytes>"),
        }
    }
}

impl std::fmt::Debug for PEMEncodedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PEMEncodedKey").field("key", &Redacted::of(self.key.as_deref())).finish()
    }
}

impl std::fmt::Debug for PEMEncodedCertificateAndKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let crt = self.crt.as_deref().map(String::from_utf8_lossy);
        f.debug_struct("PEMEncodedCertificateAndKey")
            .field("crt", &crt)
            .field("key", &Redacted::of(self.key.as_deref()))
            .finish()
    }
}

impl Value for PEMEncodedKey {
    fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        cx.object(vec![("key".to_string(), crate::value::json_schema::scalar())])
    }

    fn go_type() -> String {
        "x509.PEMEncodedKey".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Self::default();
        }
        Self { key: decode_pem_fields(node, cx, KEY_AUX, &["key"]).into_iter().next() }
    }

    fn unknown_keys_for(node: &Node, release: crate::Release) -> Result<Option<Node>, String> {
        pem_unknown_keys(node, &["key"], release)
    }

    fn encode(&self) -> Node {
        Node::mapping(vec![(Node::go_string("key"), key_node(&self.key))])
    }

    fn is_empty(&self) -> bool {
        self.key.as_ref().is_none_or(Vec::is_empty)
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        merge_bytes(&mut self.key, &right.key);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Sizes (dustin/go-humanize)

fn size_multiplier(unit: &str) -> Option<u64> {
    Some(match unit {
        "" | "b" => 1,
        "k" | "kb" => 1000,
        "ki" | "kib" => 1 << 10,
        "m" | "mb" => 1_000_000,
        "mi" | "mib" => 1 << 20,
        "g" | "gb" => 1_000_000_000,
        "gi" | "gib" => 1 << 30,
        "t" | "tb" => 1_000_000_000_000,
        "ti" | "tib" => 1 << 40,
        "p" | "pb" => 1_000_000_000_000_000,
        "pi" | "pib" => 1 << 50,
        "e" | "eb" => 1_000_000_000_000_000_000,
        "ei" | "eib" => 1 << 60,
        _ => return None,
    })
}

/// `humanize.ParseBytes`, with its error texts.
///
/// The number is the leading run of Go `unicode.IsDigit` runes, `.` and `,`. humanize counts
/// that run in runes but slices the text by bytes; the quirk is kept: with a non-ASCII digit in
/// the run, the number is cut inside the text, is never a valid float, and its quoted bytes show
/// in the error. Users parse a [`DiskSize`].
pub(crate) fn parse_bytes(s: &str) -> Result<u64, String> {
    let mut runes = 0;
    let mut has_comma = false;
    for c in s.chars() {
        if !(is_go_digit(c) || c == '.' || c == ',') {
            break;
        }
        if c == ',' {
            has_comma = true;
        }
        runes += 1;
    }
    // `runes <= s.len()`: every rune is at least one byte.
    let (num, rest) = s.as_bytes().split_at(runes);
    let num: Vec<u8> = if has_comma { num.iter().copied().filter(|&b| b != b',').collect() } else { num.to_vec() };
    let float_error = |why: &str| format!("strconv.ParseFloat: parsing {}: {why}", quote_bytes(&num));
    // Only ASCII digits and dots can parse; anything else is a syntax error.
    let text = std::str::from_utf8(&num).map_err(|_| float_error("invalid syntax"))?;
    let f = match go_parse_float(text) {
        Some(f) => f,
        // Digits and dots only: an overflow (Go's ErrRange) is the one other failure.
        None if text.parse::<f64>().is_ok_and(f64::is_infinite) => return Err(float_error("value out of range")),
        None => return Err(float_error("invalid syntax")),
    };
    // The number parsed, so it is ASCII and `rest` starts on a character boundary.
    let extra = String::from_utf8_lossy(rest).trim().to_lowercase();
    match size_multiplier(&extra) {
        Some(m) => {
            let v = f * m as f64;
            if v >= u64::MAX as f64 {
                return Err(format!("too large: {s}"));
            }
            Ok(v as u64)
        }
        None => Err(format!("unhandled size name: {extra}")),
    }
}

use crate::gofmt::quote_bytes;
use crate::yaml::resolve::{go_parse_float, is_go_digit};

/// `humanize.Bytes` (SI units).
pub fn humanize_bytes(s: u64) -> String {
    if s < 10 {
        return format!("{s} B");
    }
    const SIZES: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    let e = ((s as f64).ln() / 1000f64.ln()).floor();
    let suffix = SIZES.get(e as usize).copied().unwrap_or("EB");
    let val = ((s as f64) / 1000f64.powf(e) * 10.0 + 0.5).floor() / 10.0;
    if val < 10.0 { format!("{val:.1} {suffix}") } else { format!("{val:.0} {suffix}") }
}

/// `v1alpha1.DiskSize` (`uint64`): read with `humanize.ParseBytes`, written as
/// `humanize.Bytes` text when that is exact, else as the plain integer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiskSize(pub u64);

impl std::str::FromStr for DiskSize {
    type Err = crate::Error;

    /// `humanize.ParseBytes`, as a config's disk size is read; the error is its text.
    ///
    /// ```
    /// use talos_config::model::v1alpha1::DiskSize;
    ///
    /// assert_eq!("1.5 GB".parse::<DiskSize>()?, DiskSize(1_500_000_000));
    /// assert_eq!("4GiB".parse::<DiskSize>()?, DiskSize(4 << 30));
    /// assert_eq!("1 zb".parse::<DiskSize>().unwrap_err().to_string(), "unhandled size name: zb");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<DiskSize, crate::Error> {
        parse_bytes(s).map(DiskSize).map_err(crate::Error::invalid_value)
    }
}

impl Value for DiskSize {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "v1alpha1.DiskSize".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return DiskSize(0);
        }
        let text = String::decode(node, cx);
        match parse_bytes(&text) {
            Ok(v) => DiskSize(v),
            Err(e) => {
                cx.error(node, e);
                DiskSize(0)
            }
        }
    }

    fn encode(&self) -> Node {
        if self.0.is_multiple_of(1000) {
            let text = humanize_bytes(self.0);
            if parse_bytes(&text) == Ok(self.0) {
                return Node::go_string(text);
            }
        }
        Node::plain(self.0.to_string())
    }

    fn is_empty(&self) -> bool {
        self.0 == 0
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        if right.0 != 0 || flags.overwrite {
            *self = *right;
        }
        Ok(())
    }
}

/// `v1alpha1.InstallDiskSizeMatcher`: a condition such as `>= 1TB`. Its unexported `condition`
/// field makes merging two set matchers fail, as upstream does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstallDiskSizeMatcher {
    /// The trimmed condition text, as printed.
    pub condition: String,
    /// `MatchData.Op` (`>=`, `<=`, `>`, `<`, `==` or empty).
    pub op: String,
    /// `MatchData.Size` in bytes.
    pub size: u64,
}

impl InstallDiskSizeMatcher {
    /// Upstream `UnmarshalYAML` on the condition text.
    pub(crate) fn parse(text: &str) -> Result<InstallDiskSizeMatcher, String> {
        let condition = text.trim().to_string();
        // The regexp `(>=|<=|>|<|==)?\b*(.*)$` matches at the start of the last line.
        let line = condition.rsplit('\n').next().unwrap_or("");
        let op = [">=", "<=", ">", "<", "=="].into_iter().find(|op| line.starts_with(op)).unwrap_or("");
        let rest = &line[op.len()..];
        let size = parse_bytes(rest.trim()).map_err(|e| format!("failed to parse disk size {rest}: {e}"))?;
        Ok(InstallDiskSizeMatcher { condition, op: op.to_string(), size })
    }
}

impl std::str::FromStr for InstallDiskSizeMatcher {
    type Err = crate::Error;

    /// Upstream `UnmarshalYAML` on the condition text (an operator, then a `humanize` byte
    /// size); the error is upstream's text.
    ///
    /// ```
    /// use talos_config::model::v1alpha1::InstallDiskSizeMatcher;
    ///
    /// let m: InstallDiskSizeMatcher = " >= 1TB ".parse()?;
    /// assert_eq!((m.condition.as_str(), m.op.as_str(), m.size), (">= 1TB", ">=", 1_000_000_000_000));
    /// assert_eq!(
    ///     "=> 1TB".parse::<InstallDiskSizeMatcher>().unwrap_err().to_string(),
    ///     r#"failed to parse disk size => 1TB: strconv.ParseFloat: parsing "": invalid syntax"#
    /// );
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<InstallDiskSizeMatcher, crate::Error> {
        InstallDiskSizeMatcher::parse(text).map_err(crate::Error::invalid_value)
    }
}

impl Value for InstallDiskSizeMatcher {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "v1alpha1.InstallDiskSizeMatcher".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Self::default();
        }
        let text = String::decode(node, cx);
        match InstallDiskSizeMatcher::parse(&text) {
            Ok(m) => m,
            Err(e) => {
                cx.error(node, e);
                Self::default()
            }
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.condition.clone())
    }

    fn is_empty(&self) -> bool {
        false
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        // Field by field: the exported MatchData merges, then the unexported `condition` fails.
        if !right.op.is_empty() {
            self.op.clone_from(&right.op);
        }
        if right.size != 0 {
            self.size = right.size;
        }
        Err(format!(
            "merge field v1alpha1.InstallDiskSizeMatcher.condition: merge not possible, left {} is not settable",
            self.condition
        ))
    }
}

/// `v1alpha1.InstallDiskType` (a named `string`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstallDiskType(pub String);

impl Value for InstallDiskType {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "v1alpha1.InstallDiskType".into()
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        if is_null(node) {
            return Self::default();
        }
        match &node.value {
            NodeValue::Scalar(_) => InstallDiskType(String::decode(node, cx)),
            _ => {
                construct_error(cx, node, &Self::go_type());
                Self::default()
            }
        }
    }

    fn encode(&self) -> Node {
        Node::go_string(self.0.clone())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
        self.0.merge(&right.0, flags)
    }

    fn match_text(&self) -> Option<String> {
        Some(self.0.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_like_humanize() {
        assert_eq!(humanize_bytes(100_000_000), "100 MB");
        assert_eq!(humanize_bytes(1_000_000_000), "1.0 GB");
        assert_eq!(humanize_bytes(1_500_000_000), "1.5 GB");
        assert_eq!(parse_bytes("1.5 GB"), Ok(1_500_000_000));
        assert_eq!(parse_bytes("4GiB"), Ok(4 << 30));
        assert_eq!(parse_bytes("1,000"), Ok(1000));
        assert_eq!(parse_bytes("x"), Err("strconv.ParseFloat: parsing \"\": invalid syntax".into()));
        assert_eq!(parse_bytes("1 zb"), Err("unhandled size name: zb".into()));
        // Go's unicode.IsDigit, and humanize's rune count used as a byte index.
        assert_eq!(
            parse_bytes("\u{661}\u{662}"),
            Err("strconv.ParseFloat: parsing \"\u{661}\": invalid syntax".into())
        );
        assert_eq!(parse_bytes("1\u{661}GB"), Err("strconv.ParseFloat: parsing \"1\\xd9\": invalid syntax".into()));
        assert_eq!(parse_bytes("\u{b2}"), Err("strconv.ParseFloat: parsing \"\": invalid syntax".into()));
        assert_eq!(parse_bytes("1."), Ok(1));
        assert_eq!(parse_bytes(".5kB"), Ok(500));
        assert_eq!(parse_bytes("1.2.3"), Err("strconv.ParseFloat: parsing \"1.2.3\": invalid syntax".into()));
        let huge = format!("1{}", "0".repeat(400));
        assert_eq!(parse_bytes(&huge), Err(format!("strconv.ParseFloat: parsing \"{huge}\": value out of range")));
        assert_eq!(parse_bytes("20EB"), Err("too large: 20EB".into()));
        assert_eq!(DiskSize(100_000_000).encode(), Node::go_string("100 MB"));
        assert_eq!(DiskSize(1 << 30).encode(), Node::plain("1073741824"));
    }

    #[test]
    fn disk_size_matcher() {
        let m = InstallDiskSizeMatcher::parse(" >= 1TB ").unwrap();
        assert_eq!((m.condition.as_str(), m.op.as_str(), m.size), (">= 1TB", ">=", 1_000_000_000_000));
        assert_eq!(
            InstallDiskSizeMatcher::parse("=> 1TB").unwrap_err(),
            "failed to parse disk size => 1TB: strconv.ParseFloat: parsing \"\": invalid syntax"
        );
    }
}
