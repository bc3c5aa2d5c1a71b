//! Service and container logs: the `Logs` stream, split into lines per node.

use std::collections::BTreeMap;

use super::{Client, Target, machine_metadata, request as rpc_request};
use crate::error::{Code, Error, Result, is_transport};
use crate::proto::{common, machine};
use crate::reply::{in_band_error, node_of};

/// Which log source to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogsRequest {
    /// Service or container id (`kubelet`, `machined`, ...).
    pub id: String,
    /// Read Kubernetes containers (`-k`: namespace `k8s.io`, CRI) instead of Talos services.
    pub kubernetes: bool,
    /// Keep streaming (`-f`).
    pub follow: bool,
    /// Only the last N lines (`--tail`); `None` = everything (-1).
    pub tail: Option<u32>,
}

impl LogsRequest {
    /// All logs of a Talos service, no follow.
    pub fn service(id: impl Into<String>) -> LogsRequest {
        LogsRequest { id: id.into(), kubernetes: false, follow: false, tail: None }
    }
}

/// One log line and its node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The node (`metadata.hostname`, else the target or endpoint).
    pub node: String,
    /// The line without its `\n` (lossy UTF-8).
    pub line: String,
}

/// Longest partial line kept per node: a peer sending more bytes without a `\n` gets them flushed as a line of
/// this size (so a misbehaving peer cannot grow the buffer without limit).
pub const MAX_PARTIAL_LINE: usize = 1 << 20;

/// Splits raw log chunks into lines, per node. Each byte is scanned once; a partial line longer than
/// [`MAX_PARTIAL_LINE`] is flushed as a line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: BTreeMap<String, Vec<u8>>,
}

impl LineSplitter {
    /// Feeds one chunk; returns the lines it completes.
    pub fn push(&mut self, node: &str, bytes: &[u8]) -> Vec<LogLine> {
        let buf = self.partial.entry(node.to_string()).or_default();
        let mut lines = Vec::new();
        let emit = |line: &[u8], lines: &mut Vec<LogLine>| {
            lines.push(LogLine { node: node.to_string(), line: String::from_utf8_lossy(line).into_owned() });
        };
        let mut rest = bytes;
        loop {
            let (piece, complete) = match rest.iter().position(|b| *b == b'\n') {
                Some(pos) => (&rest[..pos], Some(&rest[pos + 1..])),
                None => (rest, None),
            };
            let mut piece = piece;
            // Flush whole MAX_PARTIAL_LINE-sized pieces of an overlong line.
            while buf.len() + piece.len() > MAX_PARTIAL_LINE {
                let room = MAX_PARTIAL_LINE - buf.len();
                buf.extend_from_slice(&piece[..room]);
                piece = &piece[room..];
                emit(buf, &mut lines);
                buf.clear();
            }
            buf.extend_from_slice(piece);
            match complete {
                Some(after) => {
                    let line: &[u8] = buf;
                    emit(line.strip_suffix(b"\r").unwrap_or(line), &mut lines);
                    buf.clear();
                    rest = after;
                }
                None => break,
            }
        }
        lines
    }

    /// The unterminated last lines, at the end of the stream.
    pub fn finish(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.partial)
            .into_iter()
            .filter(|(_, b)| !b.is_empty())
            .map(|(node, b)| LogLine { node, line: String::from_utf8_lossy(&b).into_owned() })
            .collect()
    }
}

/// Turns `Logs` messages into lines: split per node; a node's in-band error ends the lines (after
/// those already received).
struct LogLines {
    fallback: String,
    splitter: LineSplitter,
    ready: std::collections::VecDeque<LogLine>,
    error_after: Option<Error>,
    done: bool,
}

impl LogLines {
    fn new(fallback: String) -> LogLines {
        LogLines {
            fallback,
            splitter: LineSplitter::default(),
            ready: Default::default(),
            error_after: None,
            done: false,
        }
    }

    fn push(&mut self, data: &common::Data) {
        if let Some(err) = in_band_error(data, &self.fallback) {
            self.finish(Some(err));
        } else {
            let node = node_of(data, &self.fallback);
            self.ready.extend(self.splitter.push(&node, &data.bytes));
        }
    }

    fn finish(&mut self, error: Option<Error>) {
        self.done = true;
        self.ready.extend(self.splitter.finish());
        self.error_after = error;
    }

    /// Ends the lines at a broken connection: an unfinished line is dropped (it was cut, not
    /// ended), so the lines handed out are whole ones.
    fn break_off(&mut self, error: Error) {
        self.done = true;
        self.splitter = LineSplitter::default();
        self.error_after = Some(error);
    }

    /// The next ready line, else (once finished) the error that ended the stream.
    fn next_ready(&mut self) -> Option<Option<Result<LogLine>>> {
        if let Some(line) = self.ready.pop_front() {
            return Some(Some(Ok(line)));
        }
        self.done.then(|| self.error_after.take().map(Err))
    }
}

/// A log stream, read line by line.
pub struct LogStream {
    stream: tonic::Streaming<common::Data>,
    lines: LogLines,
    /// Lines handed out so far (said when the connection breaks).
    delivered: usize,
}

impl std::fmt::Debug for LogStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogStream").field("fallback", &self.lines.fallback).field("done", &self.lines.done).finish()
    }
}

