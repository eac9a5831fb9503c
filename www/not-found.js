// The not-found page: what the missing address held becomes the search it offers.
// A record id (IL-0004) that names a page of this site is linked directly; the
// rest of the path is split into words (a slug's parts, a typed phrase), written
// into the search box. The build writes this script into 404.html only.
(() => {
  const decode = (s) => { try { return decodeURIComponent(s); } catch { return s; } };
  const site = document.body.dataset.root || "/";
  // Both decoded: a site path of Korean words is percent-encoded in the page.
  const root = decode(site);
  let path = decode(location.pathname);
  if (path.startsWith(root)) path = path.slice(root.length);
  const id = path.match(/\bIL-?(\d{1,6})\b/i);
  const words = path
    .replace(/\bIL-?\d{1,6}\b/gi, " ")
    .replace(/\.(html?|md|json)$/i, "")
    .split(/[\s/_.+-]+/)
    .filter((w) => w && !/^(incidents?|topics?|index|api|v1)$/i.test(w));
  const box = document.getElementById("lost-q");
  if (!id) {
    box.value = words.join(" ");
    return;
  }
  // The id as the library writes it: four digits or more, without extra zeros.
  const wanted = "IL-" + String(Number(id[1])).padStart(4, "0");
  // Searched for, unless the site has its page: then linked, and the rest searched.
  box.value = [wanted, ...words].join(" ");
  const href = new URL(`incidents/${wanted}/`, new URL(site, location.href)).href;
  if (href === location.href.split(/[?#]/)[0]) return;
  fetch(href, { method: "HEAD" }).then((r) => {
    if (!r.ok) return;
    const link = document.getElementById("lost-record");
    link.href = href;
    link.textContent = `${wanted} 사례로 가기`;
    link.hidden = false;
    box.value = words.join(" ");
  }, () => {});
})();
