//! `incident-library serve`: a small static file server for the bundle on
//! localhost, with the right MIME types (wasm included), and a watcher that
//! rebuilds the bundle when the corpus changes.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

use incident_build::error::{Error, Result};

/// The MIME type for a file name.
pub fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "xml" => "application/xml",
        "txt" | "md" => "text/plain; charset=utf-8",
        "bin" => "application/octet-stream",
        _ => "application/octet-stream",
    }
}

/// True for the kinds of file worth compressing: text, JSON, wasm and the index
/// files (which compress to about half). Images are compressed already.
fn compressible(kind: &str) -> bool {
    kind.starts_with("text/") || kind.starts_with("application/") || kind == "image/svg+xml"
}

/// True when the request head accepts gzip (`Accept-Encoding: gzip, br`, not
/// `gzip;q=0`).
fn accepts_gzip(head: &str) -> bool {
    head.lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(name, _)| name.trim().eq_ignore_ascii_case("accept-encoding"))
        .flat_map(|(_, value)| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let zero = parts.any(|p| {
                p.strip_prefix("q=")
                    .is_some_and(|q| q.parse::<f32>().is_ok_and(|q| q == 0.0))
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !zero
        })
}

/// `body` gzip-compressed, as a static host sends it.
fn gzip(body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = e.write_all(body);
    e.finish().unwrap_or_default()
}

/// Resolves a request path inside `root`: `/` and folders map to `index.html`;
/// anything that would leave `root`, by `..` or through a link, is refused.
pub fn resolve(root: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let decoded = percent_decode(path)?;
    let mut out = root.to_path_buf();
    for part in Path::new(&decoded).components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::CurDir => {}
            _ => return None,
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    // A link inside the bundle is followed only while it stays inside it: `ln -s
    // /etc/passwd dist/x` must not serve the file. A path that does not exist is
    // left to the caller's 404.
    match (fs::canonicalize(root), fs::canonicalize(&out)) {
        (Ok(real_root), Ok(real)) if !real.starts_with(&real_root) => None,
        _ => Some(out),
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A fingerprint of a folder's files (count, newest modification, total size), to
/// notice edits.
fn fingerprint(dir: &Path) -> (usize, Option<SystemTime>, u64) {
    let mut acc = (0, None, 0);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(e.path());
            } else {
                acc.0 += 1;
                acc.2 += meta.len();
                let m = meta.modified().ok();
                if m > acc.1 {
                    acc.1 = m;
                }
            }
        }
    }
    acc
}

/// Serves `root` on `host:port` until the process ends. When `watch` is given,
/// `rebuild` runs whenever a file below it changes; a failed rebuild is reported
/// and the last good bundle keeps being served.
///
/// The server is deliberately plain: one thread a connection, one request a
/// connection (`Connection: close`), GET and HEAD (and OPTIONS preflights for the
/// paths other origins may read). It is for local use.
pub fn serve(
    host: &str,
    port: u16,
    root: &Path,
    watch: Option<&Path>,
    rebuild: impl Fn() -> Result<()> + Send + 'static,
) -> Result<()> {
    let listener = std::net::TcpListener::bind((host, port)).map_err(|e| {
        Error::msg(format!(
            "cannot listen on {host}:{port}: {e}\n  hint: pick another --port"
        ))
    })?;
    // With --port 0 the system picks a free port; say which.
    let port = listener.local_addr().map_or(port, |a| a.port());
    println!("serving {} at http://{host}:{port}/ (Ctrl-C stops)", root.display());
    serve_on(listener, root, watch, rebuild)
}

/// [`serve`] on a listener already bound (tests bind port 0 and read the port).
pub fn serve_on(
    listener: std::net::TcpListener,
    root: &Path,
    watch: Option<&Path>,
    rebuild: impl Fn() -> Result<()> + Send + 'static,
) -> Result<()> {
    serve_with(listener, root, watch, rebuild, Deadlines::default())
}

/// How long a client may take: to send its request head, and to read each write.
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    /// Time a client has to send its whole request head.
    pub head: Duration,
    /// Time a write to a client may wait for it to read.
    pub write: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            head: HEAD_DEADLINE,
            write: WRITE_DEADLINE,
        }
    }
}

