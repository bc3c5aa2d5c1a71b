//! Decoding state shared by every [`super::Value::decode`] call.

use crate::yaml::resolve::{Resolved, resolve_v4};
use crate::yaml::{Node, NodeValue, ScalarStyle};

/// Collects go-yaml's construct errors while a document decodes.
#[derive(Debug, Default)]
pub struct DecodeCx {
    errors: Vec<String>,
    first: Option<crate::yaml::Mark>,
    /// A go-yaml `failf`: decoding stops there and only this text is reported.
    fatal: Option<(String, crate::yaml::Mark)>,
    /// The offsets of nodes go-yaml never decodes (nor checks the tags of): a container decoded
    /// into a scalar type, a value a custom unmarshaler refused.
    undecoded: std::collections::HashSet<usize>,
    /// The release whose types and texts decoding follows.
    release: crate::Release,
}

impl DecodeCx {
    /// A fresh context, decoding as the default release.
    pub fn new() -> DecodeCx {
        DecodeCx::default()
    }

    /// A fresh context decoding as `release`: its kinds, fields and go-yaml texts.
    pub fn for_release(release: crate::Release) -> DecodeCx {
        DecodeCx { release, ..DecodeCx::default() }
    }

    /// The release decoding follows.
    pub fn release(&self) -> crate::Release {
        self.release
    }

    /// A fresh context for a sub-decode of the same release.
    pub(crate) fn sibling(&self) -> DecodeCx {
        DecodeCx::for_release(self.release)
    }

    /// Records `line N: <message>` for `node`.
    pub fn error(&mut self, node: &Node, message: impl std::fmt::Display) {
        self.errors.push(format!("line {}: {}", node.mark.line, message));
        self.first.get_or_insert(node.mark);
    }

    /// Records a go-yaml `failf` (`yaml: <message>`; rc.6: `go-yaml load error in constructor
    /// at L3.C9: <message>`), which aborts decoding: the first one is the whole error, whatever
    /// else was recorded.
    pub fn fail(&mut self, node: &Node, message: impl std::fmt::Display) {
        if self.fatal.is_none() {
            let text = match self.release.yaml() {
                crate::yaml::Dialect::V4Rc6 => {
                    format!("go-yaml load error in constructor at L{}.C{}: {message}", node.mark.line, node.mark.column)
                }
                _ => format!("yaml: {message}"),
            };
            self.fatal = Some((text, node.mark));
        }
    }

    /// Records that go-yaml does not decode `node` and what it holds, so that its tags are not
    /// checked ([`explicit_tag_error`]). Nodes without a position (built, not parsed) are not
    /// told apart and not recorded.
    pub fn undecoded(&mut self, node: &Node) {
        if node.mark != crate::yaml::Mark::default() {
            self.undecoded.insert(node.mark.offset);
        }
    }

    /// The nodes [`DecodeCx::undecoded`] recorded, by offset.
    pub fn undecoded_offsets(&self) -> &std::collections::HashSet<usize> {
        &self.undecoded
    }

    /// Where the first recorded error is.
    pub fn first_mark(&self) -> Option<crate::yaml::Mark> {
        match &self.fatal {
            Some((_, mark)) => Some(*mark),
            None => self.first,
        }
    }

    /// The recorded errors, in order.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// go-yaml's aggregate text: `yaml: construct errors:\n  line 3: ...` (rc.3 says
    /// `unmarshal errors`; rc.6 writes one line: `yaml: construct errors: line 3: ...; line 5:
    /// ...`), or `None`.
    pub fn into_error(self) -> Option<String> {
        if let Some((fatal, _)) = self.fatal {
            return Some(fatal);
        }
        if self.errors.is_empty() {
            return None;
        }
        let head = match self.release.yaml() {
            crate::yaml::Dialect::V4Rc3 => "yaml: unmarshal errors:",
            crate::yaml::Dialect::V4Rc6 => return Some(format!("yaml: construct errors: {}", self.errors.join("; "))),
            _ => "yaml: construct errors:",
        };
        let mut out = String::from(head);
        for e in self.errors {
            out.push_str("\n  ");
            out.push_str(&e);
        }
        Some(out)
    }

