//! A loaded machine configuration: the document container, and loading it from bytes exactly
//! as Talos's `configloader` does (docs/merge.md §4).

use std::collections::{HashMap, HashSet};

use crate::delete::{Selector, extract_deletes};
use crate::document::Document;
use crate::error::Error;
use crate::model::registry::lookup_for;
use crate::value::DecodeCx;
use crate::yaml::emit_v4::{emit_v4_in, emit_v4_into_in, emit_v4_with_comments_in};
use crate::yaml::parse::{ParsedDocument, parse_stream_partial_in};
use crate::yaml::{Node, NodeValue};

/// One entry of a container: a typed document, or a delete selector (only in loaded patches,
/// and, reproducing an upstream quirk, appended to a config when it matched nothing).
#[derive(Clone, Debug)]
pub enum Entry {
    Doc(Box<dyn Document>),
    Delete(Selector),
}

impl Entry {
    /// The identity strategic merge matches documents by: `apiVersion/kind`, plus `/name` for
    /// named kinds (`/v1alpha1` for the legacy document).
    pub fn identity(&self) -> String {
        match self {
            Entry::Doc(d) => doc_identity(d.as_ref()),
            Entry::Delete(s) => s.identity(),
        }
    }

    fn targets_legacy(&self) -> bool {
        match self {
            Entry::Doc(d) => d.kind() == "v1alpha1",
            Entry::Delete(s) => s.kind == "v1alpha1" && s.api_version.is_empty(),
        }
    }
}

/// `apiVersion/kind[/name]` of a document.
pub fn doc_identity(d: &dyn Document) -> String {
    if d.kind() == "v1alpha1" {
        return "/v1alpha1".into();
    }
    if d.named() { format!("v1alpha1/{}/{}", d.kind(), d.name()) } else { format!("v1alpha1/{}", d.kind()) }
}

/// A machine configuration: the legacy `v1alpha1` document (if any) and the other documents in
/// order.
///
/// With the `serde` feature, a config serializes as the sequence of its documents in
/// [`Config::encode`] order (each with Talos's key names, `omitempty` applied), and deserializes
/// from such a sequence (or from one document) through the loading path of
/// [`Config::from_bytes`], with its checks and error texts.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub(crate) entries: Vec<Entry>,
    /// The release the config was loaded as: validation and encoding follow it too.
    pub(crate) release: crate::Release,
}

impl Config {
    /// Loads a config as Talos does (`configloader.NewFromBytes`): strict decoding, no
    /// `$patch: delete`, duplicate and conflict checks.
    ///
    /// ```
    /// let cfg = talos_config::Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n").unwrap();
    /// assert_eq!(cfg.encode(), "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster: null\n");
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Config, Error> {
        Config::from_bytes_for(bytes, crate::Release::DEFAULT)
    }

    /// [`Config::from_bytes`] as `release`'s loader does it: only the kinds and fields that
    /// release has, its YAML texts; the config then validates and encodes as that release.
    ///
    /// ```
    /// use talos_config::{Config, Release};
    /// let vrf = b"apiVersion: v1alpha1\nkind: VRFConfig\nname: vrf-blue\n";
    /// assert!(Config::from_bytes_for(vrf, Release::V1_13_9).is_ok());
    /// assert_eq!(
    ///     Config::from_bytes_for(vrf, Release::V1_12_11).unwrap_err().to_string(),
    ///     "error decoding document v1alpha1/VRFConfig/vrf-blue (line 1): \"VRFConfig\" \"v1alpha1\": not registered"
    /// );
    /// ```
    pub fn from_bytes_for(bytes: &[u8], release: crate::Release) -> Result<Config, Error> {
        let entries = load_entries(bytes, false, release)?;
        Config::new(entries, release)
    }

    /// The release the config was loaded as, which its validation and encoding follow.
    pub fn release(&self) -> crate::Release {
        self.release
    }

