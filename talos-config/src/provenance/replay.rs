//! The replay behind [`Provenance::trace`](super::Provenance::trace): each input's YAML tree
//! merged into a tree of sites with the merge rules of `spec/merge.md` §7 and §8.

use std::collections::HashMap;
use std::sync::Arc;

use talos_yaml::node::deep;
use talos_yaml::parse::parse_documents;
use talos_yaml::{Mark, Node, NodeValue};

use super::{Deletion, FieldPath, Leaf, Located, Provenance, Segment, Site};
use crate::{DocumentId, PatchSource};

/// Lists a strategic patch replaces instead of appending to (`merge:"replace"`, §8.1), as
/// `<kind>:<keys with [] for items>`.
const REPLACED: [&str; 5] = [
    "v1alpha1:cluster.network.podSubnets",
    "v1alpha1:cluster.network.serviceSubnets",
    "v1alpha1:cluster.apiServer.auditPolicy",
    "NetworkRuleConfig:ingress",
    "NetworkRuleConfig:portSelector.ports",
];

/// Lists whose items are matched by a key and merged (§8.2): the list's shape and the key.
const KEYED: [(&str, &str); 5] = [
    ("v1alpha1:machine.network.interfaces", "interface"),
    ("v1alpha1:machine.network.interfaces[].vlans", "vlanId"),
    ("v1alpha1:cluster.apiServer.admissionControl", "name"),
    ("ExtensionServiceConfig:configFiles", "mountPath"),
    ("ImageVerificationConfig:rules", "image"),
];

/// One document's tree.
#[derive(Clone, Debug)]
pub(super) struct Doc {
    pub(super) key: DocumentId,
    root: Value,
}

#[derive(Debug)]
struct Value {
    site: Site,
    replaced: Vec<Site>,
    body: Body,
}

#[derive(Debug)]
enum Body {
    Scalar(String),
    Map(Vec<(String, Value)>),
    List(Vec<Value>),
}

impl Clone for Value {
    /// Copies a value level by level through [`deep`] (a JSON6902 `copy` may copy a deep tree).
    fn clone(&self) -> Value {
        deep(|| Value {
            site: self.site.clone(),
            replaced: self.replaced.clone(),
            body: match &self.body {
                Body::Scalar(text) => Body::Scalar(text.clone()),
                Body::Map(entries) => Body::Map(entries.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
                Body::List(items) => Body::List(items.to_vec()),
            },
        })
    }
}

impl Drop for Value {
    /// Frees deep trees without deep recursion (inputs may nest 10,000 levels).
    fn drop(&mut self) {
        let mut pending = Vec::new();
        take_children(&mut self.body, &mut pending);
        while let Some(mut v) = pending.pop() {
            take_children(&mut v.body, &mut pending);
        }
    }
}

fn take_children(body: &mut Body, pending: &mut Vec<Value>) {
    match std::mem::replace(body, Body::Scalar(String::new())) {
        Body::Scalar(_) => {}
        Body::Map(entries) => pending.extend(entries.into_iter().map(|(_, v)| v)),
        Body::List(items) => pending.extend(items),
    }
}

/// Where the replay is, as a chain of stack frames: going one level deeper costs nothing, so
/// deep inputs do not cost memory by the square of their depth.
enum Trail<'p> {
    Root,
    Key(&'p Trail<'p>, &'p str, usize),
    Index(&'p Trail<'p>, usize, usize),
}

/// The deepest path [`REPLACED`] or [`KEYED`] names has 4 steps.
const SHAPE_DEPTH: usize = 6;

impl<'p> Trail<'p> {
    fn depth(&self) -> usize {
        match self {
            Trail::Root => 0,
            Trail::Key(_, _, d) | Trail::Index(_, _, d) => *d,
        }
    }

    fn key(&'p self, key: &'p str) -> Trail<'p> {
        Trail::Key(self, key, self.depth() + 1)
    }

