//! One item of Talos's error tree, and go-multierror's list format.

use crate::document::DocumentId;

/// How an issue prints.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    /// Just its message.
    Leaf,
    /// `<message>: <go-multierror list of children>`.
    List,
    /// `<message>: <children joined with \n>` (Go `errors.Join`).
    Joined,
}

/// A leaf of the tree: its document (`None` for the v1alpha1 document), path and message.
pub(crate) type Leaf<'a> = (Option<&'a DocumentId>, Option<&'a str>, &'a str);

/// One error item: a leaf message, or a prefix with nested items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The leaf text, or the prefix of a nested item.
    pub message: String,
    /// The YAML path of the field the issue is about (`machine.nodeLabels`), when known.
    pub path: Option<String>,
    /// Nested items.
    pub children: Vec<Issue>,
    shape: Shape,
    /// The new-style document the issue is about (`None` for the v1alpha1 document).
    document: Option<Box<DocumentId>>,
}

impl Issue {
    /// A leaf.
    pub fn new(message: impl Into<String>, path: Option<&str>) -> Issue {
        Issue {
            message: message.into(),
            path: path.map(str::to_string),
            children: Vec::new(),
            shape: Shape::Leaf,
            document: None,
        }
    }

    /// `prefix: <multierror of children>` (e.g. `invalid machine node labels: ...`).
    pub fn list(prefix: impl Into<String>, path: Option<&str>, children: Vec<Issue>) -> Issue {
        Issue { message: prefix.into(), path: path.map(str::to_string), children, shape: Shape::List, document: None }
    }

    /// `prefix: <children joined with \n>` (a new-style document's `errors.Join`).
    pub fn joined(prefix: impl Into<String>, children: Vec<Issue>) -> Issue {
        Issue { message: prefix.into(), path: None, children, shape: Shape::Joined, document: None }
    }

    /// Marks this issue (and its children) as about `document`, for issues of a new-style
    /// document, whose paths are relative to that document.
    pub(crate) fn in_document(&mut self, document: &DocumentId) {
        self.document = Some(Box::new(document.clone()));
        for c in &mut self.children {
            c.in_document(document);
        }
    }

    /// The leaves: each one's document (`None` for the v1alpha1 document), path (a leaf
    /// without one inherits its parent's) and message, in order.
    pub(crate) fn leaves<'a>(&'a self, out: &mut Vec<Leaf<'a>>) {
        self.leaves_under(None, out);
    }

    fn leaves_under<'a>(&'a self, parent: Option<&'a str>, out: &mut Vec<Leaf<'a>>) {
        let path = self.path.as_deref().or(parent);
        if self.children.is_empty() {
            out.push((self.document.as_deref(), path, &self.message));
        }
        for c in &self.children {
            c.leaves_under(path, out);
        }
    }
}

impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.shape {
            Shape::Leaf => f.write_str(&self.message),
            Shape::List => write!(f, "{}: {}", self.message, render_list(&self.children)),
            Shape::Joined => {
                let parts: Vec<String> = self.children.iter().map(ToString::to_string).collect();
                write!(f, "{}: {}", self.message, parts.join("\n"))
            }
        }
    }
}

/// go-multierror v1.1.1's `ListFormatFunc`: `1 error occurred:\n\t* a\n\n`,
/// `2 errors occurred:\n\t* a\n\t* b\n\n`.
pub fn render_list(items: &[Issue]) -> String {
    let points: Vec<String> = items.iter().map(|i| format!("* {i}")).collect();
    if items.len() == 1 {
        return format!("1 error occurred:\n\t{}\n\n", points[0]);
    }
    format!("{} errors occurred:\n\t{}\n\n", items.len(), points.join("\n\t"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_like_go_multierror() {
        assert_eq!(render_list(&[Issue::new("a", None)]), "1 error occurred:\n\t* a\n\n");
        assert_eq!(
            render_list(&[Issue::new("a", None), Issue::new("b", None)]),
            "2 errors occurred:\n\t* a\n\t* b\n\n"
        );
    }
}
