// A consumer of the npm package's types, checked by `tsc --noEmit` in the suite
// (tests/node/types.test.mjs): every field read here must be declared, with the
// type the package really returns.
import { IncidentLibrary, type Excerpt, type FacetKey, type Hit, type IncidentRecord, type SearchResult } from "../../pkg/library.js";

export async function related(base: string): Promise<string[]> {
  const lib = await IncidentLibrary.open(base, { version: "1" });
  const result: SearchResult = await lib.search("재시도를", { filters: { component: ["cloud-load-balancer"], cause: "retry-amplification" }, sort: "relevance", page: 1, perPage: 5, prefix: true });
  const lines: string[] = [];
  for (const hit of result.hits) {
    const h: Hit = hit;
    const causes: string[] = h.facets.cause;
    lines.push(`${h.id} ${h.title} ${h.date_label} ${h.score.toFixed(3)} ${causes.join(",")} ${h.full ? "full" : h.missing.join(" ")}`);
    for (const m of h.matched) lines.push(`${m.word} ${m.how} ${m.via}`);
    const excerpt: Excerpt | null | undefined = h.excerpt;
    if (excerpt) {
      const [start, end]: [number, number] = excerpt.marks[0] ?? [0, 0];
      lines.push(`${excerpt.section} ${excerpt.anchor} ${excerpt.url} ${excerpt.text.slice(start, end)} ${excerpt.found}`);
    }
    lines.push(...(h.sub_results ?? []).map((e) => e.section), ...h.terms);
  }
  for (const word of result.words) {
    for (const alt of word.alternatives) {
      const facet: FacetKey | undefined = alt.facet?.facet;
      lines.push(`${word.input} ${alt.terms.join("+")} ${facet ?? ""} ${alt.facet?.slug ?? ""} ${alt.weight}`);
    }
  }
  const counts = result.facets.component.map((c) => `${c.slug} ${c.count} ${c.in_results} ${c.selected}`);
  lines.push(...counts, String(result.total), String(result.full), ...result.completions);
  for (const f of lib.facets()) lines.push(`${f.key} ${f.values.length}`);
  const first = result.hits[0];
  if (first) {
    const record = await lib.get(first.id);
    if ("moved_to" in record) {
      lines.push(`${record.id} → ${record.moved_to}`);
    } else {
      const r: IncidentRecord = record;
      lines.push(r.sections.요약.text, r.sections.교훈.markdown, r.sections.원인?.text ?? "", r.related.join(","), r.impact ?? "", r.sources[0] ?? "");
    }
    lines.push(lib.pageOf(first.id), lib.base.href, String(lib.size));
  }
  return lines;
}