    fn index(&'p self, i: usize) -> Trail<'p> {
        Trail::Index(self, i, self.depth() + 1)
    }

    fn to_path(&self) -> FieldPath {
        let mut steps = Vec::with_capacity(self.depth());
        let mut here = self;
        loop {
            match here {
                Trail::Root => break,
                Trail::Key(up, k, _) => {
                    steps.push(Segment::Key((*k).to_string()));
                    here = up;
                }
                Trail::Index(up, i, _) => {
                    steps.push(Segment::Index(*i));
                    here = up;
                }
            }
        }
        steps.reverse();
        steps.into_iter().fold(FieldPath::root(), |p, s| match s {
            Segment::Key(k) => p.key(k),
            Segment::Index(i) => p.index(i),
        })
    }

    /// Whether a key on the way is `extraArgs` (where an empty string replaces).
    fn in_extra_args(&self) -> bool {
        let mut here = self;
        loop {
            match here {
                Trail::Root => return false,
                Trail::Key(_, "extraArgs", _) => return true,
                Trail::Key(up, _, _) | Trail::Index(up, _, _) => here = up,
            }
        }
    }
}

/// What one input's replay needs to know.
struct Input<'a> {
    name: Arc<str>,
    document: DocumentId,
    kind: String,
    deletions: &'a mut Vec<Deletion>,
}

impl Input<'_> {
    fn site(&self, mark: Mark) -> Site {
        Site { input: self.name.clone(), line: mark.line, column: mark.column }
    }

    /// `<kind>:<path>` with indices as `[]`, the form of [`REPLACED`] and [`KEYED`]; `None`
    /// deeper than any of them.
    fn shape(&self, trail: &Trail<'_>) -> Option<String> {
        if trail.depth() > SHAPE_DEPTH {
            return None;
        }
        Some(format!("{}:{}", self.kind, trail.to_path().shape()))
    }

    fn build(&self, node: &Node, site: Site) -> Value {
        deep(|| {
            let body = match &node.value {
                NodeValue::Scalar(s) => Body::Scalar(s.text.clone()),
                NodeValue::Sequence(items, _) => {
                    Body::List(items.iter().map(|item| self.build(item, self.site(item.mark))).collect())
                }
                NodeValue::Mapping(entries, _) => Body::Map(
                    entries
                        .iter()
                        .filter(|(_, v)| !is_null(v))
                        .filter_map(|(k, v)| Some((key_text(k)?, self.build(v, self.site(k.mark)))))
                        .collect(),
                ),
            };
            Value { site, replaced: Vec::new(), body }
        })
    }

    fn merge_map(&mut self, left: &mut Vec<(String, Value)>, right: &[(Node, Node)], trail: &Trail<'_>) {
        // Keys are looked up through an index: maps of many thousand keys merge in linear time.
        let mut index: HashMap<String, usize> = left.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect();
        for (k, v) in right {
            let Some(key) = key_text(k) else { continue };
            if key == "$patch" {
                continue;
            }
            let site = self.site(k.mark);
            let here = trail.key(&key);
            let pos = index.get(&key).copied();
            if is_delete(v) {
                if let Some(pos) = pos {
                    let (_, removed) = left.remove(pos);
                    self.deleted(here.to_path(), site, removed.site.clone());
                    index = left.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect();
                }
                continue;
            }
            match pos {
                Some(pos) => self.merge_value(&mut left[pos].1, v, site, &here),
                None if is_null(v) => {}
                None => {
                    index.insert(key.clone(), left.len());
                    left.push((key.clone(), self.build(v, site)));
                }
            }
        }
    }

    fn merge_value(&mut self, left: &mut Value, right: &Node, site: Site, trail: &Trail<'_>) {
        deep(|| match (&mut left.body, &right.value) {
            (_, NodeValue::Scalar(_)) if is_null(right) => {}
            (_, NodeValue::Scalar(s)) if s.text.is_empty() && !trail.in_extra_args() => {}
            // A merged map or list keeps the site where it was first set: its values carry their own.
            (Body::Map(entries), NodeValue::Mapping(right_entries, _)) if !self.replaces(trail) => {
                self.merge_map(entries, right_entries, trail);
            }
            (Body::List(items), NodeValue::Sequence(right_items, _)) if !self.replaces(trail) => {
                self.merge_list(items, right_items, trail);
            }
            _ => {
                let mut new = self.build(right, site);
                new.replaced = std::mem::take(&mut left.replaced);
                new.replaced.push(left.site.clone());
                *left = new;
            }
        })
    }

    fn replaces(&self, trail: &Trail<'_>) -> bool {
        self.shape(trail).is_some_and(|s| REPLACED.contains(&s.as_str()))
    }

    fn merge_list(&mut self, left: &mut Vec<Value>, right: &[Node], trail: &Trail<'_>) {
        let shape = self.shape(trail);
        let key = KEYED.iter().find(|(s, _)| Some(*s) == shape.as_deref()).map(|(_, k)| *k);
        for item in right {
            let site = self.site(item.mark);
            if is_delete(item) {
                self.delete_item(left, item, site, trail);
                continue;
            }
            let wanted = key.and_then(|k| Some((k, item.get(k)?.as_scalar()?.text.as_str())));
            let matched = wanted.and_then(|(k, text)| left.iter().position(|l| l.entry_text(k) == Some(text)));
            match matched {
                Some(pos) => {
                    let here = trail.index(pos);
                    self.merge_value(&mut left[pos], item, site, &here);
                }
                None => left.push(self.build(item, site)),
            }
        }
    }

    /// A list item holding `$patch: delete` removes the first element whose field (the item's
    /// first other key) has the item's value (`spec/merge.md` §5.1, §5.3).
    fn delete_item(&mut self, left: &mut Vec<Value>, item: &Node, site: Site, trail: &Trail<'_>) {
        let Some(entries) = item.as_mapping() else { return };
        let selector = entries
            .iter()
            .filter_map(|(k, v)| Some((key_text(k)?, v.as_scalar()?.text.clone())))
            .find(|(k, _)| k != "$patch");
        let Some((field, value)) = selector else { return };
        if let Some(pos) = left.iter().position(|l| l.entry_text(&field) == Some(value.as_str())) {
            let removed = left.remove(pos);
            self.deleted(trail.index(pos).to_path(), site, removed.site.clone());
        }
    }

    fn deleted(&mut self, path: FieldPath, site: Site, removed: Site) {
        self.deletions.push(Deletion { document: self.document.clone(), path, site, removed });
    }
}

