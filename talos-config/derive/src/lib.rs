//! `#[derive(Talos)]`: one Rust struct per upstream Go struct, in upstream field order, with the
//! YAML key, `omitempty` and `,inline` of its struct tags written as attributes. The derive
//! implements `talos_config::value::Value` (decode, unknown-key check, encode, zero test, merge,
//! delete) and `talos_config::value::StructFields` (the same, field by field, so that `inline`
//! embedding works) from them. Under talos-config's `serde` feature it also implements
//! `serde::Serialize` and `serde::Deserialize` through that `Value` (Talos's key names and
//! `omitempty`; strict decoding).
//!
//! Container attributes: `#[talos(go = "v1alpha1.MachineConfig")]` (the Go type name used in
//! error texts), `#[talos(merge = "path::to::fn")]` (a custom Go `Merge` method:
//! `fn(&mut T, &T, MergeFlags) -> Result<(), String>`).
//!
//! Field attributes: `key = "certSANs"` (default: the field name in lowerCamelCase),
//! `omitempty`, `inline` (an embedded struct whose fields appear at this position),
//! `go_name = "ClusterConfig"` (the Go field name used in merge errors; default: UpperCamelCase),
//! `since = V1_13_9` (the first `talos_config::Release` that has the field: decoding as an older
//! release treats its key as unknown, as that release's Go struct has no such field),
//! `omitempty_since = V1_14_0_RC1` (a field that is `omitempty` from that release on),
//! `schema = "path::to::fn"` (`fn(&mut SchemaCx) -> Json`: the field's JSON Schema when
//! validation narrows its type, e.g. the values every mode refuses).

#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::{Data, DeriveInput, Fields, LitStr, parse_macro_input};

struct FieldSpec {
    ident: syn::Ident,
    ty: syn::Type,
    key: String,
    go_name: String,
    omitempty: bool,
    /// The first release whose Go struct tag says `omitempty` for a field that had none before
    /// (`omitempty_since = V1_14_0_RC1`).
    omitempty_since: Option<syn::Ident>,
    inline: bool,
    doc: String,
    /// The first release that has the field (`since = V1_13_9`); `None`: every release.
    since: Option<syn::Ident>,
    /// A schema of the field's own, narrower than its type's (`schema = "path::to::fn"`).
    schema: Option<syn::Path>,
}

/// The `///` comment of an item as one line of text.
fn doc_text(attrs: &[syn::Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }) = &nv.value
        {
            lines.push(text.value().trim().to_string());
        }
    }
    lines.join(" ").trim().to_string()
}

fn lower_camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.trim_start_matches("r#").chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn upper_camel(name: &str) -> String {
    let lc = lower_camel(name);
    let mut chars = lc.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => lc,
    }
}

/// Derives `Value` and `StructFields` for a struct with named fields.
#[proc_macro_derive(Talos, attributes(talos))]
pub fn derive_talos(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// The container's `#[talos(...)]` settings.
struct ContainerSpec {
    /// The Go type name used in error texts.
    go: String,
    /// A custom Go `Merge` method, instead of the field-by-field merge.
    merge_fn: Option<syn::Path>,
}

fn expand(input: DeriveInput) -> syn::Result<TokenStream2> {
    let container = container_spec(&input)?;
    let fields = field_specs(&input)?;
    let name = &input.ident;
    let struct_fields = struct_fields_impl(name, &fields);
    let value = value_impl(name, &container, &fields);
    let serde = serde_impls(name);
    Ok(quote! { #struct_fields #value #serde })
}

/// The path of talos-config's `value` module in generated code.
fn value_mod() -> TokenStream2 {
    quote!(::talos_config::value)
}

/// The path of talos-yaml in generated code.
fn yaml_crate() -> TokenStream2 {
    quote!(::talos_yaml)
}

fn container_spec(input: &DeriveInput) -> syn::Result<ContainerSpec> {
    let mut spec = ContainerSpec { go: input.ident.to_string(), merge_fn: None };
    for attr in &input.attrs {
        if !attr.path().is_ident("talos") {
            continue;
        }
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("go") {
                spec.go = meta.value()?.parse::<LitStr>()?.value();
                Ok(())
            } else if meta.path.is_ident("merge") {
                spec.merge_fn = Some(meta.value()?.parse::<LitStr>()?.parse()?);
                Ok(())
            } else {
                Err(meta.error("unknown talos container attribute"))
            }
        })?;
    }
    Ok(spec)
}

/// The named fields of a struct, in order, with their `#[talos(...)]` settings.
fn field_specs(input: &DeriveInput) -> syn::Result<Vec<FieldSpec>> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(&input.ident, "Talos can only be derived for structs"));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(&input.ident, "Talos needs named fields"));
    };
    let mut fields = Vec::new();
    for f in &named.named {
        if let Some(spec) = field_spec(f)? {
            fields.push(spec);
        }
    }
    Ok(fields)
}

