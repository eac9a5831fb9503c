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

/// The id of a request line, even when the line is not valid JSON (a lone
/// surrogate, a stray byte): so that the client's call gets its error, not a
/// timeout.
fn salvage_id(line: &str) -> Value {
    let Some(at) = line.find("\"id\"") else {
        return Value::Null;
    };
    let rest = line[at + 4..].trim_start().strip_prefix(':').unwrap_or("").trim_start();
    if let Some(s) = rest.strip_prefix('"') {
        return s.split('"').next().map_or(Value::Null, |v| json!(v));
    }
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
    digits.parse::<i64>().map_or(Value::Null, |n| json!(n))
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
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
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
