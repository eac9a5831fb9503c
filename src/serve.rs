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
pub fn serve(
    host: &str,
    port: u16,
    root: &Path,
    watch: Option<&Path>,
    rebuild: impl Fn() -> Result<()> + Send + 'static,
) -> Result<()> {
    let server = tiny_http::Server::http((host, port)).map_err(|e| {
        Error::msg(format!(
            "cannot listen on {host}:{port}: {e}\n  hint: pick another --port"
        ))
    })?;
    // With --port 0 the system picks a free port; say which.
    let port = server.server_addr().to_ip().map_or(port, |a| a.port());
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
    let root = root.to_path_buf();
    let trace = std::env::var_os("INCIDENT_LIBRARY_TRACE").is_some();
    for request in server.incoming_requests() {
        if trace {
            eprintln!("-> {} {}", request.method(), request.url());
        }
        // One thread a request: a client that stops reading must not stall the others.
        let root = root.clone();
        std::thread::spawn(move || {
            let response = match resolve(&root, request.url()) {
                Some(path) if path.is_file() => match fs::read(&path) {
                    Ok(bytes) => tiny_http::Response::from_data(bytes)
                        .with_header(header("Content-Type", mime(&path)))
                        .with_status_code(200),
                    Err(_) => not_found(&root),
                },
                _ => not_found(&root),
            };
            let url = request.url().to_string();
            // Like the built `_headers`: the widget on another origin reads these.
            let shared = ["/api/", "/index/", "/pkg/", "/widget.js"]
                .iter()
                .any(|p| url.starts_with(p));
            let response = response.with_header(header("Cache-Control", "no-cache"));
            let response = if shared {
                response.with_header(header("Access-Control-Allow-Origin", "*"))
            } else {
                response
            };
            let result = request.respond(response);
            if trace {
                eprintln!("<- {url} {result:?}");
            }
        });
    }
    Ok(())
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("static header names and values are valid")
}

fn not_found(root: &Path) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let body = fs::read(root.join("404.html")).unwrap_or_else(|_| b"not found".to_vec());
    tiny_http::Response::from_data(body)
        .with_header(header("Content-Type", "text/html; charset=utf-8"))
        .with_status_code(404)
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
