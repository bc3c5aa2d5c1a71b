//! JSON Schema (draft 2020-12) of every document kind, generated from the typed model: what
//! `labctl schema` writes for yaml-language-server and `check-jsonschema`.
//!
//! The schema follows how Talos decodes, not only the Go types: a string field takes any
//! scalar (go-yaml decodes a number or a boolean into a string), a `null` is accepted wherever
//! go-yaml leaves the zero value, unknown keys are refused where Talos decodes strictly, enum
//! names match in any letter case (as Talos's enum parsing does). The patch flavour also allows
//! `$patch: delete` in every mapping.
//!
//! ```
//! use talos_config::schema::{Flavour, kind_schema};
//! let schema = kind_schema("HostnameConfig", Flavour::Config).unwrap();
//! assert!(schema.contains("\"hostname\""));
//! assert!(kind_schema("NoSuchKind", Flavour::Config).is_none());
//! ```

mod json;

pub use json::Json;

/// Which documents a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Flavour {
    /// A machine config as a node loads it.
    Config,
    /// A patch: the same fields, plus `$patch: delete` in every mapping.
    Patch,
}

/// What building a schema needs to know.
#[derive(Debug)]
pub struct SchemaCx {
    flavour: Flavour,
}

impl SchemaCx {
    pub(crate) fn new(flavour: Flavour) -> SchemaCx {
        SchemaCx { flavour }
    }

    /// The schema of a struct: its properties, no others (Talos decodes strictly), `null` also
    /// allowed (go-yaml leaves the zero value).
    pub fn object(&self, mut properties: Vec<(String, Json)>) -> Json {
        if self.flavour == Flavour::Patch {
            properties.push(("$patch".into(), Json::obj([("const", Json::str("delete"))])));
        }
        Json::obj([
            ("type", Json::arr([Json::str("object"), Json::str("null")])),
            ("properties", Json::Obj(properties)),
            ("additionalProperties", Json::Bool(false)),
        ])
    }
}

/// `schema` with a `description` (none when `doc` is empty).
pub fn described(schema: Json, doc: &str) -> Json {
    if doc.is_empty() { schema } else { schema.merged(Json::obj([("description", Json::str(doc))])) }
}

/// Any value.
pub(crate) fn any() -> Json {
    Json::obj::<&str>([])
}

/// One of the given JSON types, `null` included.
pub(crate) fn types(names: &[&str]) -> Json {
    let mut list: Vec<Json> = names.iter().map(|n| Json::str(*n)).collect();
    list.push(Json::str("null"));
    Json::obj([("type", Json::Arr(list))])
}

/// A scalar of any type: what go-yaml decodes into a Go string.
pub(crate) fn scalar() -> Json {
    types(&["string", "number", "boolean"])
}

/// A Go duration (`time.ParseDuration`: `1h30m`, `-1.5s`, `0`), or the integer zero, which
/// go-yaml takes as a zero duration.
pub(crate) fn duration() -> Json {
    let unit = r"((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))";
    Json::obj([
        ("type", Json::arr([Json::str("string"), Json::str("integer"), Json::str("null")])),
        ("pattern", Json::str(format!("^([-+]?{unit}+|[-+]?0)$"))),
        ("minimum", Json::Int(0)),
        ("maximum", Json::Int(0)),
    ])
}

/// A scalar, or a list of scalars.
pub(crate) fn scalar_or_list() -> Json {
    Json::obj([("anyOf", Json::arr([scalar(), array_of(scalar())]))])
}

/// A list of `items` (or `null`).
pub(crate) fn array_of(items: Json) -> Json {
    Json::obj([("type", Json::arr([Json::str("array"), Json::str("null")])), ("items", items)])
}

/// A mapping of string keys to `values` (or `null`).
pub(crate) fn map_of(values: Json) -> Json {
    Json::obj([("type", Json::arr([Json::str("object"), Json::str("null")])), ("additionalProperties", values)])
}

