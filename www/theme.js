// The site's theme: the one the visitor chose with the header's toggle (remembered
// in this browser), else the system's, followed as it changes. The build writes
// this script into every page's head, before the stylesheet, so the page is drawn
// in its theme from the first paint. app.css takes its colours from
// `data-theme` on the root element, and from the system's setting without script.
(() => {
  const KEY = "incident-library-theme", root = document.documentElement;
  const system = matchMedia("(prefers-color-scheme: dark)");
  // Storage refused: the system's theme, or what was chosen on this page.
  const stored = (otherwise) => { try { return localStorage.getItem(KEY); } catch { return otherwise; } };
  let chosen = stored(null);
  const show = () => {
    const theme = chosen === "dark" || chosen === "light" ? chosen : system.matches ? "dark" : "light";
    root.dataset.theme = theme;
    for (const b of document.querySelectorAll("[data-theme-toggle]")) b.setAttribute("aria-pressed", String(theme === "dark"));
  };
  show();
  system.addEventListener("change", show);
  document.addEventListener("DOMContentLoaded", show);
  // Another tab chose, or this page comes back from the back-forward cache, where
  // it missed what another page chose.
  addEventListener("storage", (e) => { if (e.key === KEY) { chosen = e.newValue; show(); } });
  addEventListener("pageshow", (e) => { if (e.persisted) { chosen = stored(chosen); show(); } });
  document.addEventListener("click", (e) => {
    if (!e.target.closest?.("[data-theme-toggle]")) return;
    chosen = root.dataset.theme === "dark" ? "light" : "dark";
    try { localStorage.setItem(KEY, chosen); } catch { /* chosen for this page only */ }
    show();
  });
})();