fn field_spec(f: &syn::Field) -> syn::Result<Option<FieldSpec>> {
    let Some(ident) = f.ident.clone() else {
        return Ok(None);
    };
    let mut spec = FieldSpec {
        key: lower_camel(&ident.to_string()),
        go_name: upper_camel(&ident.to_string()),
        ident,
        ty: f.ty.clone(),
        omitempty: false,
        omitempty_since: None,
        inline: false,
        doc: doc_text(&f.attrs),
        since: None,
        schema: None,
    };
    for attr in &f.attrs {
        if !attr.path().is_ident("talos") {
            continue;
        }
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("key") {
                spec.key = meta.value()?.parse::<LitStr>()?.value();
            } else if meta.path.is_ident("go_name") {
                spec.go_name = meta.value()?.parse::<LitStr>()?.value();
            } else if meta.path.is_ident("omitempty") {
                spec.omitempty = true;
            } else if meta.path.is_ident("omitempty_since") {
                spec.omitempty_since = Some(meta.value()?.parse::<syn::Ident>()?);
            } else if meta.path.is_ident("inline") {
                spec.inline = true;
            } else if meta.path.is_ident("since") {
                spec.since = Some(meta.value()?.parse::<syn::Ident>()?);
            } else if meta.path.is_ident("schema") {
                spec.schema = Some(meta.value()?.parse::<LitStr>()?.parse()?);
            } else {
                return Err(meta.error("unknown talos field attribute"));
            }
            Ok(())
        })?;
    }
    Ok(Some(spec))
}