/// [`serve_on`] with other [`Deadlines`] (tests give short ones rather than wait).
pub fn serve_with(
    listener: std::net::TcpListener,
    root: &Path,
    watch: Option<&Path>,
    rebuild: impl Fn() -> Result<()> + Send + 'static,
    deadlines: Deadlines,
) -> Result<()> {
    if let Some(dir) = watch {
        let dir = dir.to_path_buf();
        std::thread::spawn(move || {
            let mut last = fingerprint(&dir);
            loop {
                std::thread::sleep(Duration::from_millis(700));
                let now = fingerprint(&dir);
                if now != last {
                    last = now;
                    println!("{} changed: rebuilding", dir.display());
                    if let Err(e) = rebuild() {
                        eprintln!("rebuild failed; still serving the last good bundle\n{e}");
                    }
                }
            }
        });
    }
    let trace = std::env::var_os("IL_TRACE").is_some();
    let open = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        use std::sync::atomic::Ordering;
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            // Past the bound a client is told at once, on this thread, and let go.
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = std::io::Write::write_all(
                &mut stream,
                b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy",
            );
            continue;
        }
        let root = root.to_path_buf();
        let open = open.clone();
        std::thread::spawn(move || {
            if let Err(e) = answer(stream, &root, trace, deadlines) {
                if trace {
                    eprintln!("connection: {e}");
                }
            }
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

/// Connections answered at once: each holds a thread, so past this many a client
/// gets `503` at once instead of a thread.
pub const MAX_CONNECTIONS: usize = 64;
/// Time a write to a client may wait for it to read: a client that stops reading a
/// large file lets go of its thread and its memory after this.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(10);

/// Longest request head read, in bytes.
pub const MAX_HEAD: usize = 64 * 1024;
/// Time a client has to send its whole request head.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// Reads one request head: up to the blank line (CRLF or bare LF), at most
/// [`MAX_HEAD`] bytes, within `deadline` ([`HEAD_DEADLINE`]) in all (a client that
/// trickles a line every few seconds does not hold its thread for longer).
fn read_head(stream: &mut std::net::TcpStream, deadline: Duration) -> std::result::Result<Vec<u8>, &'static str> {
    use std::io::Read;
    let started = std::time::Instant::now();
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(end) = head_end(&head) {
            head.truncate(end);
            return Ok(head);
        }
        if head.len() > MAX_HEAD {
            return Err("431 Request Header Fields Too Large");
        }
        let left = deadline.checked_sub(started.elapsed()).filter(|d| !d.is_zero());
        let Some(left) = left else {
            return Err("408 Request Timeout");
        };
        stream.set_read_timeout(Some(left)).map_err(|_| "400 Bad Request")?;
        match stream.read(&mut buf) {
            Ok(0) => return Err(""),
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return Err("408 Request Timeout")
            }
            Err(_) => return Err(""),
        }
    }
}

