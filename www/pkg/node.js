// What the package needs in Node only, loaded by library.js when it runs there: a
// file: URL read from disk (Node's fetch reads none), and a folder path as a URL.
// Node's own modules are named at run time, so that bundlers for the browser, which
// may follow library.js here, leave them be.
const node = (name) => import(/* @vite-ignore */ /* webpackIgnore: true */ "node:" + name);

/** The bytes at a file: URL; an error names the path. */
export async function readFile(url) {
  const [{ readFile }, { fileURLToPath }] = await Promise.all([node("fs/promises"), node("url")]);
  const path = fileURLToPath(url);
  try {
    return new Uint8Array(await readFile(path));
  } catch (e) {
    throw new Error(`${path}: ${e.code === "ENOENT" ? "no such file" : e.message}`);
  }
}

/** A folder path (`./dist`, `/srv/library`) as the file: URL of that folder. */
export async function folderUrl(path) {
  const [{ pathToFileURL }, { resolve }] = await Promise.all([node("url"), node("path")]);
  return pathToFileURL(resolve(path) + "/");
}