    /// [`Config::from_bytes`] that takes the bytes and frees them as soon as they are parsed, so
    /// that a large config is in memory twice at most (as YAML nodes and as typed documents),
    /// not three times.
    ///
    /// ```
    /// use talos_config::Config;
    /// let config = Config::from_vec(b"version: v1alpha1\nmachine:\n  type: worker\n".to_vec()).unwrap();
    /// assert_eq!(config.docs().count(), 1);
    /// ```
    pub fn from_vec(bytes: Vec<u8>) -> Result<Config, Error> {
        Config::from_vec_for(bytes, crate::Release::DEFAULT)
    }

    /// [`Config::from_vec`] as `release`'s loader does it (see [`Config::from_bytes_for`]).
    pub fn from_vec_for(bytes: Vec<u8>, release: crate::Release) -> Result<Config, Error> {
        let roots = parse_roots(&bytes, release);
        drop(bytes);
        Config::new(entries_from_roots(roots, false, release)?, release)
    }

    /// Builds a container, running upstream's `container.New` checks.
    pub(crate) fn new(entries: Vec<Entry>, release: crate::Release) -> Result<Config, Error> {
        check_container(&entries, release).map_err(Error::merge)?;
        Ok(Config { entries, release })
    }

    /// A v1.14 patch's entries as `NewReadonlyUnvalidated` keeps them, unchecked, in
    /// `Documents()` order: there the legacy document is one of the others, so only the deletes
    /// aimed at it come first, then every other entry in file order.
    pub(crate) fn unvalidated_documents(entries: Vec<Entry>) -> Vec<Entry> {
        let (deletes, rest): (Vec<Entry>, Vec<Entry>) =
            entries.into_iter().partition(|e| matches!(e, Entry::Delete(_)) && e.targets_legacy());
        deletes.into_iter().chain(rest).collect()
    }

    /// The documents in upstream `Documents()` order: deletes aimed at the legacy document, the
    /// legacy document, then the others in container order.
    pub(crate) fn into_documents(self) -> Vec<Entry> {
        let (legacy, others): (Vec<Entry>, Vec<Entry>) = self.entries.into_iter().partition(Entry::targets_legacy);
        let (deletes, docs): (Vec<Entry>, Vec<Entry>) = legacy.into_iter().partition(|e| matches!(e, Entry::Delete(_)));
        deletes.into_iter().chain(docs).chain(others).collect()
    }

    /// A named delete selector left in the container (its target never existed): upstream's
    /// encoder panics on it, so nothing may be encoded.
    pub(crate) fn unmatched_named_delete(&self) -> Option<&Selector> {
        self.entries.iter().find_map(|e| match e {
            Entry::Delete(sel) if sel.name.is_some() => Some(sel),
            _ => None,
        })
    }

    /// [`Config::into_documents`] of a copy.
    pub(crate) fn documents(&self) -> Vec<Entry> {
        let mut out: Vec<Entry> =
            self.entries.iter().filter(|e| matches!(e, Entry::Delete(_)) && e.targets_legacy()).cloned().collect();
        out.extend(self.entries.iter().filter(|e| matches!(e, Entry::Doc(_)) && e.targets_legacy()).cloned());
        out.extend(self.entries.iter().filter(|e| !e.targets_legacy()).cloned());
        out
    }

    /// The typed documents, legacy document first.
    pub fn docs(&self) -> impl Iterator<Item = &dyn Document> {
        let legacy = self.entries.iter().filter(|e| e.targets_legacy());
        let others = self.entries.iter().filter(|e| !e.targets_legacy());
        legacy.chain(others).filter_map(|e| match e {
            Entry::Doc(d) => Some(d.as_ref()),
            Entry::Delete(_) => None,
        })
    }

