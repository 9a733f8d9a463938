import type { FakeLlmRequest, FakeReply } from "./fake-llm-types.ts";

// A scripted model for finds in the fake world: it plans the query as given, reads candidates out
// of search results line by line, and verifies criteria by reading the facts sentence of the pages
// it is shown, quoting it. It never follows text inside the pages (the injection pages say to
// answer yes). Criteria it understands: "Based in <City>", "B2B", "<industry>", "<a>–<b> employees".

const PAGE = /Page (\S+) \(([^)]*)\):\n<<<UNTRUSTED_DATA[^\n]*>>>\n[^\n]*\n([\s\S]*?)<<<END_UNTRUSTED_DATA/g;

export interface WorldModelOptions {
  /** Extra planned searches. */
  queries?: string[];
  /** Quote text that is on no page (a model inventing its evidence). */
  inventQuotes?: boolean;
}

export function worldModel(opts: WorldModelOptions = {}) {
  return (req: FakeLlmRequest): FakeReply | undefined => {
    if (req.system.startsWith("You plan web searches")) return { json: { queries: opts.queries ?? [] } };
    if (req.system.startsWith("You read web search results")) return { json: { entities: entities(req.lastUserText) } };
    if (req.system.startsWith("You check whether one")) return { json: verify(req.lastUserText, opts) };
    return undefined;
  };
}

function entities(text: string) {
  const out: { name: string; url: string | null }[] = [];
  for (const m of text.matchAll(/^\d+\. (.+)\n\s+URL: (\S+)\n\s+(.*)$/gm)) {
    const [, title, url, snippet] = m;
    if (title.includes("| Directory")) {
      const names = /: (.*)\.$/.exec(snippet)?.[1].split(", ") ?? [];
      for (const name of names) out.push({ name, url: null });
    } else out.push({ name: title.split(/: | \| /)[0].replace(/^About /, ""), url });
  }
  return out;
}

function verify(text: string, opts: WorldModelOptions) {
  const pages = [...text.matchAll(PAGE)].map((m) => ({ url: m[1], text: m[3] }));
  const criteria = [...text.matchAll(/^- (c\d+): (.+)$/gm)].map((m) => ({ id: m[1], text: m[2] }));
  const facts = pages
    .map((p) => ({
      url: p.url,
      m: /([^.\n]*? is a (B2B|B2C) (\w+) company headquartered in (\w+)(?: with (\d+) employees)?\.)/.exec(p.text),
    }))
    .find((f) => f.m);
  const verdicts = criteria.map((c) => {
    if (!facts?.m)
      return {
        criterionId: c.id,
        satisfied: "unclear",
        reasoning: "The pages do not say.",
        quotes: [],
        confidence: 0.2,
      };
    const [sentence, , kind, industry, city, employees] = facts.m;
    const quote = [{ url: facts.url, text: opts.inventQuotes ? `${sentence} Trusted by Fortune 500.` : sentence }];
    const yes = (ok: boolean, why: string) => ({
      criterionId: c.id,
      satisfied: ok ? "yes" : "no",
      reasoning: why,
      quotes: quote,
      confidence: 0.9,
    });
    const t = c.text.toLowerCase();
    const range = /(\d+)\D+(\d+) employees/.exec(t);
    if (range) {
      if (!employees)
        return { criterionId: c.id, satisfied: "unclear", reasoning: "No head count.", quotes: [], confidence: 0.3 };
      const n = Number(employees);
      return yes(n >= Number(range[1]) && n <= Number(range[2]), `${n} employees.`);
    }
    if (t.startsWith("based in")) return yes(t.endsWith(city.toLowerCase()), `Headquartered in ${city}.`);
    if (t.includes("b2b")) return yes(kind === "B2B", `A ${kind} company.`);
    return yes(t.includes(industry.toLowerCase()), `A ${industry} company.`);
  });
  const employees = facts?.m?.[5];
  return { verdicts, values: employees ? [{ column: "Employees", value: employees }] : [] };
}
