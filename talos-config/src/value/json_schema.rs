//! The JSON Schema building blocks every type's `Value::json_schema` rule uses: a JSON value,
//! the flavour (config or patch), and the common shapes (any scalar, lists, maps, enums).

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, keys in order.
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// A string.
    pub fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    /// An array.
    pub fn arr<const N: usize>(items: [Json; N]) -> Json {
        Json::Arr(items.into())
    }

    /// An object.
    pub fn obj<K: Into<String>>(entries: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Obj(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// This object with the entries of `other` (an object) after its own.
    pub fn merged(self, other: Json) -> Json {
        match (self, other) {
            (Json::Obj(mut own), Json::Obj(more)) => {
                own.extend(more);
                Json::Obj(own)
            }
            (own, _) => own,
        }
    }

    /// The JSON text, two-space indented, ending with a newline.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let pad = |out: &mut String, depth: usize| out.push_str(&"  ".repeat(depth));
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => out.push_str(&n.to_string()),
            Json::Str(s) => write_string(out, s),
            Json::Arr(items) if items.is_empty() => out.push_str("[]"),
            Json::Obj(entries) if entries.is_empty() => out.push_str("{}"),
            Json::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    pad(out, depth + 1);
                    item.write(out, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, depth);
                out.push(']');
            }
            Json::Obj(entries) => {
                out.push_str("{\n");
                for (i, (key, value)) in entries.iter().enumerate() {
                    pad(out, depth + 1);
                    write_string(out, key);
                    out.push_str(": ");
                    value.write(out, depth + 1);
                    out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
                }
                pad(out, depth);
                out.push('}');
            }
        }
    }
}

/// A JSON string literal.
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

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
    release: crate::Release,
}

impl SchemaCx {
    /// The context of a schema of this flavour, for `release`'s fields.
    pub(crate) fn new(flavour: Flavour, release: crate::Release) -> SchemaCx {
        SchemaCx { flavour, release }
    }

    /// The release whose fields and types the schema describes.
    pub fn release(&self) -> crate::Release {
        self.release
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

/// `schema` with a `description` (none when `doc` is empty) and the Go type Talos decodes the
/// field into (`x-go-type`, an annotation validators ignore; editors show it on hover).
pub fn described(schema: Json, doc: &str, go_type: &str) -> Json {
    let schema = if doc.is_empty() { schema } else { schema.merged(Json::obj([("description", Json::str(doc))])) };
    schema.merged(Json::obj([("x-go-type", Json::str(go_type))]))
}

/// Any value.
pub fn any() -> Json {
    Json::obj::<&str>([])
}

/// One of the given JSON types, `null` included.
pub fn types(names: &[&str]) -> Json {
    let mut list: Vec<Json> = names.iter().map(|n| Json::str(*n)).collect();
    list.push(Json::str("null"));
    Json::obj([("type", Json::Arr(list))])
}

/// A Go `bool`: `true`/`false`, or one of the YAML 1.1 words go-yaml also takes for a boolean
/// (`yes`, `no`, `on`, `off`, `y`, `n` and their capitalised forms), which a YAML 1.2 reader
/// hands over as strings. A quoted `"true"` is refused, as Talos refuses it.
pub fn boolean() -> Json {
    Json::obj([
        ("type", Json::arr([Json::str("boolean"), Json::str("string"), Json::str("null")])),
        ("pattern", Json::str("^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")),
    ])
}

/// A scalar of any type: what go-yaml decodes into a Go string.
pub fn scalar() -> Json {
    types(&["string", "number", "boolean"])
}

/// A Go duration (`time.ParseDuration`: `1h30m`, `-1.5s`, `0`), or the integer zero, which
/// go-yaml takes as a zero duration from v1.13 on (rc.4; rc.3 refuses every integer).
pub fn duration(release: crate::Release) -> Json {
    let unit = r"((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))";
    if release.yaml() == crate::yaml::Dialect::V4Rc3 {
        return Json::obj([
            ("type", Json::arr([Json::str("string"), Json::str("null")])),
            ("pattern", Json::str(format!("^([-+]?{unit}+|[-+]?0)$"))),
        ]);
    }
    Json::obj([
        ("type", Json::arr([Json::str("string"), Json::str("integer"), Json::str("null")])),
        ("pattern", Json::str(format!("^([-+]?{unit}+|[-+]?0)$"))),
        ("minimum", Json::Int(0)),
        ("maximum", Json::Int(0)),
    ])
}

/// A scalar, or a list of scalars.
pub fn scalar_or_list() -> Json {
    Json::obj([("anyOf", Json::arr([scalar(), array_of(scalar())]))])
}

/// A list of `items` (or `null`).
pub fn array_of(items: Json) -> Json {
    Json::obj([("type", Json::arr([Json::str("array"), Json::str("null")])), ("items", items)])
}

/// A mapping of string keys to `values` (or `null`).
pub fn map_of(values: Json) -> Json {
    Json::obj([("type", Json::arr([Json::str("object"), Json::str("null")])), ("additionalProperties", values)])
}

impl SchemaCx {
    /// A mapping of string keys to `values` (or `null`) in this flavour: a patch may also delete an entry
    /// (`key: {$patch: delete}`), which Talos's patcher applies to any map.
    pub fn map_of(&self, values: Json) -> Json {
        if self.flavour != Flavour::Patch {
            return map_of(values);
        }
        let delete = Json::obj([
            ("type", Json::str("object")),
            ("properties", Json::obj([("$patch", Json::obj([("const", Json::str("delete"))]))])),
            ("required", Json::arr([Json::str("$patch")])),
            ("additionalProperties", Json::Bool(false)),
        ]);
        map_of(Json::obj([("anyOf", Json::arr([values, delete]))]))
    }
}

/// `machine.type`: the values validation takes in every mode (`init`, `controlplane`, `worker`,
/// and `join` or empty, which Talos reads as a worker), exactly as written: Talos refuses any
/// other (`unknown machine type "Worker"`).
pub fn machine_type(_cx: &mut SchemaCx) -> Json {
    let names = ["init", "controlplane", "worker", "join", ""];
    Json::obj([
        ("type", Json::arr([Json::str("string"), Json::str("null")])),
        ("enum", Json::Arr(names.iter().map(|n| Json::str(*n)).chain([Json::Null]).collect())),
    ])
}

/// Names matched in any letter case, as Talos's enum parsing matches them.
pub fn enum_names(names: &[&str]) -> Json {
    let alternatives: Vec<String> = names.iter().map(|n| case_insensitive(n)).collect();
    Json::obj([
        ("type", Json::arr([Json::str("string"), Json::str("null")])),
        ("pattern", Json::str(format!("^({})$", alternatives.join("|")))),
        ("examples", Json::Arr(names.iter().map(|n| Json::str(*n)).collect())),
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