    /// The first document of kind `T`, typed.
    ///
    /// ```
    /// use talos_config::Config;
    /// use talos_config::model::network::HostnameConfig;
    /// let config = Config::from_bytes(b"apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n")?;
    /// assert_eq!(config.get::<HostnameConfig>().map(|h| h.hostname.as_str()), Some("node-1"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn get<T: crate::document::Kind>(&self) -> Option<&T> {
        self.docs().find_map(|d| d.as_any().downcast_ref::<T>())
    }

    /// Every document of kind `T`, typed, in order (several for named kinds).
    ///
    /// ```
    /// use talos_config::Config;
    /// use talos_config::model::network::StaticHostConfig;
    /// let config = Config::from_bytes(b"apiVersion: v1alpha1\nkind: StaticHostConfig\nname: 10.0.0.1\nhostnames: [a]\n---\napiVersion: v1alpha1\nkind: StaticHostConfig\nname: 10.0.0.2\nhostnames: [b]\n")?;
    /// let names: Vec<&str> = config.all::<StaticHostConfig>().map(|h| h.name.as_str()).collect();
    /// assert_eq!(names, ["10.0.0.1", "10.0.0.2"]);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn all<T: crate::document::Kind>(&self) -> impl Iterator<Item = &T> {
        self.docs().filter_map(|d| d.as_any().downcast_ref::<T>())
    }

    /// The legacy `v1alpha1` document (`machine`, `cluster`, ...), typed.
    ///
    /// ```
    /// let config = talos_config::Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n")?;
    /// let machine = config.v1alpha1().and_then(|v1| v1.machine.as_ref());
    /// assert_eq!(machine.map(|m| m.r#type.as_str()), Some("worker"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn v1alpha1(&self) -> Option<&crate::model::v1alpha1::Config> {
        self.get()
    }

    /// The first document of kind `T`, to edit in place.
    ///
    /// ```
    /// use talos_config::Config;
    /// use talos_config::model::network::HostnameConfig;
    /// let mut config = Config::from_bytes(b"apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n")?;
    /// config.get_mut::<HostnameConfig>().unwrap().hostname = "node-2".into();
    /// assert_eq!(config.encode(), "apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-2\n");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn get_mut<T: crate::document::Kind>(&mut self) -> Option<&mut T> {
        self.entries.iter_mut().find_map(|e| match e {
            Entry::Doc(d) => d.as_any_mut().downcast_mut::<T>(),
            Entry::Delete(_) => None,
        })
    }

    /// The legacy `v1alpha1` document, to edit in place (set a field, clear a section).
    ///
    /// ```
    /// let mut config = talos_config::Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n")?;
    /// let machine = config.v1alpha1_mut().unwrap().machine.get_or_insert_with(Default::default);
    /// machine.node_labels.insert("pool".into(), "blue".into());
    /// assert_eq!(
    ///     config.encode(),
    ///     "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        pool: blue\ncluster: null\n"
    /// );
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn v1alpha1_mut(&mut self) -> Option<&mut crate::model::v1alpha1::Config> {
        self.get_mut()
    }

    /// Adds a document after the others, with the checks loading does: a second document of
    /// an unnamed kind, or of a named kind with the same name, is refused with Talos's text
    /// and the config is left as it was.
    ///
    /// ```
    /// use talos_config::Config;
    /// use talos_config::model::meta::Meta;
    /// use talos_config::model::network::HostnameConfig;
    /// let mut config = Config::default();
    /// let hostname = HostnameConfig {
    ///     meta: Meta { api_version: "v1alpha1".into(), kind: "HostnameConfig".into() },
    ///     hostname: "node-1".into(),
    ///     ..Default::default()
    /// };
    /// config.push(hostname.clone())?;
    /// assert_eq!(config.encode(), "apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n");
    /// assert!(config.push(hostname).is_err());
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn push<T: crate::document::Kind>(&mut self, document: T) -> Result<(), Error> {
        self.entries.push(Entry::Doc(Box::new(document)));
        if let Err(text) = check_container(&self.entries, self.release) {
            self.entries.pop();
            return Err(Error::merge(text));
        }
        Ok(())
    }

    /// Removes the document with this identity and gives it back; `None` when there is none.
    ///
    /// ```
    /// use talos_config::{Config, DocumentId};
    /// let mut config = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n")?;
    /// let id = DocumentId::new("HostnameConfig", None);
    /// assert!(config.remove(&id).is_some());
    /// assert_eq!(config.docs().count(), 1);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn remove(&mut self, id: &crate::DocumentId) -> Option<Box<dyn Document>> {
        let index = self.entries.iter().position(|e| matches!(e, Entry::Doc(d) if d.id() == *id))?;
        match self.entries.remove(index) {
            Entry::Doc(d) => Some(d),
            Entry::Delete(_) => None,
        }
    }

    /// The value at `path` of `document` as the encoder writes it: a scalar's text, or a
    /// mapping's or list's YAML. `None` when the document or the path is not there, or the value
    /// is null (a value Talos omits when empty is not there either).
    ///
    /// ```
    /// use talos_config::{Config, DocumentId, FieldPath};
    /// let config = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs:\n      max-pods: \"150\"\n")?;
    /// let path = FieldPath::parse("machine.kubelet.extraArgs.max-pods");
    /// assert_eq!(config.value(&DocumentId::legacy(), &path).as_deref(), Some("150"));
    /// assert_eq!(config.value(&DocumentId::legacy(), &FieldPath::parse("machine.kubelet.extraArgs")).as_deref(), Some("max-pods: \"150\"\n"));
    /// assert_eq!(config.value(&DocumentId::legacy(), &FieldPath::parse("machine.network")), None);
    /// assert_eq!(config.value(&DocumentId::legacy(), &FieldPath::parse("cluster")), None); // `cluster: null`
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn value(&self, document: &crate::DocumentId, path: &crate::FieldPath) -> Option<String> {
        let doc = self.docs().find(|d| d.id() == *document)?;
        let tree = doc.encode_for(self.release);
        let mut node = &tree;
        for segment in path.segments() {
            node = match (segment, &node.value) {
                (crate::Segment::Key(k), NodeValue::Mapping(entries, _)) => {
                    &entries.iter().find(|(key, _)| key.as_scalar().is_some_and(|s| s.text == *k))?.1
                }
                (crate::Segment::Index(i), NodeValue::Sequence(items, _)) => items.get(*i)?,
                _ => return None,
            };
        }
        match &node.value {
            // The encoder writes an absent value as a plain `null` (a string "null" is quoted).
            NodeValue::Scalar(s) if s.style == crate::yaml::node::ScalarStyle::Plain && s.text == "null" => None,
            NodeValue::Scalar(s) => Some(s.text.clone()),
            _ => Some(emit_v4_in(node, self.release.yaml())),
        }
    }

    /// Encodes the config as Talos's encoder does with comments disabled (what
    /// `talosctl machineconfig patch` writes after a strategic patch): the legacy document
    /// first, documents joined by `---\n`.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        for entry in self.encode_order() {
            Self::emit_entry(entry.map(|d| d.encode_for(self.release)), &mut out, self.release);
        }
        out
    }

    /// [`Config::encode`] with the values of the secret fields Talos's `RedactSecrets` knows
    /// replaced by `REDACTED` (the fields `diff::compare` hides): the config as it may be
    /// shown where secrets must not be.
    ///
    /// ```
    /// let config = talos_config::Config::from_bytes(b"version: v1alpha1\nmachine:\n  token: abcdef.0123456789abcdef\n")?;
    /// assert_eq!(
    ///     config.encode_redacted(),
    ///     "version: v1alpha1\nmachine:\n    type: \"\"\n    token: REDACTED\n    certSANs: []\ncluster: null\n"
    /// );
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn encode_redacted(&self) -> String {
        let mut out = String::new();
        for entry in self.encode_order() {
            let tree = entry.map(|d| {
                let mut tree = d.encode_for(self.release);
                crate::redact::redact_document(d.kind(), &mut tree);
                tree
            });
            Self::emit_entry(tree, &mut out, self.release);
        }
        out
    }

    /// Like [`Config::encode`], consuming the config: each document's YAML tree is built with
    /// the document's strings moved into it, and no text is written before every typed
    /// document is gone, so that the config, its tree and its text are never in memory all at
    /// once (nor its strings twice).
    pub(crate) fn into_encoded(self) -> String {
        let release = self.release;
        // `encode_order`, owned: documents aimed at the legacy document first.
        let (legacy, others): (Vec<Entry>, Vec<Entry>) =
            self.entries.into_iter().partition(|e| e.targets_legacy() && matches!(e, Entry::Doc(_)));
        let trees: Vec<Option<Node>> = legacy
            .into_iter()
            .chain(others)
            .map(|entry| match entry {
                Entry::Doc(d) => Some(d.into_encoded_for(release)),
                Entry::Delete(_) => None,
            })
            .collect();
        let mut out = String::new();
        for tree in trees {
            Self::emit_entry(tree, &mut out, release);
        }
        out
    }

    /// The entries in encoding order (documents aimed at the legacy document first): a typed
    /// document, or `None` for an unmatched delete selector.
    fn encode_order(&self) -> impl Iterator<Item = Option<&dyn Document>> {
        let legacy = self.entries.iter().filter(|e| e.targets_legacy() && matches!(e, Entry::Doc(_)));
        let others = self.entries.iter().filter(|e| !(e.targets_legacy() && matches!(e, Entry::Doc(_))));
        legacy.chain(others).map(|entry| match entry {
            Entry::Doc(d) => Some(d.as_ref()),
            Entry::Delete(_) => None,
        })
    }

    /// The documents' YAML trees in [`Config::encode`] order, an unmatched delete selector as
    /// the empty mapping upstream prints for it: what the `serde` feature serializes.
    #[cfg(feature = "serde")]
    pub(crate) fn encoded_trees(&self) -> impl Iterator<Item = Node> + '_ {
        self.encode_order().map(|entry| entry.map_or_else(|| Node::mapping(Vec::new()), |d| d.encode_for(self.release)))
    }

    /// Loads a config from documents given as YAML trees (the `serde` feature's deserializing)
    /// the way [`Config::from_bytes`] loads parsed text. The trees carry no positions.
    #[cfg(feature = "serde")]
    pub(crate) fn from_trees(roots: Vec<Node>) -> Result<Config, Error> {
        let roots =
            roots.into_iter().map(|root| ParsedDocument { root, start: crate::yaml::Mark::default() }).collect();
        Config::new(entries_from_roots((roots, None), false, crate::Release::DEFAULT)?, crate::Release::DEFAULT)
    }

    fn emit_entry(tree: Option<Node>, out: &mut String, release: crate::Release) {
        if !out.is_empty() {
            out.push_str("---\n");
        }
        match tree {
            Some(tree) => emit_v4_into_in(&tree, out, release.yaml()),
            // Upstream marshals an unmatched unnamed selector as an empty struct.
            None => out.push_str("{}\n"),
        }
    }
}

