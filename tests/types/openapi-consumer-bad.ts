// Must NOT type-check (tests/api/openapi-types.test.mjs asserts that tsc fails and
// names the key): `endpoints` has no `incidents` key (the listing is `listing`).
import type { paths } from "./openapi.js";

type Index = paths["/index.json"]["get"]["responses"][200]["content"]["application/json"];

export function listing(index: Index): string {
  return index.data.endpoints.incidents;
}