    /// Checks duplicate scalar keys of a mapping the way go-yaml does while decoding; records
    /// `mapping key "k" already defined at line N`. True when there was one: go-yaml then
    /// decodes nothing of the mapping (the caller leaves the zero value).
    pub fn check_duplicate_keys(&mut self, entries: &[(Node, Node)]) -> bool {
        let before = self.errors.len();
        // go-yaml compares every key with every later one and reports each equal pair, ordered
        // by the earlier key: `a a a` gives (2, 1), (3, 1), (3, 2). Grouping the keys first
        // keeps a mapping of thousands of distinct labels linear.
        // Each text's keys in order, and how many of them the walk below has passed.
        let mut groups: std::collections::HashMap<&str, (Vec<&Node>, usize)> = std::collections::HashMap::new();
        for (k, _) in entries {
            if let Some(ks) = k.as_scalar() {
                groups.entry(ks.text.as_str()).or_default().0.push(k);
            }
        }
        if groups.values().any(|(keys, _)| keys.len() > 1) {
            let mut pairs = 0usize;
            'keys: for (k, _) in entries {
                let Some(ks) = k.as_scalar() else { continue };
                let Some((keys, passed)) = groups.get_mut(ks.text.as_str()) else { continue };
                // This key is its group's `passed`-th; the ones after it are its duplicates.
                *passed += 1;
                for dup in &keys[*passed..] {
                    if pairs == MAX_DUPLICATE_PAIRS {
                        break 'keys;
                    }
                    pairs += 1;
                    let msg = format!("mapping key {} already defined at line {}", go_quote(&ks.text), k.mark.line);
                    self.error(dup, msg);
                }
            }
        }
        let found = self.errors.len() > before;
        if found {
            // go-yaml decodes nothing of the mapping, so it checks none of its tags either.
            for (k, v) in entries {
                self.undecoded(k);
                self.undecoded(v);
            }
        }
        found
    }
}

/// At most this many duplicate-key errors are recorded for one mapping (go-yaml records one per
/// equal pair, which for 100,000 equal keys would be five billion): a documented limit.
pub(crate) const MAX_DUPLICATE_PAIRS: usize = 100_000;

/// go-yaml's text when a merge key's value is not a mapping or a list of mappings.
pub(crate) const MERGE_WANTS_MAP: &str = "map merge requires map or sequence of maps as the value";

/// True for a merge key: a plain `<<` (or one tagged `!!merge`, which rc.3 takes only on a
/// `<<` key).
fn is_merge_key_in(key: &Node, dialect: crate::yaml::Dialect) -> bool {
    match (&key.value, key.tag.as_deref()) {
        (NodeValue::Scalar(s), Some(tag)) if dialect == crate::yaml::Dialect::V4Rc3 => {
            tag == "!!merge" && s.text == "<<"
        }
        (NodeValue::Scalar(_), Some(tag)) => tag == "!!merge",
        (NodeValue::Scalar(s), None) => s.style == ScalarStyle::Plain && s.text == "<<",
        _ => false,
    }
}

/// A mapping's entries as go-yaml's constructor sees them once merge keys are applied: the
/// entries other than `<<` in order, then the merged mappings' entries (the last `<<` counts; a
/// list merges its mappings in order; nested `<<` are followed), each merged key only when no
/// earlier key had its text. A merge value that is not a mapping or a list of mappings is
/// go-yaml's fatal [`MERGE_WANTS_MAP`]. Without a merge key, the entries are borrowed.
pub(crate) fn mapping_entries<'a>(
    entries: &'a [(Node, Node)],
    cx: &mut DecodeCx,
) -> std::borrow::Cow<'a, [(Node, Node)]> {
    let dialect = cx.release.yaml();
    let Some(merge) = entries.iter().rev().find(|(k, _)| is_merge_key_in(k, dialect)).map(|(_, v)| v) else {
        return std::borrow::Cow::Borrowed(entries);
    };
    let own: Vec<(Node, Node)> = entries.iter().filter(|(k, _)| !is_merge_key_in(k, dialect)).cloned().collect();
    let mut seen: std::collections::HashSet<String> = own.iter().filter_map(|(k, _)| scalar_text(k)).collect();
    let mut out = own;
    merge_into(merge, &mut seen, &mut out, cx);
    std::borrow::Cow::Owned(out)
}

fn scalar_text(key: &Node) -> Option<String> {
    key.as_scalar().map(|s| s.text.clone())
}