/// Upstream `container.New` checks.
fn check_container(entries: &[Entry], release: crate::Release) -> Result<(), String> {
    let mut legacy_seen = false;
    // From v1.14 every link document claims its link name (a veth also its peer's); the first
    // claim wins.
    let mut claimed_links: HashMap<&str, String> = HashMap::new();
    // Earlier documents by name, kinds in order: only documents with the same name can clash.
    let mut seen: HashMap<&str, Vec<&'static str>> = HashMap::new();
    for entry in entries {
        let Entry::Doc(d) = entry else { continue };
        if d.kind() == "v1alpha1" {
            if legacy_seen {
                return Err("duplicate v1alpha1.Config".into());
            }
            legacy_seen = true;
            continue;
        }
        let (kind, name) = (d.kind(), d.name());
        let same_name = seen.entry(name).or_default();
        for pk in same_name.iter() {
            if *pk == kind {
                return Err(format!("duplicate document: {kind}/{name}"));
            }
            if conflict_group(pk).is_some() && conflict_group(pk) == conflict_group(kind) {
                return Err(format!("conflicting documents: {pk}/{name} and {kind}/{name}"));
            }
        }
        same_name.push(kind);
        if release >= crate::Release::V1_14_0_RC1 && conflict_group(kind) == Some(1) {
            claim_links(&**d, &mut claimed_links)?;
        }
    }
    Ok(())
}