/// Where the head ends: after the first empty line, whatever each line ends with
/// (`\r\n\r\n`, `\n\n`, or the two mixed: `\n\r\n`).
fn head_end(head: &[u8]) -> Option<usize> {
    let cr = head.windows(3).position(|w| w == b"\n\r\n").map(|i| i + 3);
    let lf = head.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    match (cr, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The head and body of a reply to a request for `path`: compressed when the client
/// accepts gzip and cached as a static host would (`_headers`), so that a local run
/// measures what visitors get; readable from any origin where `_headers` says so.
fn reply(status: &str, kind: &str, body: Vec<u8>, mut extra: String, path: &str, gzip_ok: bool) -> (String, Vec<u8>) {
    let body = if compressible(kind) && body.len() > 256 && gzip_ok {
        extra.push_str("Content-Encoding: gzip\r\n");
        gzip(&body)
    } else {
        body
    };
    if compressible(kind) {
        extra.push_str("Vary: Accept-Encoding\r\n");
    }
    if incident_build::headers::shared(path) {
        extra.push_str("Access-Control-Allow-Origin: *\r\n");
    }
    let cache = incident_build::headers::cache_control(path).unwrap_or("no-cache");
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: {cache}\r\nConnection: close\r\n{extra}\r\n",
        body.len()
    );
    (head, body)
}

/// Reads one request from `stream` and answers it.
fn answer(mut stream: std::net::TcpStream, root: &Path, trace: bool, deadlines: Deadlines) -> std::io::Result<()> {
    use std::io::Write;
    stream.set_write_timeout(Some(deadlines.write))?;
    let head = match read_head(&mut stream, deadlines.head) {
        Ok(head) => head,
        Err("") => return Ok(()),
        Err(status) => {
            let body = status.as_bytes();
            let out = format!(
                "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(out.as_bytes())?;
            stream.write_all(body)?;
            let _ = stream.shutdown(std::net::Shutdown::Write);
            return Ok(());
        }
    };
    let text = String::from_utf8_lossy(&head);
    let mut parts = text.lines().next().unwrap_or("").split_whitespace();
    let (method, url) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if trace {
        eprintln!("-> {method} {url}");
    }
    // Like the built `_headers`: the widget on another origin reads these.
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let shared = incident_build::headers::shared(path);
    let mut extra = String::new();
    let (status, kind, body) = match method {
        "GET" | "HEAD" => match resolve(root, url)
            .filter(|p| p.is_file())
            .and_then(|p| fs::read(&p).ok().map(|b| (p, b)))
        {
            Some((path, bytes)) => ("200 OK", mime(&path), bytes),
            // A client of the API reads JSON, not the site's page.
            None if path.starts_with("/api/v1/") => (
                "404 Not Found",
                "application/json",
                incident_build::api::not_found(Some(path)),
            ),
            None => (
                "404 Not Found",
                "text/html; charset=utf-8",
                fs::read(root.join("404.html")).unwrap_or_else(|_| b"not found".to_vec()),
            ),
        },
        // A CORS preflight for what other origins may read.
        "OPTIONS" if shared => {
            extra.push_str("Access-Control-Allow-Methods: GET, HEAD, OPTIONS\r\nAccess-Control-Allow-Headers: *\r\nAccess-Control-Max-Age: 86400\r\n");
            ("204 No Content", "text/plain; charset=utf-8", Vec::new())
        }
        _ => {
            extra.push_str(if shared {
                "Allow: GET, HEAD, OPTIONS\r\n"
            } else {
                "Allow: GET, HEAD\r\n"
            });
            (
                "405 Method Not Allowed",
                "text/plain; charset=utf-8",
                b"only GET and HEAD".to_vec(),
            )
        }
    };
    let (head, body) = reply(status, kind, body, extra, path, accepts_gzip(&text));
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()?;
    if trace {
        eprintln!("<- {url} {status}");
    }
    let _ = stream.shutdown(std::net::Shutdown::Write);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_is_sent_to_clients_that_accept_it() {
        assert!(accepts_gzip("GET / HTTP/1.1\r\nAccept-Encoding: gzip, deflate, br\r\n"));
        assert!(accepts_gzip(
            "GET / HTTP/1.1\r\naccept-encoding: br;q=1.0, GZIP;q=0.5\r\n"
        ));
        assert!(!accepts_gzip("GET / HTTP/1.1\r\nAccept-Encoding: gzip;q=0\r\n"));
        assert!(!accepts_gzip("GET / HTTP/1.1\r\nAccept-Encoding: br\r\n"));
        assert!(!accepts_gzip("GET / HTTP/1.1\r\n"));
        let body = "장애 ".repeat(200);
        let mut back = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gzip(body.as_bytes())[..]), &mut back)
            .unwrap();
        assert_eq!(back, body);
    }

    #[test]
    fn paths_stay_inside_the_root() {
        let root = Path::new("/srv/dist");
        assert_eq!(
            resolve(root, "/incidents/IL-0001/index.html?x=1"),
            Some(root.join("incidents/IL-0001/index.html"))
        );
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(resolve(root, "/%2e%2e/etc/passwd"), None);
        assert_eq!(mime(Path::new("a/b.wasm")), "application/wasm");
    }
}