/// go-yaml's `merge`: each merged mapping is constructed like any mapping (duplicate keys
/// checked, its own `<<` followed), skipping keys already set.
fn merge_into(
    merge: &Node,
    seen: &mut std::collections::HashSet<String>,
    out: &mut Vec<(Node, Node)>,
    cx: &mut DecodeCx,
) {
    let maps: Vec<&Node> = match &merge.value {
        NodeValue::Mapping(..) => vec![merge],
        NodeValue::Sequence(items, _) if items.iter().all(|i| matches!(i.value, NodeValue::Mapping(..))) => {
            items.iter().collect()
        }
        _ => {
            cx.fail(merge, MERGE_WANTS_MAP);
            return;
        }
    };
    for map in maps {
        let NodeValue::Mapping(entries, _) = &map.value else { continue };
        if cx.check_duplicate_keys(entries) {
            continue;
        }
        let dialect = cx.release.yaml();
        for (k, v) in entries.iter().filter(|(k, _)| !is_merge_key_in(k, dialect)) {
            let text = scalar_text(k);
            if text.as_ref().is_some_and(|t| seen.contains(t)) {
                continue;
            }
            seen.extend(text);
            out.push((k.clone(), v.clone()));
        }
        if let Some((_, nested)) = entries.iter().rev().find(|(k, _)| is_merge_key_in(k, dialect)) {
            merge_into(nested, seen, out, cx);
        }
    }
}

/// The resolved short tag of a node as go-yaml reports it in type errors (`!!str`, `!!int`,
/// `!!map`, `!!seq`, ...).
pub fn node_tag(node: &Node) -> String {
    if let Some(t) = &node.tag {
        return t.clone();
    }
    match &node.value {
        NodeValue::Mapping(..) => "!!map".into(),
        NodeValue::Sequence(..) => "!!seq".into(),
        NodeValue::Scalar(s) if s.style != ScalarStyle::Plain => "!!str".into(),
        NodeValue::Scalar(s) => resolve_v4(&s.text).tag().into(),
    }
}

/// go-yaml's error when a `!!binary` scalar is not valid base64.
pub const BINARY_ERROR: &str = "!!binary value contains invalid base64 data";

/// go-yaml's decoding of a `!!binary` scalar: `base64.StdEncoding.DecodeString` of the scalar's
/// value as it stands (only `\r` and `\n` are skipped, so a folded plain scalar whose lines
/// were joined with spaces is invalid), failing with [`BINARY_ERROR`].
pub fn decode_binary(text: &str) -> Result<Vec<u8>, &'static str> {
    crate::gofmt::base64_decode(text).map_err(|_| BINARY_ERROR)
}

/// True for a node go-yaml decodes as null (a plain empty, `~` or `null` scalar, or `!!null`).
pub fn is_null(node: &Node) -> bool {
    match &node.value {
        NodeValue::Scalar(s) => {
            if node.tag.as_deref() == Some("!!null") {
                return true;
            }
            node.tag.is_none() && s.style == ScalarStyle::Plain && resolve_v4(&s.text) == Resolved::Null
        }
        _ => false,
    }
}

/// go-yaml's type error text: ``cannot construct !!str `abc` into int`` (rc.3: ``cannot
/// unmarshal ...``; values over 10 bytes are cut to 7 plus `...`; collections show no value).
pub(crate) fn type_error_in(node: &Node, go_type: &str, dialect: crate::yaml::Dialect) -> String {
    let verb = match dialect {
        crate::yaml::Dialect::V4Rc3 => "unmarshal",
        _ => "construct",
    };
    let tag = node_tag(node);
    let value = match &node.value {
        NodeValue::Scalar(s) => {
            if s.text.len() > 10 {
                let mut cut = 7;
                while !s.text.is_char_boundary(cut) {
                    cut -= 1;
                }
                format!(" `{}...`", &s.text[..cut])
            } else {
                format!(" `{}`", s.text)
            }
        }
        _ => String::new(),
    };
    format!("cannot {verb} {tag}{value} into {go_type}")
}

/// go-yaml's first check for a `TextUnmarshaler` (see [`super::Value::text_unmarshaler`]):
/// records the error and returns true when `node` is a mapping or sequence.
///
/// go-yaml rc.3 has no such check: the mapping or sequence decodes into the Go type's own kind.
/// A sequence and a mapping into an integer kind fail there with the plain type error (a
/// pointer field's `*` not printed), which is what is recorded for rc.3 (KNOWN_GAPS: a mapping
/// into a struct kind is taken field by field instead).
pub fn text_unmarshaler_refuses(cx: &mut DecodeCx, node: &Node, go_type: &str) -> bool {
    if matches!(node.value, NodeValue::Scalar(_)) {
        return false;
    }
    let release = cx.release;
    let go_type = release.go_type_name(go_type);
    let go_type = go_type.as_ref();
    if cx.release.yaml() == crate::yaml::Dialect::V4Rc3 {
        let msg = type_error_in(node, go_type.trim_start_matches('*'), crate::yaml::Dialect::V4Rc3);
        cx.error(node, msg);
        return true;
    }
    let msg = format!("cannot construct {} into {go_type} (TextUnmarshaler)", node_tag(node));
    cx.error(node, msg);
    true
}