/// The condition under which a release has the field: `true`, or `release >= since`.
fn in_release(f: &FieldSpec, release: TokenStream2) -> TokenStream2 {
    match &f.since {
        Some(since) => quote! { #release >= ::talos_config::Release::#since },
        None => quote! { true },
    }
}

/// A field's part of `decode_field`: take the value when the key is the field's (and the
/// release decoding follows has the field), its strings moved out of the node.
fn decode_arm(f: &FieldSpec) -> TokenStream2 {
    let (v, ident, ty, key) = (value_mod(), &f.ident, &f.ty, &f.key);
    let has = in_release(f, quote!(cx.release()));
    if f.inline {
        quote! { if #has && <#ty as #v::StructFields>::decode_field(&mut self.#ident, key, value, cx) { return true; } }
    } else {
        quote! { if key == #key && #has { self.#ident = <#ty as #v::Value>::decode_taking(value, cx); return true; } }
    }
}

/// A field's part of `field_unknown_keys`.
fn unknown_keys_arm(f: &FieldSpec) -> TokenStream2 {
    let (v, ty, key) = (value_mod(), &f.ty, &f.key);
    let has = in_release(f, quote!(release));
    if f.inline {
        quote! { if #has { if let Some(r) = <#ty as #v::StructFields>::field_unknown_keys(key, value, release)? { return Ok(Some(r)); } } }
    } else {
        quote! { if key == #key && #has { return Ok(Some(<#ty as #v::Value>::unknown_keys_for(value, release)?)); } }
    }
}

/// A field's part of `encode_fields`, left out when empty under `omitempty` (and when the
/// release encoding follows has no such field); the field moves into the tree.
fn encode_step(f: &FieldSpec) -> TokenStream2 {
    let (v, y, ident, ty, key) = (value_mod(), yaml_crate(), &f.ident, &f.ty, &f.key);
    let has = in_release(f, quote!(release));
    let step = if f.inline {
        quote! { <#ty as #v::StructFields>::encode_fields(self.#ident, out, release); }
    } else if f.omitempty {
        quote! { if !<#ty as #v::Value>::is_empty(&self.#ident) { out.push((#y::Node::go_string(#key), <#ty as #v::Value>::encode_owned_for(self.#ident, release))); } }
    } else if let Some(since) = &f.omitempty_since {
        quote! {
            if release < ::talos_config::Release::#since || !<#ty as #v::Value>::is_empty(&self.#ident) {
                out.push((#y::Node::go_string(#key), <#ty as #v::Value>::encode_owned_for(self.#ident, release)));
            }
        }
    } else {
        quote! { out.push((#y::Node::go_string(#key), <#ty as #v::Value>::encode_owned_for(self.#ident, release))); }
    };
    quote! { if #has { #step } }
}

/// The body of `merge`: the container's own merge function, or each field in turn with Go's
/// `merge field T.F: ` prefix on its error.
fn merge_body(container: &ContainerSpec, fields: &[FieldSpec]) -> TokenStream2 {
    let v = value_mod();
    if let Some(path) = &container.merge_fn {
        return quote! { #path(self, right, flags) };
    }
    let steps = fields.iter().map(|f| {
        let (ident, ty, go_name) = (&f.ident, &f.ty, &f.go_name);
        let prefix = format!("merge field {}.{go_name}: ", container.go);
        quote! {
            <#ty as #v::Value>::merge(&mut self.#ident, &right.#ident, flags.nested())
                .map_err(|e| format!("{}{}", #prefix, e))?;
        }
    });
    quote! { #(#steps)* Ok(()) }
}

/// A field's part of `delete_field`: reset the field, or delete below it.
fn delete_arm(f: &FieldSpec) -> TokenStream2 {
    let (v, ident, ty, key) = (value_mod(), &f.ident, &f.ty, &f.key);
    if f.inline {
        quote! { if let Some(r) = <#ty as #v::StructFields>::delete_field(&mut self.#ident, path) { return Some(r); } }
    } else {
        quote! {
            if head == #key {
                if path.is_last() {
                    self.#ident = <#ty as ::core::default::Default>::default();
                    return Some(Ok(()));
                }
                return Some(<#ty as #v::Value>::delete(&mut self.#ident, path.rest()));
            }
        }
    }
}

/// A field's part of `schema_paths`: its own dotted path after those below it, for the fields
/// the default release has.
fn schema_path_step(f: &FieldSpec) -> TokenStream2 {
    let (v, ty, key) = (value_mod(), &f.ty, &f.key);
    let present = in_release(f, quote! { ::talos_config::Release::DEFAULT });
    if f.inline {
        quote! { if #present { <#ty as #v::Value>::schema_paths(prefix, out); } }
    } else {
        quote! {
            if #present {
                let path = if prefix.is_empty() { #key.to_string() } else { format!("{}.{}", prefix, #key) };
                <#ty as #v::Value>::schema_paths(&path, out);
                out.push(path);
            }
        }
    }
}

/// A field's part of `json_properties`: its schema, described by its doc comment and Go type.
fn json_property_step(f: &FieldSpec) -> TokenStream2 {
    let (v, ty, key, doc) = (value_mod(), &f.ty, &f.key, &f.doc);
    let has = in_release(f, quote!(cx.release()));
    if f.inline {
        quote! { if #has { <#ty as #v::StructFields>::json_properties(cx, props); } }
    } else {
        let schema = match &f.schema {
            Some(path) => quote! { #path(cx) },
            None => quote! { <#ty as #v::Value>::json_schema(cx) },
        };
        quote! {
            if #has {
            let schema = #schema;
            let go_type = <#ty as #v::Value>::go_type();
            props.push((#key.to_string(), ::talos_config::schema::described(schema, #doc, &go_type)));
            }
        }
    }
}

/// A field's part of `field_match`.
fn match_arm(f: &FieldSpec) -> TokenStream2 {
    let (v, ident, ty, key) = (value_mod(), &f.ident, &f.ty, &f.key);
    if f.inline {
        quote! { if let Some(r) = <#ty as #v::StructFields>::field_match(&self.#ident, key) { return Some(r); } }
    } else {
        quote! { if key == #key { return Some(<#ty as #v::Value>::match_text(&self.#ident)); } }
    }
}

fn struct_fields_impl(name: &syn::Ident, fields: &[FieldSpec]) -> TokenStream2 {
    let (v, y) = (value_mod(), yaml_crate());
    let decode_arms = fields.iter().map(decode_arm);
    let unknown_arms = fields.iter().map(unknown_keys_arm);
    let encode_fields = fields.iter().map(encode_step);
    let delete_arms = fields.iter().map(delete_arm);
    let match_arms = fields.iter().map(match_arm);
    let schema_props = fields.iter().map(json_property_step);
    quote! {
        impl #v::StructFields for #name {
            fn decode_field(&mut self, key: &str, value: &mut #y::Node, cx: &mut #v::DecodeCx) -> bool {
                #(#decode_arms)*
                false
            }

            fn field_unknown_keys(key: &str, value: &#y::Node, release: ::talos_config::Release) -> ::core::result::Result<Option<Option<#y::Node>>, String> {
                #(#unknown_arms)*
                Ok(None)
            }

            fn encode_fields(self, out: &mut Vec<(#y::Node, #y::Node)>, release: ::talos_config::Release) {
                #(#encode_fields)*
            }

            fn delete_field(&mut self, path: #v::DeletePath<'_>) -> Option<::core::result::Result<(), String>> {
                let head = path.head()?;
                #(#delete_arms)*
                None
            }

            fn field_match(&self, key: &str) -> Option<Option<String>> {
                #(#match_arms)*
                None
            }

            fn json_properties(cx: &mut ::talos_config::schema::SchemaCx, props: &mut Vec<(String, ::talos_config::schema::Json)>) {
                #(#schema_props)*
            }
        }
    }
}

fn value_impl(name: &syn::Ident, container: &ContainerSpec, fields: &[FieldSpec]) -> TokenStream2 {
    let (v, y, go) = (value_mod(), yaml_crate(), &container.go);
    let schema_steps = fields.iter().map(schema_path_step);
    let empty_checks = fields.iter().map(|f| {
        let (ident, ty) = (&f.ident, &f.ty);
        quote! { && <#ty as #v::Value>::is_empty(&self.#ident) }
    });
    let merge_body = merge_body(container, fields);
    quote! {
        impl #v::Value for #name {
            fn go_type() -> String {
                #go.into()
            }

            // One decoder and one encoder per struct (they are many): each moves strings, and the
            // borrowing forms work on a copy.
            fn decode(node: &#y::Node, cx: &mut #v::DecodeCx) -> Self {
                <Self as #v::Value>::decode_taking(&mut node.clone(), cx)
            }

            fn decode_taking(node: &mut #y::Node, cx: &mut #v::DecodeCx) -> Self {
                #v::decode_struct(node, cx, &Self::go_type())
            }

            fn schema_paths(prefix: &str, out: &mut Vec<String>) {
                #(#schema_steps)*
            }

            fn json_schema(cx: &mut ::talos_config::schema::SchemaCx) -> ::talos_config::schema::Json {
                let mut props = Vec::new();
                <Self as #v::StructFields>::json_properties(cx, &mut props);
                cx.object(props)
            }

            fn unknown_keys_for(node: &#y::Node, release: ::talos_config::Release) -> ::core::result::Result<Option<#y::Node>, String> {
                #v::struct_unknown_keys::<Self>(node, release)
            }

            fn encode(&self) -> #y::Node {
                <Self as #v::Value>::encode_for(self, ::talos_config::Release::DEFAULT)
            }

            fn encode_for(&self, release: ::talos_config::Release) -> #y::Node {
                <Self as #v::Value>::encode_owned_for(self.clone(), release)
            }

            fn encode_owned_for(self, release: ::talos_config::Release) -> #y::Node {
                let mut out = Vec::new();
                <Self as #v::StructFields>::encode_fields(self, &mut out, release);
                #y::Node::mapping(out)
            }

            fn is_empty(&self) -> bool {
                true #(#empty_checks)*
            }

            fn merge(&mut self, right: &Self, flags: #v::MergeFlags) -> ::core::result::Result<(), String> {
                #merge_body
            }

            fn delete(&mut self, path: #v::DeletePath<'_>) -> ::core::result::Result<(), String> {
                <Self as #v::StructFields>::delete_field(self, path)
                    .unwrap_or_else(|| Err(#v::LOOKUP_FAILED.to_string()))
            }

            fn field_match_text(&self, key: &str) -> Option<String> {
                <Self as #v::StructFields>::field_match(self, key).flatten()
            }
        }
    }
}

/// `serde::Serialize` and `Deserialize` through the `Value`, under talos-config's `serde` feature
/// (evaluated in talos-config, the derive's only user).
fn serde_impls(name: &syn::Ident) -> TokenStream2 {
    quote! {
        #[cfg(feature = "serde")]
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                ::talos_config::serde_impl::serialize_value(self, serializer)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                ::talos_config::serde_impl::deserialize_value(deserializer)
            }
        }
    }
}
