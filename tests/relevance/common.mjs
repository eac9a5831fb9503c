// What the relevance scripts share: reading query sets, and a static server for a
// built site on 127.0.0.1.
import { readFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createSecureServer } from "node:http2";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, extname, normalize } from "node:path";
import { gzipSync } from "node:zlib";

/** The `q` of every query in the given TOML files, in order. The files are ours:
 *  `q = "..."` lines hold TOML basic strings, which read as JSON strings. */
export function readQueries(files) {
  return files.flatMap((f) =>
    readFileSync(f, "utf8").split("\n").map((l) => l.match(/^q\s*=\s*("(?:[^"\\]|\\.)*")\s*$/)).filter(Boolean).map((m) => JSON.parse(m[1])),
  );
}

/** The value at fraction `p` (0..1) of `sorted`, an ascending array. */
export const percentile = (sorted, p) => sorted[Math.round((sorted.length - 1) * p)];

const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm" };

// What a web server compresses: text, scripts, JSON, wasm and our index's .bin files.
// Pagefind's own files (.pf_*, .pagefind) are gzip already and go out as they are.
const compressible = new Set([".html", ".txt", ".js", ".css", ".json", ".wasm", ".bin"]);

/** A self-signed certificate for 127.0.0.1, made with openssl: { key, cert }. */
function localCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "il-cert-"));
  try {
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert], { stdio: "ignore" });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Serves the folder `site` on a free port of 127.0.0.1; resolves to { url, close }.
 *  With `compress`, sends the compressible files gzip (level 9) to a client that
 *  accepts it, as a production server would; otherwise every file as it is. With
 *  `http2`, over HTTP/2 and TLS (a self-signed certificate: the browser must accept
 *  it), as most static hosts serve a site; otherwise over HTTP/1.1. */
export async function staticServer(site, { compress = false, http2 = false } = {}) {
  // Each file is compressed once, so that no request waits on gzip.
  const gzipped = new Map();
  const handler = (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    let file = join(site, path);
    if (existsSync(join(file, "index.html"))) file = join(file, "index.html");
    try {
      let body = readFileSync(file);
      const headers = { "content-type": types[extname(file)] || "application/octet-stream" };
      if (compress && compressible.has(extname(file))) {
        headers.vary = "accept-encoding";
        if (/\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
          if (!gzipped.has(file)) gzipped.set(file, gzipSync(body, { level: 9 }));
          body = gzipped.get(file);
          headers["content-encoding"] = "gzip";
        }
      }
      // Sized, not chunked, as a static server sends a file.
      if (compress) headers["content-length"] = body.length;
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  };
  const server = http2 ? createSecureServer(localCertificate(), handler) : createServer(handler);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const scheme = http2 ? "https" : "http";
  return { url: `${scheme}://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}