impl Value {
    /// The text of a mapping's scalar entry `key` (a keyed list item's key).
    fn entry_text(&self, key: &str) -> Option<&str> {
        let Body::Map(entries) = &self.body else { return None };
        entries.iter().find(|(k, _)| k == key).and_then(|(_, v)| match &v.body {
            Body::Scalar(text) => Some(text.as_str()),
            _ => None,
        })
    }

    fn child(&self, segment: &Segment) -> Option<&Value> {
        match (&self.body, segment) {
            (Body::Map(entries), Segment::Key(k)) => entries.iter().find(|(ek, _)| ek == k).map(|(_, v)| v),
            (Body::List(items), Segment::Index(i)) => items.get(*i),
            _ => None,
        }
    }

    fn child_mut(&mut self, segment: &Segment) -> Option<&mut Value> {
        match (&mut self.body, segment) {
            (Body::Map(entries), Segment::Key(k)) => entries.iter_mut().find(|(ek, _)| ek == k).map(|(_, v)| v),
            (Body::List(items), Segment::Index(i)) => items.get_mut(*i),
            _ => None,
        }
    }

    /// Collects the leaves under this value; `path` is the way here, kept as one stack.
    fn leaves(&self, document: &DocumentId, path: &mut Vec<Segment>, out: &mut Vec<Leaf>) {
        let leaf = |path: &[Segment]| Leaf {
            document: document.clone(),
            path: FieldPath::from_segments(path.to_vec()),
            site: self.site.clone(),
            replaced: self.replaced.clone(),
        };
        deep(|| match &self.body {
            Body::Scalar(_) => out.push(leaf(path)),
            Body::Map(entries) if entries.is_empty() => out.push(leaf(path)),
            Body::List(items) if items.is_empty() => out.push(leaf(path)),
            Body::Map(entries) => {
                for (k, v) in entries {
                    path.push(Segment::Key(k.clone()));
                    v.leaves(document, path, out);
                    path.pop();
                }
            }
            Body::List(items) => {
                for (i, v) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    v.leaves(document, path, out);
                    path.pop();
                }
            }
        })
    }
}

