//! `labctl lsp`: a language server over stdio (LSP 3.17) for Talos configs and patches:
//! Talos's validation and the lint findings as diagnostics while typing, the field's doc on
//! hover, the keys a mapping takes as completions, fixes and the v1.14 rewrite as code actions.
//! A failing request gets an error response; the server goes on.

mod analysis;
mod project;
mod rewrite;
mod text;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, LogMessage, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, Completion, GotoDefinition, HoverRequest, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionProviderCapability, TextDocumentIdentifier, TextEdit,
    WorkspaceEdit,
};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, CompletionResponse, Diagnostic,
    DiagnosticSeverity, Hover, HoverContents, HoverParams, HoverProviderCapability, MarkupContent, MarkupKind,
    NumberOrString, PublishDiagnosticsParams, Range, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use talos_config::Severity;
use talos_config::schema::Flavour;

use crate::CliError;

/// `labctl lsp`'s arguments.
#[derive(Debug, clap::Args)]
pub struct LspArgs {
    /// The release files are checked as when no `.labctl.toml` names one (`talos_release`).
    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// Runs the server on stdin/stdout until the client says `exit`; files are checked as
/// `release` unless their project file names another.
pub fn run(release: talos_config::Release) -> Result<(), CliError> {
    let (connection, io_threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions::default()),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        ..ServerCapabilities::default()
    };
    let failed = |e: &dyn std::fmt::Display| CliError::new(format!("labctl lsp: {e}"));
    let capabilities = serde_json::to_value(capabilities).map_err(|e| failed(&e))?;
    connection.initialize(capabilities).map_err(|e| failed(&e))?;
    let mut server = Server { connection: &connection, documents: HashMap::new(), release };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| failed(&e))? {
                    break;
                }
                server.request(request);
            }
            Message::Notification(notification) => server.notification(notification),
            Message::Response(_) => {}
        }
    }
    drop(server);
    drop(connection);
    io_threads.join().map_err(|e| failed(&e))
}

struct Server<'a> {
    connection: &'a Connection,
    documents: HashMap<String, String>,
    /// The release files are checked as unless their project file names another.
    release: talos_config::Release,
}

