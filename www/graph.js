// The flow graph of the search page: the incidents of a search as bands from one
// facet's values to the next, drawn as SVG from a search response's `graph`.
// Labels are only ever set as text.

const NS = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
};
const note = (text) => {
  const p = document.createElement("p");
  p.className = "muted";
  p.textContent = text;
  return p;
};

/** Draws graph `g` into `node`. `labels[facet].ko` names a facet; a click (or Enter
 *  or Space) on a node calls `apply(facet, slug)`. */
export function drawGraph(node, g, labels, apply) {
  node.replaceChildren();
  if (!g || !g.nodes.length) {
    node.append(note("그릴 사례가 없습니다."));
    return;
  }
  const width = 900, colW = 16, gap = 10, top = 30;
  // A node is as tall as the most incidents it carries on either side: an
  // incident with two components leaves its cause by two bands.
  const inFlow = new Array(g.nodes.length).fill(0), outFlow = new Array(g.nodes.length).fill(0);
  for (const l of g.links) { outFlow[l.source] += l.count; inFlow[l.target] += l.count; }
  const size = g.nodes.map((n, i) => Math.max(n.count, inFlow[i], outFlow[i]));
  const columns = g.columns.map((_, c) => g.nodes.map((n, i) => ({ ...n, i })).filter((n) => n.column === c));
  const colSum = (col) => col.reduce((s, n) => s + size[n.i], 0);
  const unit = Math.max(4, Math.min(28, 420 / Math.max(...columns.map(colSum))));
  const height = top + Math.max(...columns.map((col) => colSum(col) * unit + col.length * gap)) + 10;
  const x = (c) => 20 + c * ((width - 260) / Math.max(1, g.columns.length - 1));
  const pos = {};
  columns.forEach((col, c) => {
    let y = top;
    for (const n of col) { const h = size[n.i] * unit; pos[n.i] = { x: x(c), y, h, outY: y, inY: y }; y += h + gap; }
  });
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": "원인, 구성 요소, 증상의 흐름", class: "flow" });
  g.columns.forEach((key, c) => {
    const t = svg("text", { x: x(c), y: 16, class: "col" });
    t.textContent = labels[key]?.ko ?? key;
    root.append(t);
  });
  for (const l of g.links) {
    const a = pos[l.source], b = pos[l.target];
    const w = l.count * unit;
    const y1 = a.outY + w / 2, y2 = b.inY + w / 2;
    a.outY += w; b.inY += w;
    const x1 = a.x + colW, x2 = b.x, mx = (x1 + x2) / 2;
    const path = svg("path", { d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`, "stroke-width": Math.max(1, w), class: "band" });
    const title = svg("title");
    title.textContent = `${g.nodes[l.source].ko} → ${g.nodes[l.target].ko}: ${l.count}건`;
    path.append(title);
    root.append(path);
  }
  for (const n of g.nodes) {
    const p = pos[g.nodes.indexOf(n)];
    const group = svg("g", { class: "node", tabindex: 0, role: "button", "aria-label": `${labels[n.facet]?.ko}: ${n.ko} ${n.count}건, 필터로 적용` });
    group.dataset.facet = n.facet;
    group.dataset.slug = n.slug;
    group.append(svg("rect", { x: p.x, y: p.y, width: colW, height: Math.max(2, p.h) }));
    const label = svg("text", { x: p.x + colW + 6, y: p.y + Math.max(2, p.h) / 2 + 5 });
    label.textContent = `${n.ko} (${n.count})`;
    group.append(label);
    const click = () => apply(n.facet, n.slug);
    group.addEventListener("click", click);
    group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(); } });
    root.append(group);
  }
  node.append(root, note("띠의 굵기는 사례 수입니다. 마디를 누르면 그 값으로 거릅니다."));
}