impl Doc {
    pub(super) fn locate(&self, path: &FieldPath) -> Located {
        let mut here = &self.root;
        let mut found = FieldPath::root();
        for s in path.segments() {
            match here.child(s) {
                Some(next) => {
                    here = next;
                    found = match s {
                        Segment::Key(k) => found.key(k.as_str()),
                        Segment::Index(i) => found.index(*i),
                    };
                }
                None => break,
            }
        }
        let exact = found == *path;
        Located { site: here.site.clone(), path: found, exact }
    }

    pub(super) fn exact(&self, path: &FieldPath) -> Option<(Site, Vec<Site>)> {
        let value = value_at(&self.root, path)?;
        Some((value.site.clone(), value.replaced.clone()))
    }

    pub(super) fn leaves(&self, out: &mut Vec<Leaf>) {
        self.root.leaves(&self.key, &mut Vec::new(), out);
    }
}

/// Replays one input into `out`.
pub(super) fn apply(out: &mut Provenance, source: &PatchSource, is_patch: bool) {
    let Ok(roots) = parse_documents(&source.bytes) else { return };
    let name: Arc<str> = Arc::from(source.name.as_str());
    for root in &roots {
        match &root.value {
            NodeValue::Sequence(ops, _) if is_patch => json6902(out, &name, ops),
            NodeValue::Mapping(entries, _) => document(out, &name, root, entries),
            NodeValue::Scalar(_) | NodeValue::Sequence(..) => {}
        }
    }
}

/// The document's identity, and its kind.
pub(super) fn document_key(root: &Node) -> (DocumentId, String) {
    let text = |k: &str| root.get(k).and_then(Node::as_scalar).map(|s| s.text.clone());
    match text("kind") {
        Some(kind) => (DocumentId::new(kind.as_str(), text("name").as_deref()), kind),
        // A patch for the legacy document need not repeat `version`.
        None => (DocumentId::legacy(), "v1alpha1".to_string()),
    }
}

fn document(out: &mut Provenance, name: &Arc<str>, root: &Node, entries: &[(Node, Node)]) {
    let (key, kind) = document_key(root);
    let Provenance { docs, deletions } = out;
    let mut input = Input { name: name.clone(), document: key.clone(), kind, deletions };
    let site = input.site(root.mark);
    let existing = docs.iter().rposition(|d| d.key == key);
    if is_delete(root) {
        if let Some(pos) = existing {
            let removed = docs.remove(pos);
            input.deleted(FieldPath::root(), site, removed.root.site.clone());
        }
        return;
    }
    match existing {
        Some(pos) => {
            let Body::Map(left) = &mut docs[pos].root.body else { return };
            input.merge_map(left, entries, &Trail::Root);
        }
        None => {
            let root = input.build(root, site);
            docs.push(Doc { key, root });
        }
    }
}

/// A JSON6902 patch: each operation sets or removes what its `path` names in the legacy
/// document (JSON6902 patches apply to single-document configs).
fn json6902(out: &mut Provenance, name: &Arc<str>, ops: &[Node]) {
    let Some(pos) = out.docs.iter().position(|d| d.key.is_legacy()) else { return };
    let Provenance { docs, deletions } = out;
    let mut input = Input { name: name.clone(), document: DocumentId::legacy(), kind: "v1alpha1".into(), deletions };
    let root = &mut docs[pos].root;
    for op in ops {
        let text = |k: &str| op.get(k).and_then(Node::as_scalar).map(|s| s.text.as_str());
        let (Some(verb), Some(pointer)) = (text("op"), text("path")) else { continue };
        let site = input.site(op.mark);
        let path = pointer_path(root, pointer);
        match verb {
            "add" | "replace" => {
                if let Some(value) = op.get("value") {
                    let new = input.build(value, site);
                    set_at(root, &path, new, verb == "replace");
                }
            }
            "remove" => {
                if let Some(removed) = remove_at(root, &path) {
                    input.deleted(path, site, removed.site.clone());
                }
            }
            "copy" | "move" => {
                let Some(from) = text("from").map(|f| pointer_path(root, f)) else { continue };
                let moved = if verb == "move" { remove_at(root, &from) } else { value_at(root, &from).cloned() };
                if let Some(mut v) = moved {
                    v.site = site;
                    // After a move's removal the target is read again (`-` is one item less).
                    let target = if verb == "move" { pointer_path(root, pointer) } else { path };
                    set_at(root, &target, v, false);
                }
            }
            _ => {}
        }
    }
}

