import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.ts";
import { emailEnrichmentTool, PATTERN_CONFIDENCE, type EmailEnrichmentOutput } from "../../lib/tools/index.ts";
import { candidateLocalParts, splitName } from "../../lib/tools/email/patterns.ts";
import { isDisposableDomain, normalizeDomain } from "../../lib/tools/email/domain.ts";
import { createFakeDns, type FakeDns } from "../support/fake-dns.ts";
import { FAKE_HUNTER_KEY, startFakeHunter, type FakeHunter } from "../support/fake-search.ts";
import { makeContext } from "./context.ts";

let hunter: FakeHunter;
beforeAll(async () => {
  hunter = await startFakeHunter();
});
afterAll(() => hunter.close());

const mxDns = () =>
  createFakeDns({
    mx: {
      "acme.com": [
        { exchange: "mx2.acme.com", priority: 20 },
        { exchange: "mx1.acme.com", priority: 10 },
      ],
      "nullmx.com": [{ exchange: ".", priority: 0 }],
    },
    mxErrors: { "flaky.com": "ETIMEOUT" },
  });

const withHunter = { HUNTER_API_KEY: FAKE_HUNTER_KEY };

async function run(
  input: { name: string; domain: string; firstName?: string; lastName?: string },
  opts: { dns?: FakeDns; env?: Record<string, string> } = {},
) {
  const dns = opts.dns ?? mxDns();
  const env = opts.env ? { ...opts.env, HUNTER_BASE_URL: hunter.url } : {};
  const result = await emailEnrichmentTool.execute(input, makeContext(env, { dns }));
  return { ...result, out: result.output as EmailEnrichmentOutput, dns };
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a rejection");
}

describe("name patterns", () => {
  it("generates the common corporate patterns, most likely first", () => {
    expect(candidateLocalParts({ first: "ada", last: "lovelace" })).toEqual([
      "ada.lovelace",
      "alovelace",
      "ada",
      "adalovelace",
      "a.lovelace",
      "lovelace",
      "ada_lovelace",
      "ada-lovelace",
      "lovelace.ada",
      "lovelaceada",
      "lovelacea",
      "adal",
      "ada.l",
    ]);
    expect(candidateLocalParts({ first: "cher" })).toEqual(["cher"]);
  });

  it.each([
    ["Ada Lovelace", { first: "ada", last: "lovelace" }],
    ["  Dr. Ada   King Lovelace PhD ", { first: "ada", last: "lovelace" }],
    ["Lovelace, Ada", { first: "ada", last: "lovelace" }],
    ["José Núñez", { first: "jose", last: "nunez" }],
    ["Jan van der Berg", { first: "jan", last: "vanderberg" }],
    ["Seán O'Brien", { first: "sean", last: "obrien" }],
    ["Jean-Luc Picard", { first: "jean-luc", last: "picard" }],
    ["Ludwig Weiß", { first: "ludwig", last: "weiss" }],
    ["Cher", { first: "cher" }],
  ])("splits %s", (full, expected) => {
    expect(splitName(full)).toEqual(expected);
  });

  it("normalises domains and websites", () => {
    expect(normalizeDomain("https://www.Acme.com/about?x=1")).toBe("acme.com");
    expect(normalizeDomain("acme.com.")).toBe("acme.com");
    expect(normalizeDomain("ada@acme.co.uk")).toBe("acme.co.uk");
    expect(normalizeDomain("münchen.de")).toBe("xn--mnchen-3ya.de");
    for (const bad of ["not a domain", "localhost", "http://10.0.0.1/"]) {
      expect(() => normalizeDomain(bad), bad).toThrow(AppError);
    }
  });

  it("knows disposable domains and their subdomains", async () => {
    expect(await isDisposableDomain("mailinator.com")).toBe(true);
    expect(await isDisposableDomain("inbox.mailinator.com")).toBe(true);
    expect(await isDisposableDomain("acme.com")).toBe(false);
  });
});

