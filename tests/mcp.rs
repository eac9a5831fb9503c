//! The MCP server's tools and every error path, called directly, and the server
//! over stdio: a parse error for a line that is not JSON, exit when stdin closes.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use incident_library::mcp::{Library, LIST_LIMIT, SEARCH_LIMIT};
use serde_json::{json, Map, Value};

fn library() -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dist");
    incident_build::bundle::build(
        &common::repo().join("data"),
        &out,
        common::analyzer(),
        &Default::default(),
        |_, _| {},
    )
    .unwrap();
    let lib = Library::open(&out, None).unwrap();
    (dir, lib)
}

/// `incident-library mcp` on the bundle built in `dir`, its three streams piped.
fn mcp_server(dir: &tempfile::TempDir) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["mcp", "--bundle"])
        .arg(dir.path().join("dist"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `incident-library mcp` on the shipped bundle with `input` on stdin; the
/// JSON-RPC messages it wrote, once it has ended cleanly on the end of stdin.
fn stdio(input: &[u8]) -> Vec<Value> {
    let (dir, _lib) = library();
    let mut child = mcp_server(&dir);
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the server ends cleanly when stdin closes: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("stdout carries only JSON-RPC"))
        .collect()
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

#[test]
fn tools_are_read_only_with_schemas() {
    let tools = Library::tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search_incidents",
            "list_incidents",
            "get_incident",
            "get_topic",
            "vocab"
        ]
    );
    for t in &tools {
        let a = t.annotations.as_ref().unwrap();
        assert_eq!(a.read_only_hint, Some(true), "{}", t.name);
        assert_eq!(
            t.output_schema.as_ref().unwrap().get("type"),
            Some(&json!("object")),
            "{}",
            t.name
        );
    }
}

