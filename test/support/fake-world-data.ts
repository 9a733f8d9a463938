// The companies of the fake world (test/support/fake-world.ts): a seeded, deterministic mix of
// true matches for TARGET, near misses around it, and tricky kinds (silent, contradicting,
// injection, duplicate), padded with unrelated companies.

import { seededRandom } from "./prng.ts";
export type CompanyKind = "plain" | "silent" | "contradicting" | "injection" | "duplicate";

export interface WorldCompany {
  name: string;
  slug: string;
  /** `<slug>.test`: the canonical key a dedupe should arrive at. */
  domain: string;
  /** Every page the company serves: its home and /about, and the www. alias's when it has one. */
  urls: string[];
  /** Where it really is (what its own pages say). */
  city: string;
  employees: number;
  industry: string;
  b2b: boolean;
  founded: number;
  kind: CompanyKind;
  /** The city search snippets and directories give; differs from `city` only for "contradicting". */
  listedCity: string;
  /** Answers on `www.<slug>.test` too ("duplicate" companies). */
  www: boolean;
}

export interface WorldCriteria {
  city?: string;
  industry?: string;
  b2b?: boolean;
  minEmployees?: number;
  maxEmployees?: number;
}

/** The find the world is built around. */
export const TARGET_QUERY = "B2B software companies in Berlin with 50–200 employees";
export const TARGET: WorldCriteria = {
  city: "Berlin",
  industry: "software",
  b2b: true,
  minEmployees: 50,
  maxEmployees: 200,
};

export const CITIES = ["Berlin", "Munich", "Hamburg", "Vienna", "Zurich", "Amsterdam", "Paris", "London"];
export const INDUSTRIES = [
  "software",
  "fintech",
  "logistics",
  "healthcare",
  "retail",
  "manufacturing",
  "energy",
  "marketing",
];
// biome-ignore format: a word list reads better ten to a line
const PREFIXES = [
  "Acme", "Nova", "Blue", "Quantum", "Bright", "Silver", "Polar", "Cedar", "Echo", "Vertex",
  "Lumen", "Harbor", "Atlas", "Orbit", "Pine", "Cobalt", "Summit", "Granite", "Falcon", "Maple",
  "Zenith", "Copper", "Ember", "Nimbus", "Tidal", "Aurora", "Beacon", "Crest", "Delta", "Fjord",
];
// biome-ignore format: a word list reads better ten to a line
const SUFFIXES = [
  "Analytics", "Labs", "Systems", "Works", "Dynamics", "Logic", "Cloud", "Data", "Networks", "Forge",
  "Metrics", "Stack", "Partners", "Digital", "Solutions", "Ventures", "Group", "Studio", "Grid", "Flow",
];

/** True when the company's real attributes meet every criterion given. */
export function meets(c: WorldCompany, q: WorldCriteria): boolean {
  return (
    (q.city === undefined || c.city === q.city) &&
    (q.industry === undefined || c.industry === q.industry) &&
    (q.b2b === undefined || c.b2b === q.b2b) &&
    (q.minEmployees === undefined || c.employees >= q.minEmployees) &&
    (q.maxEmployees === undefined || c.employees <= q.maxEmployees)
  );
}

export { seededRandom };

type Draft = Omit<WorldCompany, "name" | "slug" | "domain" | "urls">;

/** The companies without their URLs (which need the server's port; see withUrls). */
export function generateCompanies(count: number, seed: number): Omit<WorldCompany, "urls">[] {
  if (!Number.isInteger(count) || count < 20) throw new Error("the fake world needs at least 20 companies");
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const share = (f: number) => Math.max(1, Math.round(count * f));
  const inRange = () => int(50, 200);
  const base = (over: Partial<Draft>): Draft => {
    const city = over.city ?? "Berlin";
    return {
      city,
      listedCity: city,
      employees: inRange(),
      industry: "software",
      b2b: true,
      founded: int(1995, 2022),
      kind: "plain",
      www: false,
      ...over,
    };
  };

  const drafts: Draft[] = [];
  const add = (n: number, make: (i: number) => Draft) => {
    for (let i = 0; i < n; i++) drafts.push(make(i));
  };
  // True matches: mostly plain, some listed twice, a few whose pages never give a head count.
  add(share(0.1), (i) =>
    base(i % 6 === 1 ? { kind: "duplicate", www: i % 12 === 1 } : i % 10 === 3 ? { kind: "silent" } : {}),
  );
  // Near misses, each failing one criterion.
  add(share(0.04), () => base({ employees: int(300, 2000) }));
  add(share(0.04), () => base({ city: "Munich" }));
  add(share(0.03), () => base({ b2b: false }));
  add(share(0.02), () => base({ employees: int(8, 40) }));
  // Snippets and directories place these in Berlin; their own pages say otherwise.
  add(share(0.02), (i) => ({
    ...base({ city: i % 2 ? "Hamburg" : "Munich" }),
    listedCity: "Berlin",
    kind: "contradicting",
  }));
  // Berlin software that fails a criterion and tells the reader to say yes anyway.
  add(share(0.02), (i) =>
    base(i % 2 ? { b2b: false, kind: "injection" } : { employees: int(600, 3000), kind: "injection" }),
  );
  // The rest of the world, kept off the target (re-rolled head count when it would hit).
  while (drafts.length < count) {
    const d = base({ city: pick(CITIES), industry: pick(INDUSTRIES), b2b: rnd() < 0.6, employees: int(5, 5000) });
    if (meets({ ...d } as WorldCompany, TARGET)) d.employees = int(250, 5000);
    drafts.push(d);
  }
  if (drafts.length > count) throw new Error(`the fake world cannot place its fixed groups in ${count} companies`);

  const names = shuffle(
    PREFIXES.flatMap((p) => SUFFIXES.map((s) => `${p} ${s}`)),
    rnd,
  );
  return shuffle(drafts, rnd).map((d, i) => {
    const name = i < names.length ? names[i] : `${names[i % names.length]} ${Math.floor(i / names.length) + 1}`;
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    return { name, slug, domain: `${slug}.test`, ...d };
  });
}

export function withUrls(c: Omit<WorldCompany, "urls">, port: number): WorldCompany {
  const hosts = c.www ? [c.domain, `www.${c.domain}`] : [c.domain];
  return { ...c, urls: hosts.flatMap((h) => [`http://${h}:${port}/`, `http://${h}:${port}/about`]) };
}

function shuffle<T>(xs: T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