/// A JSON Pointer read against the tree: a segment is an index where the value there is a
/// list (`-` is one past the end).
fn pointer_path(root: &Value, pointer: &str) -> FieldPath {
    let mut path = FieldPath::root();
    let mut here = Some(root);
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        let segment = match here.map(|v| &v.body) {
            Some(Body::List(items)) if token == "-" => Segment::Index(items.len()),
            Some(Body::List(_)) => match token.parse() {
                Ok(i) => Segment::Index(i),
                Err(_) => Segment::Key(token),
            },
            _ => Segment::Key(token),
        };
        here = here.and_then(|v| v.child(&segment));
        path = match segment {
            Segment::Key(k) => path.key(k),
            Segment::Index(i) => path.index(i),
        };
    }
    path
}

fn parent_mut<'a, 'p>(root: &'a mut Value, path: &'p FieldPath) -> Option<(&'a mut Value, &'p Segment)> {
    let (last, init) = path.segments().split_last()?;
    let mut here = root;
    for s in init {
        here = here.child_mut(s)?;
    }
    Some((here, last))
}

fn value_at<'a>(root: &'a Value, path: &FieldPath) -> Option<&'a Value> {
    path.segments().iter().try_fold(root, |v, s| v.child(s))
}

/// JSON6902 `add` (into a list: insert) or `replace` (a list item is replaced).
fn set_at(root: &mut Value, path: &FieldPath, mut new: Value, replace: bool) {
    let Some((parent, last)) = parent_mut(root, path) else { return };
    match (&mut parent.body, last) {
        (Body::Map(entries), Segment::Key(k)) => match entries.iter_mut().find(|(ek, _)| ek == k) {
            Some((_, old)) => {
                new.replaced = std::mem::take(&mut old.replaced);
                new.replaced.push(old.site.clone());
                *old = new;
            }
            None => entries.push((k.clone(), new)),
        },
        (Body::List(items), Segment::Index(i)) if replace && *i < items.len() => {
            let old = &mut items[*i];
            new.replaced = std::mem::take(&mut old.replaced);
            new.replaced.push(old.site.clone());
            *old = new;
        }
        (Body::List(items), Segment::Index(i)) if *i <= items.len() => items.insert(*i, new),
        _ => {}
    }
}

fn remove_at(root: &mut Value, path: &FieldPath) -> Option<Value> {
    let (parent, last) = parent_mut(root, path)?;
    match (&mut parent.body, last) {
        (Body::Map(entries), Segment::Key(k)) => {
            let pos = entries.iter().position(|(ek, _)| ek == k)?;
            Some(entries.remove(pos).1)
        }
        (Body::List(items), Segment::Index(i)) if *i < items.len() => Some(items.remove(*i)),
        _ => None,
    }
}

fn key_text(node: &Node) -> Option<String> {
    node.as_scalar().map(|s| s.text.clone())
}

fn is_null(node: &Node) -> bool {
    node.tag.is_none()
        && node.as_scalar().is_some_and(|s| {
            s.style == talos_yaml::ScalarStyle::Plain && matches!(s.text.as_str(), "" | "~" | "null" | "Null" | "NULL")
        })
}

/// A mapping holding `$patch: delete`.
fn is_delete(node: &Node) -> bool {
    node.get("$patch").and_then(Node::as_scalar).is_some_and(|s| s.text == "delete")
}
