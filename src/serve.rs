//! `incident-library serve`: a small static file server for the bundle on
//! localhost, with the right MIME types (wasm included), and a watcher that
//! rebuilds the bundle when the corpus changes.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::error::{Error, Result};

/// The MIME type for a file name.
pub fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "txt" | "md" => "text/plain; charset=utf-8",
        "bin" => "application/octet-stream",
        _ => "application/octet-stream",
    }
}

/// Resolves a request path inside `root`: `/` and folders map to `index.html`;
/// anything that would leave `root` is refused.
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
    Some(out)
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
/// connection (`Connection: close`), GET and HEAD only. It is for local use.
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
    let trace = std::env::var_os("INCIDENT_LIBRARY_TRACE").is_some();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.to_path_buf();
        std::thread::spawn(move || {
            if let Err(e) = answer(stream, &root, trace) {
                if trace {
                    eprintln!("connection: {e}");
                }
            }
        });
    }
    Ok(())
}

/// Reads one request from `stream` and answers it.
fn answer(mut stream: std::net::TcpStream, root: &Path, trace: bool) -> std::io::Result<()> {
    use std::io::{Read, Write};
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf)?;
        if n == 0 || head.len() > 64 * 1024 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head);
    let mut parts = text.lines().next().unwrap_or("").split_whitespace();
    let (method, url) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if trace {
        eprintln!("-> {method} {url}");
    }
    let (status, kind, body) = if method != "GET" && method != "HEAD" {
        (
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            b"only GET and HEAD".to_vec(),
        )
    } else {
        match resolve(root, url)
            .filter(|p| p.is_file())
            .and_then(|p| fs::read(&p).ok().map(|b| (p, b)))
        {
            Some((path, bytes)) => ("200 OK", mime(&path), bytes),
            None => (
                "404 Not Found",
                "text/html; charset=utf-8",
                fs::read(root.join("404.html")).unwrap_or_else(|_| b"not found".to_vec()),
            ),
        }
    };
    // Like the built `_headers`: the widget on another origin reads these.
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let shared = ["/api/", "/index/", "/pkg/", "/widget.js"]
        .iter()
        .any(|p| path.starts_with(p));
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n",
        body.len()
    );
    if shared {
        out.push_str("Access-Control-Allow-Origin: *\r\n");
    }
    out.push_str("\r\n");
    stream.write_all(out.as_bytes())?;
    if method == "GET" {
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
