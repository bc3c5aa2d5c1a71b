//! The API's paths: discovery (`/version`, `/api`, `/api/v1`, `/apis`), health, and the Nodes
//! (list with selectors, get by name); anything else is a Kubernetes `Status` failure.

use std::time::SystemTime;

use hyper::{Method, StatusCode};
use serde_json::{Value, json};

use super::query::{Req, parse_selector, percent_decode, query_params};
use super::{KUBERNETES_VERSION, KubeNode, KubeState, kube_arch};

/// A `Status` object (`kind: Status`, `status: Failure`).
fn status(code: StatusCode, reason: &str, message: &str, details: Option<Value>) -> (StatusCode, Value) {
    let mut v = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
    });
    if let (Some(d), Some(map)) = (details, v.as_object_mut()) {
        map.insert("details".into(), d);
    }
    if let Some(map) = v.as_object_mut() {
        map.insert("code".into(), json!(code.as_u16()));
    }
    (code, v)
}

fn not_found() -> (StatusCode, Value) {
    status(StatusCode::NOT_FOUND, "NotFound", "the server could not find the requested resource", None)
}

fn bad_request(message: &str) -> (StatusCode, Value) {
    status(StatusCode::BAD_REQUEST, "BadRequest", message, None)
}

impl KubeState {
    /// Answers one request: a status code and a JSON body.
    pub fn route(&self, method: &Method, path: &str, query: Option<&str>, now: SystemTime) -> (StatusCode, Value) {
        let known = matches!(path, "/version" | "/api" | "/api/v1" | "/apis" | "/healthz" | "/livez" | "/readyz")
            || path == "/api/v1/nodes"
            || path.strip_prefix("/api/v1/nodes/").is_some_and(|n| !n.is_empty() && !n.contains('/'));
        if !known {
            return not_found();
        }
        if method != Method::GET {
            return status(
                StatusCode::METHOD_NOT_ALLOWED,
                "MethodNotAllowed",
                "the server does not allow this method on the requested resource",
                Some(json!({})),
            );
        }
        let params = query_params(query);
        let param = |name: &str| params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        if matches!(param("watch"), Some("1" | "true")) {
            return bad_request("watch is not simulated by talos-sim");
        }
        match path {
            "/version" => (
                StatusCode::OK,
                json!({
                    "major": "1",
                    "minor": "36",
                    "emulationMajor": "1",
                    "emulationMinor": "36",
                    "minCompatibilityMajor": "1",
                    "minCompatibilityMinor": "35",
                    "gitVersion": KUBERNETES_VERSION,
                    "gitCommit": "0000000000000000000000000000000000000000",
                    "gitTreeState": "clean",
                    "buildDate": "2026-01-01T00:00:00Z",
                    "goVersion": "go1.25.7",
                    "compiler": "gc",
                    "platform": format!("linux/{}", kube_arch()),
                }),
            ),
            "/healthz" | "/livez" | "/readyz" => (StatusCode::OK, json!("ok")),
            "/api" => (
                StatusCode::OK,
                json!({
                    "kind": "APIVersions",
                    "versions": ["v1"],
                    "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "10.5.0.2:6443"}],
                }),
            ),
            "/apis" => (StatusCode::OK, json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": []})),
            "/api/v1" => (
                StatusCode::OK,
                json!({
                    "kind": "APIResourceList",
                    "groupVersion": "v1",
                    "resources": [{
                        "name": "nodes",
                        "singularName": "node",
                        "namespaced": false,
                        "kind": "Node",
                        "verbs": ["get", "list"],
                        "shortNames": ["no"],
                    }],
                }),
            ),
            "/api/v1/nodes" => self.list(param("labelSelector"), param("fieldSelector"), now),
            _ => {
                let name = percent_decode(path.trim_start_matches("/api/v1/nodes/"));
                match self.nodes.iter().find(|n| n.node.identity.hostname == name) {
                    Some(n) => (StatusCode::OK, self.node_object(n, now).0),
                    None => status(
                        StatusCode::NOT_FOUND,
                        "NotFound",
                        &format!("nodes \"{name}\" not found"),
                        Some(json!({"name": name, "kind": "nodes"})),
                    ),
                }
            }
        }
    }

    fn list(&self, label_selector: Option<&str>, field_selector: Option<&str>, now: SystemTime) -> (StatusCode, Value) {
        let labels = match parse_selector(label_selector.unwrap_or_default()) {
            Ok(r) => r,
            Err(e) => return bad_request(&e),
        };
        let fields = match parse_selector(field_selector.unwrap_or_default()) {
            Ok(r) => r,
            Err(e) => return bad_request(&e),
        };
        for f in &fields {
            let key = match f {
                Req::Exists(k) | Req::NotExists(k) | Req::Eq(k, _) | Req::Ne(k, _) => k,
            };
            if key != "metadata.name" {
                return bad_request(&format!("field label not supported: {key}"));
            }
            if matches!(f, Req::Exists(_) | Req::NotExists(_)) {
                return bad_request(&format!("invalid selector: {key}: field selectors need a value"));
            }
        }
        let mut items = Vec::new();
        let mut total = 0;
        let mut nodes: Vec<&KubeNode> = self.nodes.iter().collect();
        nodes.sort_by(|a, b| a.node.identity.hostname.cmp(&b.node.identity.hostname));
        for n in nodes {
            let (object, rv) = self.node_object(n, now);
            total += rv;
            let get_label = |k: &str| object["metadata"]["labels"][k].as_str().map(str::to_string);
            let get_field = |_: &str| Some(n.node.identity.hostname.clone());
            if labels.iter().all(|r| r.matches(get_label)) && fields.iter().all(|r| r.matches(get_field)) {
                items.push(object);
            }
        }
        (
            StatusCode::OK,
            json!({
                "kind": "NodeList",
                "apiVersion": "v1",
                "metadata": {"resourceVersion": total.to_string()},
                "items": items,
            }),
        )
    }
}