impl Server<'_> {
    fn send(&self, message: Message) {
        // The client is gone when this fails: the loop ends on its own.
        let _ = self.connection.sender.send(message);
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        // A bug in a handler must not end the server: it becomes an error response.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(request)));
        let response = match answer {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err((code, text))) => Response::new_err(id, code as i32, text),
            Err(_) => Response::new_err(id, ErrorCode::InternalError as i32, "labctl lsp: the request failed".into()),
        };
        self.send(Message::Response(response));
    }

    fn answer(&self, request: Request) -> Result<serde_json::Value, (ErrorCode, String)> {
        let invalid = |e: serde_json::Error| (ErrorCode::InvalidParams, e.to_string());
        let result = match request.method.as_str() {
            HoverRequest::METHOD => {
                let params: HoverParams = serde_json::from_value(request.params).map_err(invalid)?;
                serde_json::to_value(self.hover(&params))
            }
            Completion::METHOD => {
                let params: CompletionParams = serde_json::from_value(request.params).map_err(invalid)?;
                serde_json::to_value(self.completion(&params))
            }
            GotoDefinition::METHOD => {
                let params: lsp_types::GotoDefinitionParams =
                    serde_json::from_value(request.params).map_err(invalid)?;
                serde_json::to_value(self.definition(&params.text_document_position_params))
            }
            CodeActionRequest::METHOD => {
                // Only the document and the range count: the client's copy of the diagnostics is
                // not needed (and clients send it in different shapes).
                let params = CodeActionWhere::from_params(request.params).map_err(invalid)?;
                serde_json::to_value(self.code_actions(&params))
            }
            other => return Err((ErrorCode::MethodNotFound, format!("labctl lsp does not answer {other}"))),
        };
        result.map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }

    fn notification(&mut self, notification: Notification) {
        let uri = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(notification.params)
                else {
                    return;
                };
                let uri = params.text_document.uri;
                self.documents.insert(uri.to_string(), params.text_document.text);
                uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(notification.params)
                else {
                    return;
                };
                let uri = params.text_document.uri;
                let Some(text) = self.documents.get_mut(uri.as_str()) else { return };
                for change in params.content_changes {
                    text::apply_change(text, change.range, &change.text);
                }
                uri
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(params) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                {
                    self.documents.remove(params.text_document.uri.as_str());
                }
                return;
            }
            _ => return,
        };
        self.publish(&uri);
    }

    /// Checks the buffer and sends its diagnostics.
    fn publish(&self, uri: &Uri) {
        let Some(text) = self.documents.get(uri.as_str()) else { return };
        let cx = self.context(uri, text);
        let findings = std::panic::catch_unwind(|| analysis::findings(&cx)).unwrap_or_default();
        let log = lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::INFO,
            message: format!("labctl: {} {}", file_name(uri), cx.how),
        };
        if let Ok(params) = serde_json::to_value(log) {
            self.send(Message::Notification(Notification::new(LogMessage::METHOD.into(), params)));
        }
        let diagnostics = findings
            .into_iter()
            .map(|f| {
                let start = text::position(text, f.line, f.column);
                let end = text::token_end(text, f.line, f.column);
                Diagnostic {
                    range: Range { start, end },
                    severity: Some(match f.severity {
                        Severity::Error => DiagnosticSeverity::ERROR,
                        Severity::Warning => DiagnosticSeverity::WARNING,
                        _ => DiagnosticSeverity::INFORMATION,
                    }),
                    code: Some(NumberOrString::String(f.rule)),
                    source: Some("labctl".into()),
                    message: f.message,
                    ..Diagnostic::default()
                }
            })
            .collect();
        let params = PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version: None };
        if let Ok(params) = serde_json::to_value(params) {
            self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.into(), params)));
        }
    }

    /// The mechanical fixes of the findings on the requested lines (a misspelled key renamed),
    /// then, on the lines of a config's v1alpha1 document, the rewrite that moves its Kubernetes
    /// settings into their own documents (from v1.14).
    // lsp-types' `WorkspaceEdit` keys its changes by `Uri`, whose cached parts clippy takes for
    // interior mutability; the key is never changed while in the map.
    #[allow(clippy::mutable_key_type)]
    fn code_actions(&self, params: &CodeActionWhere) -> Vec<CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        let Some(text) = self.documents.get(uri.as_str()) else { return Vec::new() };
        let findings = analysis::findings(&self.context(uri, text));
        let lines = params.range.start.line as usize..=params.range.end.line as usize;
        let mut actions: Vec<CodeActionOrCommand> = findings
            .into_iter()
            .filter(|f| lines.contains(&f.line))
            .filter_map(|f| {
                let key = f.rename?;
                let range = Range {
                    start: text::position(text, f.line, f.column),
                    end: text::token_end(text, f.line, f.column),
                };
                let edit = TextEdit { range, new_text: key.clone() };
                let changes = std::collections::HashMap::from([(uri.clone(), vec![edit])]);
                Some(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Rename to `{key}`"),
                    kind: Some(CodeActionKind::QUICKFIX),
                    edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }))
            })
            .collect();
        let path = uri_path(uri);
        let (release, mode) = (analysis::release_of(path.as_deref(), self.release), analysis::mode_of(path.as_deref()));
        actions.extend(rewrite::code_action(uri, text, lines, release, mode));
        actions
    }

    fn hover(&self, params: &HoverParams) -> Option<Hover> {
        let position = &params.text_document_position_params;
        let text = self.documents.get(position.text_document.uri.as_str())?;
        let (line, column) = text::line_column(text, position.position);
        let place = analysis::path_at(text, line, column)?;
        let keys = place.keys();
        let kind = place.document.kind();
        let release = analysis::release_of(uri_path(&position.text_document.uri).as_deref(), self.release);
        let node = analysis::schema_at(kind, &keys, Flavour::Patch, release)?;
        let doc = analysis::description(&node).unwrap_or_default();
        let mut value = format!("**{}** ({kind})", keys.join("."));
        if !doc.is_empty() {
            value.push_str(&format!("\n\n{doc}"));
        }
        if let Some(go) = analysis::go_type(&node) {
            value.push_str(&format!("\n\nGo type: `{go}`."));
        }
        let cx = self.context(&position.text_document.uri, text);
        if let Some((input, line, _)) = analysis::origin(&cx, &place) {
            value.push_str(&format!("\n\nIn the merged config, set by {}:{}.", display_input(&input), line + 1));
        }
        if let Some(effect) = analysis::reboot_effect(&cx) {
            value.push_str(&format!("\n\n{effect}"));
        }
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
            range: None,
        })
    }

    /// From a key to the line that set its merged value (the last patch that wrote it).
    fn definition(&self, position: &lsp_types::TextDocumentPositionParams) -> Option<lsp_types::Location> {
        let uri = &position.text_document.uri;
        let text = self.documents.get(uri.as_str())?;
        let (line, column) = text::line_column(text, position.position);
        let place = analysis::path_at(text, line, column)?;
        let cx = self.context(uri, text);
        let (input, line, column) = analysis::origin(&cx, &place)?;
        let target = if input == cx.name { uri.clone() } else { path_uri(Path::new(&input))? };
        let target_text = self.documents.get(target.as_str()).cloned().or_else(|| std::fs::read_to_string(&input).ok());
        let at = match target_text {
            Some(target_text) => text::position(&target_text, line, column),
            None => lsp_types::Position { line: line as u32, character: column as u32 },
        };
        Some(lsp_types::Location { uri: target, range: Range { start: at, end: at } })
    }

    /// What the buffer is checked with (its project's config set, or alone).
    fn context(&self, uri: &Uri, text: &str) -> analysis::Context {
        let path = uri_path(uri);
        let buffer = |p: &Path| path_uri(p).and_then(|u| self.documents.get(u.as_str()).cloned());
        analysis::context(path.as_deref(), &file_name(uri), text, &buffer, self.release)
    }

    fn completion(&self, params: &CompletionParams) -> Option<CompletionResponse> {
        let position = &params.text_document_position;
        let text = self.documents.get(position.text_document.uri.as_str())?;
        let (line, column) = text::line_column(text, position.position);
        // After `key:` on the cursor's line, the key's values (an enum's names).
        if let Some(key) = text::key_before_cursor(text, line, column) {
            let (kind, mut keys) = text::parent_keys(text, line, text::indentation(text, line));
            keys.push(key);
            let release = analysis::release_of(uri_path(&position.text_document.uri).as_deref(), self.release);
            let node = analysis::schema_at(&kind, &keys, Flavour::Patch, release)?;
            let items = analysis::values_of(&node)
                .into_iter()
                .map(|value| CompletionItem {
                    label: value,
                    kind: Some(CompletionItemKind::ENUM_MEMBER),
                    ..CompletionItem::default()
                })
                .collect();
            return Some(CompletionResponse::Array(items));
        }
        let (kind, keys) = text::parent_keys(text, line, column);
        let field = |key: String, detail: Option<String>| CompletionItem {
            insert_text: Some(format!("{key}: ")),
            label: key,
            kind: Some(CompletionItemKind::FIELD),
            detail,
            ..CompletionItem::default()
        };
        if kind == "v1alpha1" && keys == ["machine", "kubelet", "extraArgs"] {
            let items = talos_config::kubelet::flags()
                .map(|(name, deprecation)| {
                    let detail = match deprecation {
                        Some(d) => format!("kubelet flag, deprecated: {}", d.message()),
                        None => "kubelet flag".to_string(),
                    };
                    field(name.to_string(), Some(detail))
                })
                .collect();
            return Some(CompletionResponse::Array(items));
        }
        let release = analysis::release_of(uri_path(&position.text_document.uri).as_deref(), self.release);
        let node = analysis::schema_at(&kind, &keys, Flavour::Patch, release)?;
        let items = analysis::keys_of(&node).into_iter().map(|(key, doc)| field(key, doc)).collect();
        Some(CompletionResponse::Array(items))
    }
}

