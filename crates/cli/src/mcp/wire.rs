//! Screening stdin lines before the SDK sees them: what it would end the session on,
//! or answer with the wrong JSON-RPC code, is answered here.

use serde_json::{json, Value};

/// What to do with one line of stdin.
pub(super) enum Screened {
    /// Pass it to the SDK.
    Forward,
    /// Answer it here with this JSON-RPC message.
    Answer(Value),
    /// Drop it (a notification that cannot be handled yet).
    Drop,
}

/// The longest message read: a longer line is not kept in memory (only its first
/// bytes, to find its id) and gets an error, where the SDK would drop it unanswered.
pub(super) const MAX_MESSAGE: usize = 8 << 20;

/// How a line of stdin was read.
pub(super) enum Line {
    /// Stdin has ended.
    End,
    /// A whole line (its newline included) is in the buffer.
    Whole,
    /// The line was longer than the limit: the buffer holds its first bytes; the
    /// rest was read and dropped.
    TooLong,
}

/// Reads one line into `raw`, holding at most `max` bytes of it however long it is.
pub(super) async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(
    input: &mut R,
    raw: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    use tokio::io::AsyncBufReadExt;
    let mut over = false;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (raw.is_empty() && !over, over) {
                (true, _) => Line::End,
                (_, true) => Line::TooLong,
                _ => Line::Whole,
            });
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = max.saturating_sub(raw.len());
        if take > room {
            over = true;
        }
        raw.extend_from_slice(&buf[..take.min(room)]);
        input.consume(take);
        if done {
            return Ok(if over { Line::TooLong } else { Line::Whole });
        }
    }
}

/// The error for a line over [`MAX_MESSAGE`], with the request's id when its first
/// bytes show it.
pub(super) fn too_long(start: &[u8]) -> Value {
    eprintln!("mcp: a line over {} MiB got an error", MAX_MESSAGE >> 20);
    error(
        salvage_id(&String::from_utf8_lossy(start)),
        -32600,
        &format!("Invalid Request: a message is at most {} MiB", MAX_MESSAGE >> 20),
    )
}

/// The id of a request line, even when the line is not valid JSON (a lone
/// surrogate, a stray byte), so that the client's call gets its error, not a
/// timeout: the `"id"` key of the outer object only (not one inside `params`), a
/// string or a plain integer; anything else (`1e400`, an object) is `null`.
fn salvage_id(line: &str) -> Value {
    let bytes = line.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                // A string: a key of the outer object when it is followed by a colon.
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let key = line.get(start..j.min(line.len())).unwrap_or("");
                let rest = line.get((j + 1).min(line.len())..).unwrap_or("").trim_start();
                if depth == 1 && key == "id" {
                    if let Some(value) = rest.strip_prefix(':') {
                        return id_token(value.trim_start());
                    }
                }
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Value::Null
}

/// The id at the start of `value`: a string without escapes, or a plain integer
/// that a delimiter ends.
fn id_token(value: &str) -> Value {
    if let Some(s) = value.strip_prefix('"') {
        return match s.split_once('"') {
            Some((v, _)) if !v.contains('\\') => json!(v),
            _ => Value::Null,
        };
    }
    let digits: String = value
        .chars()
        .enumerate()
        .take_while(|&(k, c)| c.is_ascii_digit() || (k == 0 && c == '-'))
        .map(|(_, c)| c)
        .collect();
    let ended = value[digits.len()..]
        .chars()
        .next()
        .is_none_or(|c| c == ',' || c == '}' || c.is_whitespace());
    match digits.parse::<i64>() {
        Ok(n) if ended => json!(n),
        _ => Value::Null,
    }
}

/// True for an id JSON-RPC allows: a string, a number or null.
fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_number() || id.is_null()
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Screens a line of stdin before the SDK sees it: lines that are not UTF-8 or not
/// JSON get a parse error (with the request's id where it can be read), requests
/// before `initialize` get "not initialized" rather than ending the server, and a
/// `tools/call` without a tool name gets "invalid params".
pub(super) fn screen(line: &str, utf8: bool, initialized: &mut bool) -> Screened {
    let parsed = if utf8 {
        serde_json::from_str::<Value>(line).ok()
    } else {
        None
    };
    let Some(message) = parsed.filter(Value::is_object) else {
        eprintln!("mcp: a line that is not a JSON-RPC message got a parse error");
        let why = if utf8 {
            "each line must be one JSON-RPC message"
        } else {
            "the line is not UTF-8"
        };
        return Screened::Answer(error(salvage_id(line), -32700, &format!("Parse error: {why}")));
    };
    let id = message.get("id").cloned();
    // The request's id for an error: its own when it is a valid id, else null.
    let reply_id = || id.clone().filter(valid_id).unwrap_or(Value::Null);
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Screened::Answer(error(reply_id(), -32600, "Invalid Request: jsonrpc must be \"2.0\""));
    }
    if id.as_ref().is_some_and(|i| !valid_id(i)) {
        return Screened::Answer(error(
            Value::Null,
            -32600,
            "Invalid Request: id must be a string, a number or null",
        ));
    }
    let method = match message.get("method") {
        Some(Value::String(m)) => m.as_str(),
        // A response or an error from the client: nothing to answer.
        None if message.get("result").is_some() || message.get("error").is_some() => return Screened::Drop,
        _ => {
            return Screened::Answer(error(reply_id(), -32600, "Invalid Request: method must be a string"));
        }
    };
    if message.get("params").is_some_and(|p| !p.is_object()) {
        return Screened::Answer(error(reply_id(), -32602, "Invalid params: params must be an object"));
    }
    if method == "initialize" {
        *initialized = true;
        return Screened::Forward;
    }
    if !*initialized {
        return match id {
            Some(id) if !method.is_empty() => {
                Screened::Answer(error(id, -32002, "Server not initialized: send initialize first"))
            }
            _ => Screened::Drop,
        };
    }
    if method == "tools/call" {
        let name = message
            .get("params")
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str);
        let arguments_ok = message
            .get("params")
            .and_then(|p| p.get("arguments"))
            .is_none_or(Value::is_object);
        if name.is_none() || !arguments_ok {
            return Screened::Answer(error(
                id.unwrap_or(Value::Null),
                -32602,
                "Invalid params: tools/call takes {\"name\": a tool name, \"arguments\": an object}",
            ));
        }
    }
    Screened::Forward
}
