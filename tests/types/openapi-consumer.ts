// A consumer of the static API's types as openapi-typescript makes them from
// dist/api/v1/openapi.json, checked by `tsc --noEmit --strict` in the suite
// (tests/api/openapi-types.test.mjs, which writes the generated `./openapi.ts`
// beside a copy of this file): `index.json`'s `endpoints` has its real keys, each a
// string, and no others.
import type { paths } from "./openapi.js";

export type Index = paths["/index.json"]["get"]["responses"][200]["content"]["application/json"];
export type Endpoints = Index["data"]["endpoints"];

// The key set is exactly these: neither `{}` / `Record<string, never>` nor an index signature.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const exactKeys: Equal<keyof Endpoints, "listing" | "listing_page" | "incident" | "topics" | "topic" | "vocab" | "openapi" | "schemas"> = true;

/** The URLs of the files `index.json` names, below `base` (the folder of index.json, ending in `/`). */
export function files(index: Index, base: string, id: string, facet: string, slug: string): string[] {
  const e = index.data.endpoints;
  const paths: string[] = [
    e.listing,
    e.listing_page.replace("{page}", "2"),
    e.incident.replace("{id}", id),
    e.topics,
    e.topic.replace("{facet}", facet).replace("{slug}", slug),
    e.vocab,
    e.openapi,
    e.schemas + "index.schema.json",
  ];
  return paths.map((p) => base + p);
}
