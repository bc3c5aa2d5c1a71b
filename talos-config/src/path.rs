//! Field paths: where a value sits inside one document (`machine.kubelet.extraArgs.max-pod`).

use std::fmt;

/// One step of a [`FieldPath`]: a mapping key or a list index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    /// A mapping key, as written in YAML.
    Key(String),
    /// A 0-based list index.
    Index(usize),
}

/// The path of a value inside one document, printed the way validation paths read:
/// keys joined by `.`, list indices as `[0]`, and keys that contain `.`, `[`, `]`, `"`, a space
/// or nothing at all as `["lab.talos.dev/team name"]`.
///
/// ```
/// use talos_config::FieldPath;
///
/// let path = FieldPath::parse(r#"machine.nodeLabels["lab.talos.dev/team name"]"#);
/// assert_eq!(path.to_string(), r#"machine.nodeLabels["lab.talos.dev/team name"]"#);
/// assert_eq!(FieldPath::parse("cluster.network.podSubnets[1]").to_string(), "cluster.network.podSubnets[1]");
/// assert_eq!(FieldPath::root().key("machine").key("token").to_string(), "machine.token");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldPath(Vec<Segment>);

impl FieldPath {
    /// A path from its steps.
    pub(crate) fn from_segments(segments: Vec<Segment>) -> FieldPath {
        FieldPath(segments)
    }

    /// The document itself.
    pub fn root() -> FieldPath {
        FieldPath(Vec::new())
    }

    /// This path, one key deeper.
    pub fn key(&self, key: impl Into<String>) -> FieldPath {
        let mut out = self.clone();
        out.0.push(Segment::Key(key.into()));
        out
    }

    /// This path, one list item deeper.
    pub fn index(&self, index: usize) -> FieldPath {
        let mut out = self.clone();
        out.0.push(Segment::Index(index));
        out
    }

    /// The enclosing path; `None` for the root.
    pub fn parent(&self) -> Option<FieldPath> {
        let (_, init) = self.0.split_last()?;
        Some(FieldPath(init.to_vec()))
    }

    /// The keys joined by `.`, every index written `[]` (`machine.network.interfaces[].vlans`):
    /// the form tables of list rules use.
    pub(crate) fn shape(&self) -> String {
        let mut out = String::new();
        for s in &self.0 {
            match s {
                Segment::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Segment::Index(_) => out.push_str("[]"),
            }
        }
        out
    }

    /// The steps, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// Whether `self` is `other` or lies inside it.
    pub fn starts_with(&self, other: &FieldPath) -> bool {
        self.0.starts_with(&other.0)
    }

    /// Reads a path in the form [`Display`](fmt::Display) prints. Never fails: text that is not
    /// in that form is read as well as it can be (an unclosed `["` takes the rest as the key).
    pub fn parse(text: &str) -> FieldPath {
        let mut segments = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("[\"") {
                let (key, tail) = read_quoted(after);
                segments.push(Segment::Key(key));
                rest = tail.strip_prefix(']').unwrap_or(tail);
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']').unwrap_or(after.len());
                match after[..end].parse() {
                    Ok(i) => segments.push(Segment::Index(i)),
                    Err(_) => segments.push(Segment::Key(after[..end].to_string())),
                }
                rest = after.get(end + 1..).unwrap_or("");
            } else if let Some(after) = rest.strip_prefix('.') {
                rest = after;
            } else {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                segments.push(Segment::Key(rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
        FieldPath(segments)
    }

    /// The JSON Pointer (RFC 6901) of this path, as JSON6902 patches write it.
    ///
    /// ```
    /// use talos_config::FieldPath;
    /// assert_eq!(FieldPath::parse(r#"machine.nodeLabels["a/b"]"#).to_json_pointer(), "/machine/nodeLabels/a~1b");
    /// ```
    pub fn to_json_pointer(&self) -> String {
        let mut out = String::new();
        for s in &self.0 {
            out.push('/');
            match s {
                Segment::Key(k) => out.push_str(&k.replace('~', "~0").replace('/', "~1")),
                Segment::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }
}

/// Reads a Go-quoted key up to its closing `"`: the key and what follows the quote.
fn read_quoted(text: &str) -> (String, &str) {
    let mut key = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (key, &text[i + 1..]),
            '\\' => match chars.next() {
                Some((_, 'n')) => key.push('\n'),
                Some((_, 't')) => key.push('\t'),
                Some((_, other)) => key.push(other),
                None => {}
            },
            other => key.push(other),
        }
    }
    (key, "")
}

/// Whether a key prints bare: no characters the path syntax uses, no spaces, not empty.
fn is_bare(key: &str) -> bool {
    !key.is_empty() && !key.chars().any(|c| matches!(c, '.' | '[' | ']' | '"' | '\\') || c.is_whitespace())
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Segment::Key(k) if is_bare(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Segment::Key(k) => {
                    let escaped =
                        k.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n").replace('\t', "\\t");
                    write!(f, "[\"{escaped}\"]")?;
                }
                Segment::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_awkward_keys() {
        for key in ["a.b", "team name", "q\"uote", "back\\slash", "", "new\nline", "[x]"] {
            let path = FieldPath::root().key("machine").key(key).index(3);
            assert_eq!(FieldPath::parse(&path.to_string()), path, "{path}");
        }
    }

    #[test]
    fn reads_validation_paths() {
        let path = FieldPath::parse("machine.logging.destinations[0].endpoint");
        assert_eq!(
            path.segments(),
            [
                Segment::Key("machine".into()),
                Segment::Key("logging".into()),
                Segment::Key("destinations".into()),
                Segment::Index(0),
                Segment::Key("endpoint".into())
            ]
        );
        assert_eq!(FieldPath::parse("").segments(), []);
    }
}
