import type { IncidentLibrary as Core } from "./incident_library.js";

/** Facet keys of the Incident Library. */
export type FacetKey = "cause" | "component" | "symptom" | "factor" | "org";

export interface SearchOptions {
  /** Facet filters: OR within a facet, AND across facets. */
  filters?: Partial<Record<FacetKey, string | string[]>>;
  sort?: "relevance" | "recent";
  page?: number;
  perPage?: number;
  /** Read the last word as typed so far. */
  prefix?: boolean;
  /** Give each hit its excerpts (`excerpt`, `sub_results`); true by default. Each
   *  shown hit then reads one small file (its passages) once. */
  excerpts?: boolean;
}

/** Where a hit's terms occur in one section of its record. Plain text, never HTML. */
export interface Excerpt {
  /** The section's name (see `SectionName`). */
  section: SectionName;
  /** The section's anchor on the incident page (`s-cause`). */
  anchor: string;
  /** The incident page's URL at that section. */
  url: string;
  /** The sentence or two, cut with `…` when long. */
  text: string;
  /** Marked ranges of `text`: `[start, end)` in UTF-16 code units (string indices). */
  marks: [number, number][];
  /** How many distinct terms of the hit it holds. */
  found: number;
}

/** How a hit matched one query word. */
export interface Matched {
  /** The word as analysed (normalised; a phrase read as one word keeps its spaces). */
  word: string;
  how: "exact" | "stem" | "synonym" | "lexicon" | "partial" | "typo" | "prefix" | "initials";
  /** What matched: terms joined by `+`, or a taxonomy value's Korean label. */
  via: string;
  /** With the request's `explain`: the word's share of the hit's score (the shares add up to it). */
  score?: number;
}

export interface Hit {
  id: string;
  /** Rounded to three decimals. */
  score: number;
  title: string;
  org: string;
  /** ISO date (a day, a month or a year, or a range of them). */
  date: string;
  /** The date as the pages show it. */
  date_label: string;
  facets: Record<FacetKey, string[]>;
  summary: string;
  /** True when the hit matches every query word (none only partially). Full matches come first. */
  full: boolean;
  /** The query words it matched, and how. */
  matched: Matched[];
  /** The query words it did not match; empty for a full match. */
  missing: string[];
  /** The index terms it matched (what excerpts mark). */
  terms: string[];
  /** With `excerpts`: the sub-result with the most terms, or null when no section
   *  holds one (a match by title or classification only). */
  excerpt?: Excerpt | null;
  /** With `excerpts`: at most one excerpt per section where its terms occur, in
   *  reading order. */
  sub_results?: Excerpt[];
}

export interface FacetCount {
  slug: string;
  ko: string;
  count: number;
  selected: boolean;
  in_results: number;
}

export interface SearchResult {
  /** Incidents that match at least one query word (all, without a query). */
  total: number;
  /** How many of them match every word; they come first. */
  full: number;
  /** True when the query has text but no searchable word (only punctuation or symbols): nothing is found. */
  unsearchable: boolean;
  /** True when the query was cut to what the search reads (24 words of 40 characters). */
  cut: boolean;
  page: number;
  per_page: number;
  sort: "relevance" | "recent";
  hits: Hit[];
  facets: Record<FacetKey, FacetCount[]>;
  /** How each query word was read; a word with no alternatives is in no record. */
  words: {
    input: string;
    alternatives: { terms: string[]; facet?: { facet: FacetKey; slug: string; ko: string }; weight: number; derivation: string }[];
    /** The Hangul a word typed on the English layout was read as. */
    keyboard?: string;
    /** Set on each of the words that were typed together without spaces: what was typed (`카카오톡장애`). */
    glued?: string;
  }[];
  suggestions: { facet: FacetKey; slug: string; ko: string; matched: string }[];
  completions: string[];
  /** From `core.search` only (`search` fetches them itself): the index files this
   *  response still needs; add them and run the same request again. */
  missing?: string[];
  /** With `missing`: they are vocabulary blocks or near-term buckets, and nothing else in
   *  the response holds yet: `core.search` then returns only `missing`, `incomplete`
   *  and `likely`. */
  incomplete?: boolean;
  /** With `incomplete`: listing files of the provisional page that the search will
   *  likely need; fetch them beside `missing` if you like (`search` does). */
  likely?: string[];
}

export interface Facet {
  key: FacetKey;
  ko: string;
  en: string;
  /** A hit in a result list shows this facet's values (as tags). */
  on_hits: boolean;
  values: { slug: string; ko: string; en: string; synonyms: string[]; count: number }[];
}

/** A section of a record: its Markdown source and its plain text. */
export interface Section {
  markdown: string;
  text: string;
}

/** Sections a record may have, in reading order; 요약 and 교훈 are always there.
 *  The TypeScript mirror of `crates/core/src/sections.rs`: tests/node/types.test.mjs
 *  fails when the two differ. */
export type SectionName = "요약" | "증상" | "촉발" | "원인" | "감지" | "조치" | "후속 조치" | "교훈";