/// Claims the link names a link document configures: its own, and a veth's peer.
fn claim_links<'a>(doc: &'a dyn Document, claimed: &mut HashMap<&'a str, String>) -> Result<(), String> {
    let id = format!("{}/{}", doc.kind(), doc.name());
    let peer = doc.as_any().downcast_ref::<crate::model::network::VethConfig>().map(|v| v.peer.name.as_str());
    for link in std::iter::once(doc.name()).chain(peer) {
        if let Some(owner) = claimed.get(link) {
            let link = crate::gofmt::quote(link);
            return Err(format!("conflicting link configurations: {owner} and {id} both configure {link}"));
        }
        claimed.insert(link, id.clone());
    }
    Ok(())
}

/// Kinds that may not share a name with another kind of the same group.
fn conflict_group(kind: &str) -> Option<u8> {
    match kind {
        "BondConfig" | "BridgeConfig" | "DummyLinkConfig" | "LinkConfig" | "VLANConfig" | "VRFConfig"
        | "WireguardConfig" | "VethConfig" => Some(1),
        "HCloudVIPConfig" | "Layer2VIPConfig" => Some(2),
        "UserVolumeConfig" | "ExistingVolumeConfig" => Some(3),
        _ => None,
    }
}

/// Upstream decoder `parse`: every YAML document to typed documents (and, for patches,
/// delete selectors), in file order; selectors of a document come before its content.
pub(crate) fn load_entries(
    bytes: &[u8],
    allow_patch_delete: bool,
    release: crate::Release,
) -> Result<Vec<Entry>, Error> {
    entries_from_roots(parse_roots(bytes, release), allow_patch_delete, release)
}

