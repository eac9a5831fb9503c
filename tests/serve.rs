//! `incident-library serve` under careless and hostile clients: every reply has the
//! body its length says, CORS preflights are answered, bare-LF requests are read,
//! oversized and trickled heads get a status line and let go of their thread.
//! Every connection goes to 127.0.0.1 only.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

fn server() -> (tempfile::TempDir, SocketAddr) {
    server_with(Default::default())
}

/// [`server`] with the given deadlines.
fn server_with(deadlines: incident_library::serve::Deadlines) -> (tempfile::TempDir, SocketAddr) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html><title>x</title>").unwrap();
    std::fs::create_dir(dir.path().join("index")).unwrap();
    std::fs::write(dir.path().join("index/meta.bin"), b"ILIX").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let root = dir.path().to_path_buf();
    std::thread::spawn(move || incident_library::serve::serve_with(listener, &root, None, || Ok(()), deadlines));
    (dir, addr)
}

/// Sends `request` and reads the whole reply (the server closes each connection).
fn exchange(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Status line, and whether the body is as long as Content-Length says.
fn check(reply: &str) -> (String, bool) {
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((reply, ""));
    let len: Option<usize> = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|v| v.trim().parse().ok());
    (head.lines().next().unwrap_or("").to_string(), len == Some(body.len()))
}