describe("email-enrichment without a provider", () => {
  it("offers the first.last guess on a domain with MX records, never as verified", async () => {
    const { out, documents, dns } = await run({ name: "Ada Lovelace", domain: "https://www.acme.com" });
    expect(out).toMatchObject({
      email: "ada.lovelace@acme.com",
      status: "pattern_mx_valid",
      confidence: PATTERN_CONFIDENCE,
      verified: false,
      domain: "acme.com",
      mx: ["mx1.acme.com", "mx2.acme.com"],
    });
    expect(out.confidence).toBeLessThan(0.5);
    expect(out.candidates.slice(0, 2)).toEqual(["ada.lovelace@acme.com", "alovelace@acme.com"]);
    expect(out.explanation).toMatch(/Unverified guess/);
    expect(dns.mxCalls).toEqual(["acme.com"]);
    expect(documents).toEqual([
      expect.objectContaining({ url: "https://acme.com", excerpt: "MX: mx1.acme.com, mx2.acme.com" }),
    ]);
  });

  it("reports no_mx with no address when the domain takes no mail", async () => {
    for (const domain of ["nomail.com", "nullmx.com"]) {
      const { out } = await run({ name: "Ada Lovelace", domain });
      expect(out).toMatchObject({ email: null, status: "no_mx", confidence: 0, verified: false, mx: [] });
    }
  });

  it("rejects disposable domains before any lookup", async () => {
    const dns = mxDns();
    const err = await failure(
      emailEnrichmentTool.execute({ name: "Ada Lovelace", domain: "mailinator.com" }, makeContext({}, { dns })),
    );
    expect(err.code).toBe("disposable_domain");
    expect(dns.mxCalls).toEqual([]);
  });

  it("treats a failed MX lookup as a tool failure, not as no_mx", async () => {
    const err = await failure(run({ name: "Ada Lovelace", domain: "flaky.com" }));
    expect(err.code).toBe("tool_failed");
    expect(err.message).toContain("ETIMEOUT");
  });

  it("prefers explicit first and last names", async () => {
    const { out } = await run({ name: "A. Lovelace", domain: "acme.com", firstName: "Augusta", lastName: "King" });
    expect(out.email).toBe("augusta.king@acme.com");
  });

  it("validates its input schema", () => {
    expect(emailEnrichmentTool.inputSchema.safeParse({ name: "Ada" }).success).toBe(false);
    expect(emailEnrichmentTool.inputSchema.safeParse({ name: "Ada", domain: "acme.com" }).success).toBe(true);
  });
});

describe("email-enrichment with Hunter.io", () => {
  it("uses a verified Hunter result with high confidence and its sources", async () => {
    hunter.people.set("grace hopper@acme.com", {
      email: "ghopper@acme.com",
      score: 96,
      verification: "valid",
      sources: [{ domain: "blog.acme.com", uri: "https://blog.acme.com/team", extracted_on: "2024-02-01" }],
    });
    const { out, documents, dns } = await run({ name: "Grace Hopper", domain: "acme.com" }, { env: withHunter });
    expect(out).toMatchObject({ email: "ghopper@acme.com", status: "provider", verified: true });
    expect(out.confidence).toBeGreaterThanOrEqual(0.9);
    expect(documents[0]).toMatchObject({ url: "https://blog.acme.com/team", title: "blog.acme.com" });
    expect(dns.mxCalls).toEqual([]);
    expect(hunter.requests.at(-1)).toMatchObject({
      domain: "acme.com",
      first_name: "grace",
      last_name: "hopper",
      api_key: FAKE_HUNTER_KEY,
    });
  });

  it("keeps accept-all results unverified and below verified confidence", async () => {
    hunter.people.set("alan turing@acme.com", { email: "alan@acme.com", score: 88, verification: "accept_all" });
    const { out } = await run({ name: "Alan Turing", domain: "acme.com" }, { env: withHunter });
    expect(out).toMatchObject({ status: "provider", verified: false });
    expect(out.confidence).toBeLessThanOrEqual(0.75);
  });

  it("falls back to the MX-checked pattern when Hunter finds nobody or marks the address invalid", async () => {
    const unknown = await run({ name: "Nobody Known", domain: "acme.com" }, { env: withHunter });
    expect(unknown.out).toMatchObject({ status: "pattern_mx_valid", email: "nobody.known@acme.com", verified: false });
    hunter.people.set("bad address@acme.com", { email: "bad@acme.com", score: 40, verification: "invalid" });
    const invalid = await run({ name: "Bad Address", domain: "acme.com" }, { env: withHunter });
    expect(invalid.out).toMatchObject({ status: "pattern_mx_valid", email: "bad.address@acme.com" });
    expect(invalid.out.explanation).toContain("bad@acme.com");
  });

  it("still guesses when Hunter rejects the key, and says why", async () => {
    const { out } = await run({ name: "Ada Lovelace", domain: "acme.com" }, { env: { HUNTER_API_KEY: "wrong" } });
    expect(out.status).toBe("pattern_mx_valid");
    expect(out.explanation).toMatch(/Hunter\.io lookup failed: .*401/);
  });
});