#[test]
fn search_matches_the_browser_search_and_pages_with_a_cursor() {
    let (dir, lib) = library();
    let out = lib
        .call("search_incidents", &args(json!({"query": "재시도를", "limit": 1})))
        .unwrap();
    assert!(out["hits"][0]["title"].as_str().unwrap().contains("재시도"));
    // Scores come to three decimals, without the noise of a widened f32.
    let score = out["hits"][0]["score"].to_string();
    assert!(score.split('.').nth(1).is_none_or(|d| d.len() <= 3), "{score}");
    // Same code as the CLI and the browser.
    let index = incident_build::open::load_index(&dir.path().join("dist")).unwrap();
    let native = incident_core::search::search(
        &index,
        &incident_core::search::Request {
            query: "재시도를".into(),
            per_page: 1,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(out["total"], json!(native.total));
    assert_eq!(out["hits"][0]["id"], json!(native.hits[0].id));
    let cursor = out["next_cursor"]
        .as_str()
        .expect("more than one hit, so a cursor")
        .to_string();
    let page2 = lib
        .call(
            "search_incidents",
            &args(json!({"query": "재시도를", "limit": 1, "cursor": cursor})),
        )
        .unwrap();
    assert_eq!(page2["page"], json!(2));
    assert_ne!(page2["hits"][0]["id"], out["hits"][0]["id"]);
    // Filters narrow, and an unknown word is reported as unmatched.
    let f = lib
        .call(
            "search_incidents",
            &args(json!({"query": "장애", "filters": {"org": ["google-cloud"]}, "limit": SEARCH_LIMIT})),
        )
        .unwrap();
    assert!(f["hits"].as_array().unwrap().iter().all(|h| h["org"] == "google-cloud"));
}

#[test]
fn list_get_topic_and_vocab() {
    let (_dir, lib) = library();
    let list = lib
        .call(
            "list_incidents",
            &args(json!({"filters": {"component": ["cdn-edge"]}, "limit": LIST_LIMIT})),
        )
        .unwrap();
    let dates: Vec<&str> = list["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["date"].as_str().unwrap())
        .collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted, "newest first");
    let record = lib.call("get_incident", &args(json!({"id": "il-0004"}))).unwrap();
    assert_eq!(record["id"], "IL-0004");
    assert!(!record["checks"].as_array().unwrap().is_empty());
    // Sections come as a list in reading order, plain text unless asked otherwise.
    let sections = record["sections"].as_array().unwrap();
    let names: Vec<&str> = sections.iter().map(|s| s["name"].as_str().unwrap()).collect();
    let order: Vec<&str> = incident_core::sections::NAMES
        .iter()
        .copied()
        .filter(|n| names.contains(n))
        .collect();
    assert_eq!(names, order);
    assert_eq!(names.first(), Some(&"요약"));
    assert_eq!(names.last(), Some(&"교훈"));
    assert!(sections
        .iter()
        .all(|s| s["text"].as_str().is_some_and(|t| t.len() > 10) && s.get("markdown").is_none()));
    let markdown = lib
        .call("get_incident", &args(json!({"id": "IL-0004", "format": "markdown"})))
        .unwrap();
    assert!(markdown["sections"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["markdown"].is_string() && s.get("text").is_none()));
    assert!(lib
        .call("get_incident", &args(json!({"id": "IL-0004", "format": "html"})))
        .unwrap_err()
        .message()
        .contains("markdown"));
    // By default 요약, 원인 and 교훈; the others are named, and given when asked for.
    assert_eq!(names, ["요약", "원인", "교훈"]);
    let others: Vec<&str> = record["other_sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(!others.is_empty());
    let all = lib
        .call("get_incident", &args(json!({"id": "IL-0004", "sections": "all"})))
        .unwrap();
    let every: Vec<&str> = all["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(every.len(), names.len() + others.len());
    assert!(all["other_sections"].as_array().unwrap().is_empty());
    let two = lib
        .call(
            "get_incident",
            &args(json!({"id": "IL-0004", "sections": ["교훈", "증상"]})),
        )
        .unwrap();
    let two: Vec<&str> = two["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(two, ["증상", "교훈"], "reading order, whatever the order asked");
    assert!(lib
        .call("get_incident", &args(json!({"id": "IL-0004", "sections": ["결론"]})))
        .unwrap_err()
        .message()
        .contains("요약"));
    let topic = lib
        .call("get_topic", &args(json!({"facet": "component", "slug": "cdn-edge"})))
        .unwrap();
    assert_eq!(topic["slug"], "cdn-edge");
    let by_name = lib.call("get_topic", &args(json!({"name": "OOM"}))).unwrap();
    assert_eq!(by_name["slug"], "oom-killed");
    let vocab = lib.call("vocab", &Map::new()).unwrap();
    assert_eq!(vocab["facets"].as_array().unwrap().len(), 5);
    // Paged: every value once over the pages, in facet order.
    let total = vocab["total"].as_u64().unwrap() as usize;
    let mut seen: Vec<String> = Vec::new();
    let mut page = vocab;
    loop {
        seen.extend(
            page["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| format!("{}/{}", v["facet"].as_str().unwrap(), v["slug"].as_str().unwrap())),
        );
        let Some(cursor) = page["next_cursor"].as_str().map(str::to_string) else {
            break;
        };
        page = lib.call("vocab", &args(json!({"cursor": cursor}))).unwrap();
    }
    assert_eq!(seen.len(), total);
    let distinct: std::collections::BTreeSet<&String> = seen.iter().collect();
    assert_eq!(distinct.len(), total);
    let org = lib.call("vocab", &args(json!({"facet": "org"}))).unwrap();
    assert!(org["values"].as_array().unwrap().iter().all(|v| v["facet"] == "org"));
    let cursor = org["next_cursor"].as_str().unwrap();
    assert!(lib
        .call("vocab", &args(json!({"facet": "cause", "cursor": cursor})))
        .unwrap_err()
        .message()
        .contains("another facet"));
    assert!(lib
        .call("vocab", &args(json!({"facet": "team"})))
        .unwrap_err()
        .message()
        .contains("cause"));
}

#[test]
fn bad_arguments_say_what_to_do() {
    let (_dir, lib) = library();
    let err = |tool: &str, a: Value| lib.call(tool, &args(a)).unwrap_err().to_string();
    assert!(err("search_incidents", json!({"query": "  "})).contains("list_incidents"));
    assert!(err("search_incidents", json!({})).contains("list_incidents"));
    assert!(err("get_incident", json!({"id": "4"})).contains("IL-0004"));
    assert!(err("get_incident", json!({"id": "IL-9999"})).contains("search_incidents"));
    assert!(err("get_incident", json!({})).contains("required"));
    let e = err("list_incidents", json!({"filters": {"component": ["cdn"]}}));
    assert!(e.contains("cdn-edge") && e.contains("vocab"), "{e}");
    assert!(err("list_incidents", json!({"filters": {"team": ["x"]}})).contains("cause, component"));
    assert!(err("list_incidents", json!({"limit": LIST_LIMIT + 1})).contains(&LIST_LIMIT.to_string()));
    assert!(
        err("search_incidents", json!({"query": "장애", "limit": SEARCH_LIMIT + 1}))
            .contains(&SEARCH_LIMIT.to_string())
    );
    assert!(err("search_incidents", json!({"query": "장애", "sort": "best"})).contains("recent"));
    // A refused value is repeated printable and cut, and what was expected stays.
    let hostile = format!("\u{1b}[31m{}", "x".repeat(50_000));
    let e = err("search_incidents", json!({"query": "장애", "sort": hostile}));
    assert!(e.len() < 400 && !e.chars().any(char::is_control), "{e}");
    assert!(e.starts_with("sort: ") && e.contains("recent"), "{e}");
    let e = err("get_incident", json!({"id": "IL-0004", "format": "x\n".repeat(10_000)}));
    assert!(
        e.len() < 400 && !e.chars().any(char::is_control) && e.contains("markdown"),
        "{e}"
    );
    assert!(err("search_incidents", json!({"query": "장애", "cursor": "garbage"})).contains("without a cursor"));
    let first = lib
        .call("search_incidents", &args(json!({"query": "장애", "limit": 1})))
        .unwrap();
    let stale = first["next_cursor"].as_str().unwrap();
    assert!(err(
        "search_incidents",
        json!({"query": "배포", "limit": 1, "cursor": stale})
    )
    .contains("another query"));
    assert!(err("get_topic", json!({"facet": "team", "slug": "x"})).contains("cause, component"));
    assert!(err("get_topic", json!({"facet": "component", "slug": "nope"})).contains("cdn-edge"));
    assert!(err("get_topic", json!({"name": "없는 분류"})).contains("vocab"));
    assert!(err("get_topic", json!({})).contains("facet and slug"));
    assert!(lib
        .call("no_such_tool", &Map::new())
        .unwrap_err()
        .message()
        .contains("search_incidents"));
}

#[test]
fn stdio_parse_errors_and_exit_on_eof() {
    let input = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}).to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        "this is not json".to_string(),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_incident", "arguments": {"id": "IL-9999"}}}).to_string(),
    ];
    let lines = stdio((input.join("\n") + "\n").as_bytes());
    assert!(lines.iter().any(|l| l["error"]["code"] == -32700), "{lines:?}");
    let call = lines.iter().find(|l| l["id"] == 2).unwrap();
    assert_eq!(call["result"]["isError"], true);
}

#[test]
fn stdio_answers_hostile_lines_and_keeps_serving() {
    let mut input: Vec<u8> = Vec::new();
    let mut line = |bytes: &[u8]| {
        input.extend_from_slice(bytes);
        input.push(b'\n');
    };
    // A request before initialize: an error for it, and the server stays up.
    line(
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/list"})
            .to_string()
            .as_bytes(),
    );
    line(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}).to_string().as_bytes());
    line(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
            .to_string()
            .as_bytes(),
    );
    // Not UTF-8.
    line(b"{\"jsonrpc\": \"2.0\", \"id\": 11, \"method\": \"tools/list\", \"x\": \"\xff\xfe\"}");
    // A lone surrogate: not valid JSON text, but its id can be read.
    line(br#"{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "search_incidents", "arguments": {"query": "\ud800"}}}"#);
    // tools/call without a name, and with arguments that are not an object.
    line(
        json!({"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {}})
            .to_string()
            .as_bytes(),
    );
    line(
        json!({"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "vocab", "arguments": [1]}})
            .to_string()
            .as_bytes(),
    );
    // And then a good call still works.
    line(json!({"jsonrpc": "2.0", "id": 15, "method": "tools/call", "params": {"name": "search_incidents", "arguments": {"query": "재시도"}}}).to_string().as_bytes());
    let replies = stdio(&input);
    let reply = |id: i64| {
        replies
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no reply to {id}: {replies:#?}"))
    };
    assert_eq!(reply(10)["error"]["code"], -32002);
    assert_eq!(reply(11)["error"]["code"], -32700);
    assert_eq!(reply(12)["error"]["code"], -32700);
    assert_eq!(reply(13)["error"]["code"], -32602);
    assert_eq!(reply(14)["error"]["code"], -32602);
    assert!(
        reply(15)["result"]["structuredContent"]["total"].as_u64().unwrap() > 0,
        "{:#?}",
        reply(15)
    );
}

#[test]
fn a_100_kb_query_is_cut_and_answered_at_once() {
    let (_dir, lib) = library();
    let query = format!("재시도 {}", "가".repeat(100_000));
    let started = std::time::Instant::now();
    let out = lib.call("search_incidents", &args(json!({"query": query}))).unwrap();
    // Not a timing test of the search: before the cut this took 20 s here.
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(out["note"].as_str().unwrap().contains("cut"), "{out}");
    assert!(out["total"].as_u64().unwrap() > 0);
}

fn init_lines() -> Vec<String> {
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}).to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

/// Error replies follow JSON-RPC 2.0's rules on ids: the request's own id when it
/// is a valid one (string, number, null), `null` when it cannot be read or is not
/// valid, never a number read from inside `params` or cut from `1e400`.
#[test]
fn error_replies_carry_the_right_id() {
    let mut lines = init_lines();
    let cases: Vec<(String, Value, i64)> = vec![
        (
            r#"{"jsonrpc": "1.0", "id": 20, "method": "tools/list"}"#.into(),
            json!(20),
            -32600,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": "s21", "method": "tools/list", "params": []}"#.into(),
            json!("s21"),
            -32602,
        ),
        (r#"{"jsonrpc": "2.0", "id": 22, "method": 7}"#.into(), json!(22), -32600),
        (
            r#"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}"#.into(),
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1e400, "method": "tools/list"}"#.into(),
            Value::Null,
            -32700,
        ),
        (
            r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"id": 23, "name": "x"}, "id": "#.into(),
            Value::Null,
            -32700,
        ),
        (
            r#"{"jsonrpc": "2.0", "params": {"id": 24}, "id": 25, "method": "tools/list", "x": "\ud800"}"#.into(),
            json!(25),
            -32700,
        ),
    ];
    for (line, _, _) in &cases {
        lines.push(line.clone());
    }
    lines.push(json!({"jsonrpc": "2.0", "id": 26, "method": "tools/list"}).to_string());
    let replies = stdio((lines.join("\n") + "\n").as_bytes());
    let errors: Vec<&Value> = replies.iter().filter(|r| r.get("error").is_some()).collect();
    assert_eq!(errors.len(), cases.len(), "{replies:#?}");
    for ((line, id, code), reply) in cases.iter().zip(&errors) {
        assert_eq!(&reply["id"], id, "{line}: {reply}");
        assert_eq!(reply["error"]["code"], *code, "{line}: {reply}");
        assert_eq!(reply["jsonrpc"], "2.0");
    }
    assert!(
        replies.iter().any(|r| r["id"] == 26 && r.get("result").is_some()),
        "the session goes on"
    );
}

/// A message over the limit (17 MiB, where the SDK would drop it unanswered) gets an
/// error with its id, and the session goes on.
#[test]
fn an_oversized_message_gets_an_error_with_its_id() {
    let mut input = init_lines().join("\n").into_bytes();
    input.push(b'\n');
    let big = "가".repeat((17 << 20) / 3);
    input.extend_from_slice(
        json!({"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": {"name": "search_incidents", "arguments": {"query": big}}})
            .to_string()
            .as_bytes(),
    );
    input.push(b'\n');
    input.extend_from_slice(
        json!({"jsonrpc": "2.0", "id": 31, "method": "tools/list"})
            .to_string()
            .as_bytes(),
    );
    input.push(b'\n');
    let replies = stdio(&input);
    let over = replies
        .iter()
        .find(|r| r["id"] == 30)
        .unwrap_or_else(|| panic!("{replies:#?}"));
    assert_eq!(over["error"]["code"], -32600);
    assert!(over["error"]["message"].as_str().unwrap().contains("8 MiB"));
    assert!(replies.iter().any(|r| r["id"] == 31 && r.get("result").is_some()));
}

/// 300 MB without a newline is read in bounded memory: the server's peak resident
/// memory stays far below the line's size, it answers the line, and goes on.
#[cfg(target_os = "linux")]
#[test]
fn a_300_mb_line_is_read_in_bounded_memory() {
    let (dir, _lib) = library();
    let mut child = mcp_server(&dir);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all((init_lines().join("\n") + "\n").as_bytes()).unwrap();
    stdin
        .write_all(br#"{"jsonrpc": "2.0", "id": 40, "method": "tools/list", "x": ""#)
        .unwrap();
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..300 {
        stdin.write_all(&chunk).unwrap();
    }
    stdin.write_all(b"\"}\n").unwrap();
    stdin
        .write_all((json!({"jsonrpc": "2.0", "id": 41, "method": "tools/list"}).to_string() + "\n").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    // Everything written was read (the pipe holds 64 KB at most): the peak so far.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(peak_kb < 200 * 1024, "peak {peak_kb} kB for a 300 MB line");
    let replies: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let over = replies
        .iter()
        .find(|r| r["id"] == 40)
        .unwrap_or_else(|| panic!("{replies:#?}"));
    assert_eq!(over["error"]["code"], -32600);
    assert!(replies.iter().any(|r| r["id"] == 41 && r.get("result").is_some()));
}

/// A damaged API file is an error, not an empty answer; a long name is not echoed whole.
#[test]
fn a_damaged_vocab_file_is_an_error_and_long_names_are_cut() {
    let (dir, _) = library();
    let out = dir.path().join("dist");
    std::fs::write(out.join("api/v1/vocab.json"), r#"{"data": null}"#).unwrap();
    let lib = Library::open(&out, None).unwrap();
    let err = lib.call("vocab", &args(json!({}))).unwrap_err();
    // The bundle's fault, not the call's: the kind says so.
    assert!(matches!(err, incident_library::mcp::ToolError::Bundle(_)), "{err:?}");
    assert!(err.message().contains("damaged"), "{err}");
    let name = "x".repeat(1_000_000);
    let err = lib.call("get_topic", &args(json!({"name": name}))).unwrap_err();
    assert!(matches!(err, incident_library::mcp::ToolError::Arguments(_)), "{err:?}");
    let err = err.to_string();
    assert!(err.len() < 400, "{} bytes", err.len());
    assert!(err.contains("1000000 characters"), "{err}");
}
