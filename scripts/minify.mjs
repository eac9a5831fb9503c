// Minifies the browser scripts for the bundle: the site's own scripts
// (www/app.js, www/graph.js, www/widget.js) into pkg/ with a stamp naming the
// source they were made from, and the package's modules in pkg/ in place.
//
//   node scripts/minify.mjs
//
// The build refuses a stamped script whose source has changed since (it would ship
// stale code), so run this again (scripts/build-wasm.sh does) after editing www/.
import { readFileSync, writeFileSync } from "node:fs";
import { minify } from "terser";

/** FNV-1a 64 of the bytes, as 16 hex digits: `src/bundle.rs` computes the same. */
export function fnv1a64(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

async function small(code) {
  const out = await minify(code, { module: true, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  return out.code;
}

const stamped = [
  ["www/app.js", "pkg/app.js"],
  ["www/graph.js", "pkg/graph.js"],
  ["www/widget.js", "pkg/widget.js"],
];
for (const [source, target] of stamped) {
  const bytes = readFileSync(source);
  const code = await small(bytes.toString("utf8"));
  writeFileSync(target, `/* ${source} fnv1a64:${fnv1a64(bytes)} */\n${code}\n`);
}
for (const file of ["pkg/incident_library.js", "pkg/library.js"]) {
  writeFileSync(file, (await small(readFileSync(file, "utf8"))) + "\n");
}
console.log("minify: pkg/app.js, pkg/graph.js, pkg/widget.js, pkg/incident_library.js, pkg/library.js");
