// What the relevance scripts share: reading query sets, and a static server for a
// built site on 127.0.0.1.
import { readFileSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { join, extname, normalize } from "node:path";

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

/** Serves the folder `site` on a free port of 127.0.0.1; resolves to { url, close }. */
export async function staticServer(site) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    let file = join(site, path);
    if (existsSync(join(file, "index.html"))) file = join(file, "index.html");
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": types[extname(file)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}
