//! The services' log buffers: bounded byte logs with followers, machined's own lines, and the
//! `Logs` read (tail, follow).

use std::time::SystemTime;

use tokio::sync::broadcast;

use super::error::NodeError;
use super::{Inner, Node, lock};
use crate::util::go_log_time;

/// Upper bound of one log buffer; older whole lines are dropped.
const MAX_LOG: usize = 1 << 20;

/// A log read: the bytes so far and, when following, the receiver of later appends.
pub type LogRead = (Vec<u8>, Option<broadcast::Receiver<Vec<u8>>>);

/// One service's log: its bytes and the channel of later appends.
pub(super) struct LogBuf {
    data: Vec<u8>,
    tx: broadcast::Sender<Vec<u8>>,
}

impl LogBuf {
    /// An empty log.
    pub(super) fn empty() -> LogBuf {
        let (tx, _) = broadcast::channel(1024);
        LogBuf { data: Vec::new(), tx }
    }
}

impl Node {
    pub(super) fn append_log(&self, inner: &mut Inner, id: &str, bytes: &[u8]) {
        if let Some(buf) = inner.logs.get_mut(id) {
            buf.data.extend_from_slice(bytes);
            if buf.data.len() > MAX_LOG {
                let cut = buf.data.len() - MAX_LOG;
                let cut = buf.data[cut..].iter().position(|b| *b == b'\n').map(|p| cut + p + 1).unwrap_or(cut);
                buf.data.drain(..cut);
            }
            let _ = buf.tx.send(bytes.to_vec());
        }
    }

    pub(super) fn machined_log(&self, inner: &mut Inner, msg: &str) {
        let line = format!("[talos] {} {msg}\n", go_log_time(SystemTime::now()));
        self.append_log(inner, "machined", line.as_bytes());
    }

    /// Appends a line to machined's log (used for the gRPC access lines).
    pub fn log_machined_raw(&self, line: &str) {
        let mut inner = lock(&self.inner);
        let mut l = line.to_string();
        if !l.ends_with('\n') {
            l.push('\n');
        }
        self.append_log(&mut inner, "machined", l.as_bytes());
    }

    /// A service log: the last `tail` lines (all when negative) and, with `follow`, a receiver
    /// for what is appended afterwards.
    pub fn logs(&self, id: &str, tail: i32, follow: bool) -> Result<LogRead, NodeError> {
        let inner = lock(&self.inner);
        let Some(buf) = inner.logs.get(id) else {
            return Err(NodeError::Unknown(format!("log {} was not registered", talos_go::quote(id))));
        };
        let data = &buf.data;
        let start = if tail < 0 {
            0
        } else {
            let mut n = tail as usize;
            let body = data.strip_suffix(b"\n").unwrap_or(data);
            let mut pos = body.len();
            let mut start = 0;
            if n == 0 {
                start = data.len();
            } else {
                while let Some(p) = body[..pos].iter().rposition(|b| *b == b'\n') {
                    n -= 1;
                    if n == 0 {
                        start = p + 1;
                        break;
                    }
                    pos = p;
                }
            }
            start
        };
        let rx = follow.then(|| buf.tx.subscribe());
        Ok((data[start..].to_vec(), rx))
    }
}