/// Records [`type_error_in`] for `node` in `cx`.
pub fn construct_error(cx: &mut DecodeCx, node: &Node, go_type: &str) {
    let msg = type_error_in(node, &cx.release.go_type_name(go_type), cx.release.yaml());
    cx.error(node, msg);
    // A mapping or sequence decoded into a scalar type: go-yaml looks no further into it.
    if !matches!(node.value, NodeValue::Scalar(_)) {
        cx.undecoded(node);
    }
}

use crate::gofmt::quote as go_quote;

/// Explicit tags go-yaml resolves a scalar against (`resolvableTag`), besides `!!str`.
pub(crate) fn is_resolvable_tag(tag: &str) -> bool {
    matches!(tag, "!!bool" | "!!int" | "!!float" | "!!null" | "!!timestamp")
}

/// go-yaml's check of explicitly tagged scalars, which aborts decoding at the first one (in
/// document order) whose text resolves to another type: `cannot construct !!str `yes` as a
/// !!bool`. An `!!int` text passes as a `!!float`. Only scalars go-yaml decodes are checked:
/// not under `undecoded` nodes (from the typed decoding's [`DecodeCx`]).
pub fn explicit_tag_error(
    root: &Node,
    unknown: Option<&Node>,
    undecoded: &std::collections::HashSet<usize>,
    dialect: crate::yaml::Dialect,
) -> Option<(String, crate::yaml::Mark)> {
    // go-yaml never decodes the value of a key its struct does not have: a tag there is not
    // checked (the unknown key is reported afterwards instead).
    let mut skipped = undecoded.clone();
    if let Some(summary) = unknown {
        unknown_values(summary, &mut skipped);
    }
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        if node.mark != crate::yaml::Mark::default() && skipped.contains(&node.mark.offset) {
            continue;
        }
        match &node.value {
            NodeValue::Scalar(_) => {
                if let Some(message) = tag_error_in(node, dialect) {
                    return Some((message, node.mark));
                }
            }
            NodeValue::Sequence(items, _) => pending.extend(items.iter().rev()),
            NodeValue::Mapping(entries, _) => {
                for (k, v) in entries.iter().rev() {
                    pending.push(v);
                    pending.push(k);
                }
            }
        }
    }
    None
}

/// go-yaml's failure for a scalar whose explicit tag its text does not resolve to, if it is one.
pub(crate) fn tag_error(node: &Node) -> Option<String> {
    tag_error_in(node, crate::yaml::Dialect::default())
}

/// [`tag_error`] in `dialect`'s words (rc.3: ``cannot decode !!str `yes` as a !!bool``).
fn tag_error_in(node: &Node, dialect: crate::yaml::Dialect) -> Option<String> {
    let verb = match dialect {
        crate::yaml::Dialect::V4Rc3 => "decode",
        _ => "construct",
    };
    let NodeValue::Scalar(s) = &node.value else { return None };
    let tag = node.tag.as_deref().filter(|t| is_resolvable_tag(t))?;
    let resolved = match resolve_v4(&s.text) {
        Resolved::Null => "!!null",
        Resolved::Bool(_) => "!!bool",
        Resolved::Int(_) => "!!int",
        Resolved::Float(_) => "!!float",
        // A timestamp is only tried without a tag or with `!!timestamp`.
        Resolved::Timestamp(_) if tag == "!!timestamp" => "!!timestamp",
        Resolved::Timestamp(_) | Resolved::Str => "!!str",
    };
    let passes = resolved == tag || (tag == "!!float" && resolved == "!!int");
    (!passes).then(|| format!("cannot {verb} {resolved} `{}` as a {tag}", s.text))
}

/// The positions of the original values in an unknown-keys summary: its containers are built
/// (no position), its leaves are the leftover nodes themselves.
fn unknown_values(summary: &Node, out: &mut std::collections::HashSet<usize>) {
    let mut pending = vec![summary];
    while let Some(node) = pending.pop() {
        match &node.value {
            NodeValue::Mapping(entries, _) if node.mark == crate::yaml::Mark::default() => {
                for (_, v) in entries {
                    if v.mark == crate::yaml::Mark::default() {
                        pending.push(v);
                    } else {
                        out.insert(v.mark.offset);
                    }
                }
            }
            NodeValue::Sequence(items, _) if node.mark == crate::yaml::Mark::default() => pending.extend(items),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_is_standard_base64_skipping_line_breaks_only() {
        assert_eq!(decode_binary("aGVs\nbG8=").unwrap(), b"hello");
        assert_eq!(decode_binary("aGVs bG8=").unwrap_err(), BINARY_ERROR);
    }
}