/// Names matched in any letter case, as Talos's enum parsing matches them.
pub(crate) fn enum_names(names: &[&str]) -> Json {
    let alternatives: Vec<String> = names.iter().map(|n| case_insensitive(n)).collect();
    Json::obj([
        ("type", Json::arr([Json::str("string"), Json::str("null")])),
        ("pattern", Json::str(format!("^({})$", alternatives.join("|")))),
    ])
}

/// A regular expression matching `text` in any letter case, in the ECMA-262 subset every JSON
/// Schema validator takes (no inline flags).
fn case_insensitive(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let (lower, upper) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
        if lower != upper {
            out.push_str(&format!("[{lower}{upper}]"));
        } else if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ' ' {
            out.push(c);
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    out
}

/// Every document kind's name (`v1alpha1` first), as [`kind_schema`] takes them.
pub fn kinds() -> Vec<&'static str> {
    crate::model::registry::registry().map(|e| e.kind).collect()
}

/// The schema of one document kind as a JSON tree (no `$schema` header), to walk by key: what
/// an editor's hover and completion read. `None` for an unknown kind.
pub fn kind_schema_json(kind: &str, flavour: Flavour) -> Option<Json> {
    let entry = crate::model::registry::lookup(kind)?;
    Some((entry.json_schema)(&mut SchemaCx::new(flavour)))
}

/// The schema of one document kind as JSON text, `None` for an unknown kind. `v1alpha1` is the
/// legacy document (`version`, `machine`, `cluster`).
pub fn kind_schema(kind: &str, flavour: Flavour) -> Option<String> {
    let entry = crate::model::registry::lookup(kind)?;
    let mut cx = SchemaCx::new(flavour);
    let mut root = vec![("$schema", Json::str("https://json-schema.org/draft/2020-12/schema"))];
    root.push(("title", Json::str(format!("Talos v1.13.9 {kind}"))));
    let body = (entry.json_schema)(&mut cx);
    Some(Json::obj(root).merged(body).to_text())
}

/// The schema of any document of a Talos v1.13.9 machine config or patch, told apart by
/// `kind` (the legacy document has none), as JSON text.
///
/// ```
/// let schema = talos_config::schema::config_schema(talos_config::schema::Flavour::Patch);
/// assert!(schema.starts_with("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\""));
/// ```
pub fn config_schema(flavour: Flavour) -> String {
    let mut cx = SchemaCx::new(flavour);
    let mut defs = Vec::new();
    let mut branches = Vec::new();
    let mut kinds = Vec::new();
    for entry in crate::model::registry::registry() {
        defs.push((entry.kind.to_string(), (entry.json_schema)(&mut cx)));
        let reference = Json::obj([("$ref", Json::str(format!("#/$defs/{}", entry.kind)))]);
        if entry.kind == "v1alpha1" {
            // The legacy document: no `kind` key.
            let no_kind = Json::obj([("not", Json::obj([("required", Json::arr([Json::str("kind")]))]))]);
            branches.push(Json::obj([("if", no_kind), ("then", reference)]));
        } else {
            kinds.push(Json::str(entry.kind));
            let this_kind = Json::obj([
                ("properties", Json::obj([("kind", Json::obj([("const", Json::str(entry.kind))]))])),
                ("required", Json::arr([Json::str("kind")])),
            ]);
            branches.push(Json::obj([("if", this_kind), ("then", reference)]));
        }
    }
    Json::obj([
        ("$schema", Json::str("https://json-schema.org/draft/2020-12/schema")),
        ("title", Json::str("Talos v1.13.9 machine configuration document")),
        ("type", Json::str("object")),
        ("properties", Json::obj([("kind", Json::obj([("enum", Json::Arr(kinds))]))])),
        ("allOf", Json::Arr(branches)),
        ("$defs", Json::Obj(defs)),
    ])
    .to_text()
}