/// The YAML documents of a config or patch text up to the first syntax error, and that error.
fn parse_roots(bytes: &[u8], release: crate::Release) -> (Vec<ParsedDocument>, Option<Error>) {
    let (docs, error) = parse_stream_partial_in(bytes, release.yaml());
    (docs, error.map(|e| Error::decode(format!("decode error: {e}"), e.line, e.column)))
}

/// Decodes parsed documents into entries (each document's nodes are freed once decoded).
/// Upstream decodes one document before it reads the next, so a document's own error comes
/// before a syntax error further on.
fn entries_from_roots(
    (roots, syntax_error): (Vec<ParsedDocument>, Option<Error>),
    allow_patch_delete: bool,
    release: crate::Release,
) -> Result<Vec<Entry>, Error> {
    let mut out = Vec::new();
    let mut known: HashSet<(String, String, String)> = HashSet::new();
    // v1.14 loads a patch with `WithNoValidation`, which lets the decoder take repeats too.
    let allow_duplicates = allow_patch_delete && release.rules().unvalidated_patches;
    for (index, ParsedDocument { root, start }) in roots.into_iter().enumerate() {
        // Upstream names the document node's line here: its `---` when there is one.
        let line = start.line;
        let mut root = if allow_patch_delete {
            let (kept, selectors) = extract_deletes(root, index).map_err(|e| {
                Error::decode(format!("error processing patch delete statements at line {line}: {e}"), Some(line), None)
            })?;
            out.extend(selectors.into_iter().map(Entry::Delete));
            match kept {
                Some(r) => r,
                None => continue,
            }
        } else {
            root
        };
        match &root.value {
            NodeValue::Mapping(..) => {}
            NodeValue::Scalar(_) if crate::value::is_null(&root) => continue,
            _ => {
                return Err(Error::decode(
                    format!("expected a YAML document at line {}", root.mark.line),
                    Some(root.mark.line),
                    Some(root.mark.column),
                ));
            }
        }
        let id = (
            top_value(&root, "apiVersion"),
            Some(top_value(&root, "kind")).filter(|k| !k.is_empty()).unwrap_or_else(|| "v1alpha1".into()),
            top_value(&root, "name"),
        );
        let at = root.mark.line;
        if !allow_duplicates && known.contains(&id) {
            return Err(Error::decode(
                format!("duplicate document {}/{}/{} is not allowed (line {at})", id.0, id.1, id.2),
                Some(at),
                Some(root.mark.column),
            ));
        }
        let doc = decode_document(&mut root, release).map_err(|(e, mark)| {
            // Talos names the document's line; the location points at the first offending node.
            let mark = mark.filter(|m| m.line > 0).unwrap_or(root.mark);
            Error::decode(
                format!("error decoding document {}/{}/{} (line {at}): {e}", id.0, id.1, id.2),
                Some(mark.line),
                Some(mark.column),
            )
        })?;
        known.insert(id);
        out.push(Entry::Doc(doc));
    }
    if let Some(error) = syntax_error {
        return Err(error);
    }
    if out.is_empty() {
        return Err(Error::decode("config not found", None, None));
    }
    Ok(out)
}