#[test]
fn every_reply_carries_the_body_it_announces() {
    let (_dir, addr) = server();
    for (request, status) in [
        (&b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"[..], "HTTP/1.1 200 OK"),
        (
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 405 Method Not Allowed",
        ),
        (
            b"DELETE /index/meta.bin HTTP/1.1\r\n\r\n",
            "HTTP/1.1 405 Method Not Allowed",
        ),
        (b"GET /nothing HTTP/1.1\r\n\r\n", "HTTP/1.1 404 Not Found"),
    ] {
        let reply = exchange(addr, request);
        let (line, whole) = check(&reply);
        assert_eq!(line, status, "{reply}");
        assert!(whole, "the body must be as long as Content-Length says: {reply:?}");
    }
    let reply = exchange(addr, b"POST / HTTP/1.1\r\n\r\n");
    assert!(reply.contains("Allow: GET, HEAD\r\n"), "{reply}");
}

#[test]
fn cors_preflights_are_answered_for_the_shared_paths() {
    let (_dir, addr) = server();
    let reply = exchange(
        addr,
        b"OPTIONS /index/meta.bin HTTP/1.1\r\nOrigin: https://docs.example.org\r\nAccess-Control-Request-Method: GET\r\n\r\n",
    );
    assert!(reply.starts_with("HTTP/1.1 204 No Content"), "{reply}");
    assert!(reply.contains("Access-Control-Allow-Origin: *"), "{reply}");
    assert!(
        reply.contains("Access-Control-Allow-Methods: GET, HEAD, OPTIONS"),
        "{reply}"
    );
    // The site's own pages are not shared: no preflight there.
    let reply = exchange(addr, b"OPTIONS / HTTP/1.1\r\n\r\n");
    assert!(reply.starts_with("HTTP/1.1 405"), "{reply}");
}

#[test]
fn bare_lf_requests_are_read_at_once() {
    let (_dir, addr) = server();
    let started = Instant::now();
    let reply = exchange(addr, b"GET / HTTP/1.0\nHost: x\n\n");
    assert!(reply.starts_with("HTTP/1.1 200 OK"), "{reply}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered without waiting for a CRLF"
    );
}

#[test]
fn an_oversized_head_gets_a_status_line() {
    let (_dir, addr) = server();
    let mut request = b"GET / HTTP/1.1\r\n".to_vec();
    for i in 0..2000 {
        request.extend_from_slice(format!("X-Filler-{i}: {}\r\n", "a".repeat(40)).as_bytes());
    }
    request.extend_from_slice(b"\r\n");
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // The server may stop reading once it has seen enough; a failed write is fine.
    let _ = s.write_all(&request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let reply = String::from_utf8_lossy(&out);
    assert!(reply.starts_with("HTTP/1.1 431"), "{reply}");
}

#[test]
fn a_trickling_client_is_let_go_after_the_deadline() {
    // The head deadline given as one second, not waited out at its real ten.
    let deadline = Duration::from_secs(1);
    let (_dir, addr) = server_with(incident_library::serve::Deadlines {
        head: deadline,
        ..Default::default()
    });
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let started = Instant::now();
    let mut out = Vec::new();
    // One header line every 0.2 s, for at most 6 s: the server must answer 408 and
    // close once its deadline has passed.
    for i in 0..30 {
        if s.write_all(format!("X-Slow-{i}: 1\r\n").as_bytes()).is_err() {
            break;
        }
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
        if !out.is_empty() {
            break;
        }
    }
    let reply = String::from_utf8_lossy(&out);
    assert!(
        reply.starts_with("HTTP/1.1 408"),
        "after {:?}: {reply:?}",
        started.elapsed()
    );
    assert!(started.elapsed() >= deadline, "answered before the deadline");
}

/// A link in the bundle that leads out of it is not followed: 404, not the file.
/// One that stays inside the bundle is served.
#[cfg(unix)]
#[test]
fn links_out_of_the_bundle_are_not_served() {
    let (dir, addr) = server();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), dir.path().join("x")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("index.html"), dir.path().join("inside.html")).unwrap();
    for path in ["/x", "/out/secret.txt"] {
        let reply = exchange(addr, format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
        assert!(reply.starts_with("HTTP/1.1 404"), "{path}: {reply}");
        assert!(!reply.contains("secret"), "{path}: {reply}");
    }
    let reply = exchange(addr, b"GET /inside.html HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
}

/// A head whose lines end in CRLF and LF mixed is read at once, not after the deadline.
#[test]
fn mixed_line_endings_are_read_at_once() {
    let (_dir, addr) = server();
    for request in [
        &b"GET / HTTP/1.1\r\nHost: x\n\r\n"[..],
        b"GET / HTTP/1.1\nHost: x\r\n\n",
        b"GET / HTTP/1.1\nHost: x\r\n\r\n",
    ] {
        let started = Instant::now();
        let reply = exchange(addr, request);
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    }
}

/// Past the bound on open connections a client gets 503 at once; once they close,
/// requests are answered again.
#[test]
fn connections_are_bounded() {
    let (_dir, addr) = server();
    let idle: Vec<TcpStream> = (0..incident_library::serve::MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(addr).unwrap())
        .collect();
    // The server takes connections in order: once the last idle one is counted, a
    // request is refused at once. Asked until then, not after a guessed pause.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let started = Instant::now();
        let reply = exchange(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        if reply.starts_with("HTTP/1.1 503") {
            assert!(started.elapsed() < Duration::from_secs(5));
            break;
        }
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(
            Instant::now() < deadline,
            "never refused past {} connections",
            incident_library::serve::MAX_CONNECTIONS
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(idle);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let reply = exchange(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        if reply.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {reply}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn text_is_gzipped_for_clients_that_accept_it_and_cached_as_hosts_cache_it() {
    let (dir, addr) = server();
    let script = "const 장애 = 1;\n".repeat(100);
    std::fs::write(dir.path().join("app.js"), &script).unwrap();
    let raw = |request: &str| -> (String, Vec<u8>) {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let at = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        (String::from_utf8_lossy(&out[..at]).into_owned(), out[at + 4..].to_vec())
    };
    let (head, body) = raw("GET /app.js?v=1 HTTP/1.1\r\nAccept-Encoding: gzip, br\r\n\r\n");
    assert!(head.contains("Content-Encoding: gzip"), "{head}");
    assert!(head.contains(&format!("Content-Length: {}", body.len())), "{head}");
    // A file addressed by build is kept, as `_headers` keeps it.
    assert!(
        head.contains("Cache-Control: public, max-age=31536000, immutable"),
        "{head}"
    );
    let mut text = String::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, script);
    assert!(body.len() < script.len() / 4);
    // Without Accept-Encoding, the file as it is.
    let (head, body) = raw("GET /app.js?v=1 HTTP/1.1\r\n\r\n");
    assert!(!head.contains("Content-Encoding"), "{head}");
    assert_eq!(body, script.as_bytes());
    // An entry file is revalidated.
    let (head, _) = raw("GET /index/meta.bin HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n");
    assert!(head.contains("Cache-Control: no-cache"), "{head}");
}

#[test]
fn a_missing_api_file_is_answered_in_json() {
    let (_dir, addr) = server();
    let reply = exchange(addr, b"GET /api/v1/incidents/IL-9999.json HTTP/1.1\r\n\r\n");
    let (status, whole) = check(&reply);
    assert_eq!(status, "HTTP/1.1 404 Not Found");
    assert!(whole && reply.contains("Content-Type: application/json"), "{reply}");
    let body: serde_json::Value = serde_json::from_str(reply.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(body["error"], "not_found");
    assert_eq!(body["path"], "/api/v1/incidents/IL-9999.json");
    // Elsewhere, the site's page.
    let reply = exchange(addr, b"GET /incidents/IL-9999/ HTTP/1.1\r\n\r\n");
    assert!(reply.contains("Content-Type: text/html"), "{reply}");
}