/// The part of `textDocument/codeAction`'s parameters the server reads.
struct CodeActionWhere {
    text_document: TextDocumentIdentifier,
    range: Range,
}

impl CodeActionWhere {
    fn from_params(mut params: serde_json::Value) -> Result<CodeActionWhere, serde_json::Error> {
        Ok(CodeActionWhere {
            text_document: serde_json::from_value(params["textDocument"].take())?,
            range: serde_json::from_value(params["range"].take())?,
        })
    }
}

/// The local path of a `file:` URI.
fn uri_path(uri: &Uri) -> Option<PathBuf> {
    if uri.scheme().map(|s| s.as_str()) != Some("file") {
        return None;
    }
    Some(PathBuf::from(percent_decode(uri.path().as_str())))
}

/// The `file:` URI of a path.
fn path_uri(path: &Path) -> Option<Uri> {
    let mut encoded = String::from("file://");
    for b in path.display().to_string().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    encoded.parse().ok()
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An input's name as a user reads it: a path's file name.
fn display_input(input: &str) -> String {
    input.rsplit('/').next().unwrap_or(input).to_string()
}

/// The name diagnostics are attributed to: the file's name in its URI.
fn file_name(uri: &Uri) -> String {
    uri.path().as_str().rsplit('/').next().unwrap_or_default().to_string()
}