/// The scalar text of a top-level key (`""` when absent or not a scalar).
fn top_value(root: &Node, key: &str) -> String {
    root.get(key).and_then(|v| v.as_scalar()).map(|s| s.text.clone()).unwrap_or_default()
}

/// Upstream decoder `decode`: picks the Go type, decodes, checks unknown keys. An error comes
/// with the position of the first offending node, when there is one. The document's strings are
/// moved out of `root`, which is good for nothing else afterwards.
fn decode_document(root: &mut Node, release: crate::Release) -> Result<Box<dyn Document>, DecodeFailure> {
    let (entry, kind) = pick_kind(root, release).map_err(|e| (e, None))?;
    let unknown = (entry.unknown_keys_for)(root, release);
    let summary = unknown.as_ref().ok().and_then(Option::as_ref);
    let mut cx = DecodeCx::for_release(release);
    let doc = (entry.decode_taking)(root, &mut cx);
    // go-yaml checks a tagged scalar when it decodes it, and that failure ends decoding alone.
    if let Some((message, mark)) =
        crate::value::explicit_tag_error(root, summary, cx.undecoded_offsets(), release.yaml())
    {
        let text = match release.yaml() {
            // rc.6 reports it from its resolver, which knows no position.
            crate::yaml::Dialect::V4Rc6 => format!("go-yaml load error in resolver at <unknown position>: {message}"),
            _ => format!("yaml: {message}"),
        };
        return Err((format!("error decoding {kind} to {}: {text}", (entry.go_type)()), Some(mark)));
    }
    let first = cx.first_mark();
    if let Some(e) = cx.into_error() {
        return Err((format!("error decoding {kind} to {}: {e}", (entry.go_type)()), first));
    }
    match unknown.map_err(|e| (e, None))? {
        Some(summary) => Err((
            format!("unknown keys found during decoding:\n{}", emit_v4_with_comments_in(&summary, release.yaml())),
            first_unknown(&summary),
        )),
        None => Ok(doc),
    }
}

/// A decoding failure: Talos's text, and where the first offending node is.
type DecodeFailure = (String, Option<crate::yaml::Mark>);