impl LogStream {
    /// The next line; `None` at the end of the stream. A node's in-band error ends the stream with that error
    /// (after the lines already received); `Canceled` ends it normally; a broken connection ends it with
    /// [`crate::ErrorKind::ConnectionLost`] saying how many lines had arrived (the stream is not reopened: lines
    /// would arrive twice).
    pub async fn next_line(&mut self) -> Option<Result<LogLine>> {
        loop {
            if let Some(next) = self.lines.next_ready() {
                self.delivered += usize::from(matches!(next, Some(Ok(_))));
                return next;
            }
            match self.stream.message().await {
                Ok(Some(data)) => self.lines.push(&data),
                Ok(None) => self.lines.finish(None),
                Err(status) if status.code() == Code::Cancelled => self.lines.finish(None),
                Err(status) if is_transport(&status) => {
                    // The whole lines already received are handed out before the error.
                    let delivered = Some((self.delivered + self.lines.ready.len(), "line"));
                    let lost = Error::connection_lost("Logs", &self.lines.fallback, delivered, false, status);
                    self.lines.break_off(lost);
                }
                Err(status) => self.lines.finish(Some(Error::from_status(Some(&self.lines.fallback), &status))),
            }
        }
    }

    /// Reads the stream to its end.
    pub async fn collect(mut self) -> Result<Vec<LogLine>> {
        let mut out = Vec::new();
        while let Some(item) = self.next_line().await {
            out.push(item?);
        }
        Ok(out)
    }
}

impl Client {
    /// `Logs`: a stream of lines (split per node). Without `follow` it ends when the log does.
    pub async fn logs(&self, target: &Target, request: &LogsRequest) -> Result<LogStream> {
        let fallback = self.fallback(target);
        let metadata = &machine_metadata(target)?;
        let message = &logs_message(request);
        let stream = self
            .read("Logs", Some(&fallback), || async move {
                self.machine().logs(rpc_request(metadata, message.clone())).await
            })
            .await?
            .into_inner();
        Ok(LogStream { stream, lines: LogLines::new(fallback), delivered: 0 })
    }

    /// `Logs` without follow, read to the end within the call timeout. The whole log is read
    /// before any line is returned, so a broken connection is read again from the start once.
    pub async fn logs_lines(&self, target: &Target, request: &LogsRequest) -> Result<Vec<LogLine>> {
        let fallback = self.fallback(target);
        let metadata = &machine_metadata(target)?;
        let message = &logs_message(&LogsRequest { follow: false, ..request.clone() });
        let messages = self
            .read("Logs", Some(&fallback), || async move {
                let mut stream = self.machine().logs(rpc_request(metadata, message.clone())).await?.into_inner();
                let mut messages = Vec::new();
                loop {
                    match stream.message().await {
                        Ok(Some(data)) => messages.push(data),
                        Ok(None) => return Ok(messages),
                        Err(status) if status.code() == Code::Cancelled => return Ok(messages),
                        Err(status) => return Err(status),
                    }
                }
            })
            .await?;
        let mut lines = LogLines::new(fallback);
        for data in &messages {
            if lines.done {
                break;
            }
            lines.push(data);
        }
        if !lines.done {
            lines.finish(None);
        }
        let mut out = Vec::new();
        while let Some(Some(item)) = lines.next_ready() {
            out.push(item?);
        }
        Ok(out)
    }
}

/// The `Logs` request for a [`LogsRequest`].
fn logs_message(request: &LogsRequest) -> machine::LogsRequest {
    let (namespace, driver) = if request.kubernetes {
        ("k8s.io", common::ContainerDriver::Cri)
    } else {
        ("system", common::ContainerDriver::Containerd)
    };
    machine::LogsRequest {
        namespace: namespace.to_string(),
        id: request.id.clone(),
        driver: driver as i32,
        follow: request.follow,
        tail_lines: request.tail.map_or(-1, |t| i32::try_from(t).unwrap_or(i32::MAX)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_per_node() {
        let mut s = LineSplitter::default();
        assert!(s.push("a", b"hel").is_empty());
        let got = s.push("b", b"x\ny");
        assert_eq!(got, vec![LogLine { node: "b".into(), line: "x".into() }]);
        let got = s.push("a", b"lo\r\nworld\n");
        assert_eq!(got.iter().map(|l| l.line.as_str()).collect::<Vec<_>>(), ["hello", "world"]);
        assert_eq!(s.finish(), vec![LogLine { node: "b".into(), line: "y".into() }]);
    }

    #[test]
    fn overlong_partial_lines_are_flushed() {
        let mut s = LineSplitter::default();
        let chunk = vec![b'x'; 4096];
        let mut got = Vec::new();
        for _ in 0..(3 * MAX_PARTIAL_LINE / chunk.len() + 1) {
            got.extend(s.push("a", &chunk));
        }
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|l| l.node == "a" && l.line.len() == MAX_PARTIAL_LINE));
        assert_eq!(s.partial.get("a").map(Vec::len), Some(4096));
        let got = s.push("a", b"y\nz");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line.len(), 4097);
        assert_eq!(s.finish(), vec![LogLine { node: "a".into(), line: "z".into() }]);

        // A line of exactly the limit stays one line.
        let mut line = vec![b'q'; MAX_PARTIAL_LINE];
        line.push(b'\n');
        let got = s.push("b", &line);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line.len(), MAX_PARTIAL_LINE);
        assert!(s.finish().is_empty());
    }
}
