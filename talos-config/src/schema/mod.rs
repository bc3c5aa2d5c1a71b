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

use crate::value::json_schema::SchemaCx as Cx;
pub use crate::value::json_schema::{Flavour, Json, SchemaCx};
// What `#[derive(Talos)]` expands to names it here; not for users.
#[doc(hidden)]
pub use crate::value::json_schema::described;

/// Every document kind's name (`v1alpha1` first), as [`kind_schema`] takes them.
pub fn kinds() -> Vec<&'static str> {
    kinds_for(crate::Release::DEFAULT)
}

/// Every document kind `release` registers (`v1alpha1` first).
///
/// ```
/// use talos_config::{Release, schema::kinds_for};
/// assert!(kinds_for(Release::V1_13_9).contains(&"VRFConfig"));
/// assert!(!kinds_for(Release::V1_12_11).contains(&"VRFConfig"));
/// ```
pub fn kinds_for(release: crate::Release) -> Vec<&'static str> {
    crate::model::registry::registry_for(release).map(|e| e.kind).collect()
}

/// The schema of one document kind as a JSON tree (no `$schema` header), to walk by key: what
/// an editor's hover and completion read. `None` for an unknown kind.
pub fn kind_schema_json(kind: &str, flavour: Flavour) -> Option<Json> {
    kind_schema_json_for(kind, flavour, crate::Release::DEFAULT)
}

/// [`kind_schema_json`] of `release`'s kind: its fields and types; `None` when `release` does not
/// register the kind.
pub fn kind_schema_json_for(kind: &str, flavour: Flavour, release: crate::Release) -> Option<Json> {
    let entry = crate::model::registry::lookup_for(kind, release)?;
    Some((entry.json_schema)(&mut Cx::new(flavour, release)))
}

/// The schema of one document kind as JSON text, `None` for an unknown kind. `v1alpha1` is the
/// legacy document (`version`, `machine`, `cluster`).
pub fn kind_schema(kind: &str, flavour: Flavour) -> Option<String> {
    kind_schema_for(kind, flavour, crate::Release::DEFAULT)
}

/// [`kind_schema`] as `release` has the kind; `None` when `release` does not register it.
pub fn kind_schema_for(kind: &str, flavour: Flavour, release: crate::Release) -> Option<String> {
    let entry = crate::model::registry::lookup_for(kind, release)?;
    let mut cx = Cx::new(flavour, release);
    let mut root = vec![("$schema", Json::str("https://json-schema.org/draft/2020-12/schema"))];
    root.push(("title", Json::str(format!("Talos {release} {kind}"))));
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
    config_schema_for(flavour, crate::Release::DEFAULT)
}

/// [`config_schema`] of `release`: its kinds, fields and types.
pub fn config_schema_for(flavour: Flavour, release: crate::Release) -> String {
    let mut cx = Cx::new(flavour, release);
    let mut defs = Vec::new();
    let mut branches = Vec::new();
    let mut kinds = Vec::new();
    for entry in crate::model::registry::registry_for(release) {
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
        ("title", Json::str(format!("Talos {release} machine configuration document"))),
        ("type", Json::str("object")),
        ("properties", Json::obj([("kind", Json::obj([("enum", Json::Arr(kinds))]))])),
        ("allOf", Json::Arr(branches)),
        ("$defs", Json::Obj(defs)),
    ])
    .to_text()
}