/// The first unknown key of an unknown-keys summary (its original position): summary nodes built
/// for known containers carry no position, the unknown entries are the original nodes.
fn first_unknown(summary: &Node) -> Option<crate::yaml::Mark> {
    let mut best: Option<crate::yaml::Mark> = None;
    let mut stack = vec![summary];
    while let Some(node) = stack.pop() {
        let children: Vec<(&Node, &Node)> = match &node.value {
            NodeValue::Mapping(entries, _) => entries.iter().map(|(k, v)| (k, v)).collect(),
            NodeValue::Sequence(items, _) => items.iter().map(|i| (i, i)).collect(),
            NodeValue::Scalar(_) => Vec::new(),
        };
        for (key, value) in children {
            if value.mark.line == 0 {
                stack.push(value);
            } else if best.is_none_or(|b| (key.mark.line, key.mark.column) < (b.line, b.column)) {
                best = Some(key.mark);
            }
        }
    }
    best
}

/// Upstream decoder `decode`'s type selection: the kind entry for a document.
/// Returns the entry and the `kind` text as upstream read it (empty for the legacy document).
fn pick_kind(root: &Node, release: crate::Release) -> Result<(&'static crate::document::KindEntry, String), String> {
    let Some(entries) = root.as_mapping() else {
        return Err("expected a mapping node".into());
    };
    // Upstream scans keys and values alike; a node whose text is `kind` makes the next node the
    // kind, even when it is a value.
    let nodes: Vec<&Node> = entries.iter().flat_map(|(k, v)| [k, v]).collect();
    let (mut version, mut kind) = (String::new(), String::new());
    for (i, node) in nodes.iter().enumerate() {
        let text = node.as_scalar().map(|s| s.text.as_str()).unwrap_or("");
        match text {
            "kind" | "apiVersion" => {
                let Some(next) = nodes.get(i + 1) else {
                    let n = nodes.len();
                    return Err(format!("recovered: runtime error: index out of range [{n}] with length {n}"));
                };
                let mut cx = DecodeCx::for_release(release);
                let value = <String as crate::value::Value>::decode(next, &mut cx);
                if let Some(e) = cx.into_error() {
                    let what = if text == "kind" { "kind" } else { "version" };
                    return Err(format!("{what} decode: {e}"));
                }
                if text == "kind" {
                    kind = value;
                } else {
                    version = value;
                }
            }
            "machine" | "cluster" | "debug" | "persist" => version = "v1alpha1".into(),
            _ => {}
        }
    }
    let entry = if version == "v1alpha1" && kind.is_empty() {
        lookup_for("v1alpha1", release)
    } else if kind.is_empty() {
        return Err("missing kind".into());
    } else if version.is_empty() {
        return Err("missing apiVersion".into());
    } else {
        // The legacy registration ignores the version; every other kind is v1alpha1 only.
        lookup_for(&kind, release).filter(|e| e.kind == "v1alpha1" || version == "v1alpha1")
    };
    match entry {
        Some(entry) => Ok((entry, kind)),
        None => Err(format!("{} {}: not registered", crate::gofmt::quote(&kind), crate::gofmt::quote(&version))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Entry {
        match load_entries(text.as_bytes(), false, crate::Release::DEFAULT) {
            Ok(mut e) => e.remove(0),
            Err(e) => panic!("{e}"),
        }
    }

    /// `container.New`'s own checks (upstream `TestNewDuplicate`): the loader's identity check
    /// normally fires first, so they are exercised on hand-built containers.
    #[test]
    fn container_duplicates() {
        let legacy = doc("machine:\n  type: worker\n");
        assert_eq!(
            check_container(&[legacy.clone(), legacy], crate::Release::DEFAULT),
            Err("duplicate v1alpha1.Config".into())
        );
        let sidero = doc("apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://a\n");
        assert_eq!(
            check_container(&[sidero.clone(), sidero], crate::Release::DEFAULT),
            Err("duplicate document: SideroLinkConfig/".into())
        );
    }
}