/** One incident in full, as `api/v1/incidents/<id>.json` holds it. */
export interface IncidentRecord {
  id: string;
  title: string;
  org: string;
  date: string;
  date_label: string;
  /** The date the library sorts by (the start of a range). */
  sort_date: string;
  date_bound_note: string | null;
  facets: Record<FacetKey, string[]>;
  tags: string[];
  regions: string[];
  severity: string | null;
  impact: string | null;
  affected_users: string | null;
  time_to_detect: string | null;
  time_to_recover: string | null;
  sources: string[];
  /** Related incident ids, listed by the record or computed. */
  related: string[];
  checks: string[];
  /** The day the record was first published here (YYYY-MM-DD), when it says. */
  published: string | null;
  /** The day the record last changed (YYYY-MM-DD), when it says. */
  updated: string | null;
  /** What changed in it, newest first. */
  history: string[];
  sections: Partial<Record<SectionName, Section>> & Record<"요약" | "교훈", Section>;
  /** The incident's page, relative to the API file. */
  page: string;
}

/** What an id merged into another incident answers with. */
export interface MovedRecord {
  id: string;
  moved_to: string;
  reason: string;
  url: string;
}

/** A raw search request, as `core.search` and `run` take it. */
export interface CoreRequest {
  query?: string;
  /** `[facet, slug]` pairs: OR within a facet, AND across facets. */
  filters?: [FacetKey, string][];
  sort?: "relevance" | "recent";
  page?: number;
  per_page?: number;
  /** Read the last word as typed so far. */
  prefix?: boolean;
  /** The facets of the flow graph's columns. */
  graph?: FacetKey[];
}

export interface OpenOptions {
  /** The library's build, added as `?v=<version>` to the module and `meta.bin`. The
   *  other files always carry the build of the `meta.bin` read, so a page that
   *  names its build never meets a cached file of another. The library's own pages
   *  pass theirs. */
  version?: string;
  /** The query the caller will search first, as typed (the URL's, the search box's),
   *  if known: the index blocks of its words, and of their likeliest other readings
   *  (lexicon meanings, stems, pieces), up to 11 blocks in all, are fetched while the module
   *  loads, which on a slow link saves the first search a round trip or two. A
   *  query searched later, or not at all, costs nothing but those few small
   *  requests. */
  query?: string;
}

/** What `search`, `run` and `core` throw is an `Error` whose `name` says the kind:
 *  `FilterError` (a filter the index does not know), `RequestError` (a request that
 *  is not well formed), `FormatError` (an index file that is damaged or not of this
 *  format), `OtherBuildError` (a file of another build; `fetchFiles` handles it),
 *  `NewBuildError` (below). */
export type ErrorName = "FilterError" | "RequestError" | "FormatError" | "OtherBuildError" | "NewBuildError";

/** Thrown by `search`, `fetchFiles` and `refresh` when the library's site holds a
 *  build this module cannot read, or is replaced again while it is read: load the
 *  page (or the package) again. */
export declare class NewBuildError extends Error {
  name: "NewBuildError";
}

/** A library on a site or in a folder. When the site is deployed anew while it is
 *  read (an index file of another build comes back), it goes on with the new build
 *  as a whole and fires a "newbuild" event; it never reads two builds as one index. */
export declare class IncidentLibrary extends EventTarget {
  /** Loads the module and the index of the library at `baseUrl` (its site root):
   *  an http(s) URL, or in Node (20 or later) also a file: URL or a folder path. */
  static open(baseUrl: string | URL, options?: OpenOptions): Promise<IncidentLibrary>;
  readonly base: URL;
  readonly size: number;
  /** Asks the site for its `meta.bin` past every cache; when it names another build
   *  than the one loaded, searches that one from now on (firing "newbuild") and
   *  resolves to true. */
  refresh(): Promise<boolean>;
  /** The loaded wasm binding (`incident-library/core`): a synchronous `search` of
   *  raw requests, whose response names in `missing` the index files it lacks. */
  readonly core: Core;
  search(query: string, options?: SearchOptions): Promise<SearchResult>;
  /** Fetches the index files named in a `core.search` response's `missing` and
   *  adds them to the index; the same search then needs fewer, or none. */
  fetchFiles(names: string[]): Promise<void>;
  /** Runs a raw request (what `core.search` takes) to its answer, fetching the
   *  index files it names as they come: what `search` does, without excerpts.
   *  With `untitled`, listing files that cannot be fetched leave their hits without
   *  title and summary instead of failing the search. */
  run(request: CoreRequest, options?: { untitled?: boolean }): Promise<SearchResult>;
  /** Gives each hit `excerpt` and `sub_results` (what `search` does by default);
   *  reads one passages file per hit, once. Returns `hits`. */
  excerpts(hits: Hit[]): Promise<Hit[]>;
  /** The section texts of an incident, `[name, text]` pairs in reading order. */
  passages(id: string): Promise<[SectionName, string][]>;
  /** Every facet with its values: made once per build and shared by every caller
   *  (read it, do not change it). */
  facets(): readonly Facet[];
  /** One incident in full, from the static API (`api/v1/incidents/<id>.json`). */
  get(id: string): Promise<IncidentRecord | MovedRecord>;
  /** The page of an incident on the library's site. */
  pageOf(id: string): string;
}
