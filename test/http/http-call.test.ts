import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { callHttp, type HttpDeps } from "../../lib/engine/http/http-call.ts";
import { dbHttpCache } from "../../lib/engine/http/cache.ts";
import { localHostGate } from "../../lib/engine/http/host-gate.ts";
import { sharedHostGate } from "../../lib/engine/http/shared-host-gate.ts";
import type { HttpCall } from "../../lib/domain/fill/http-schema.ts";

// One HTTP call of a column against a real local provider and the real cache table.

let app: TestApp;
let provider: FakeProvider;
let deps: HttpDeps;
beforeAll(async () => {
  app = await createTestApp();
  provider = await startFakeProvider();
  deps = {
    gate: localHostGate(),
    cache: dbHttpCache(app.rt.db.prisma),
    fetch: { maxBytes: 1_000_000, connectTimeoutMs: 2_000, allowedPrivateHosts: ["127.0.0.1"] },
  };
});
afterAll(async () => {
  await provider.close();
  await app.close();
});
beforeEach(() => provider.reset());

const text = { type: "short-text", columnOptions: {} };
const secrets = new Map([["HUNTER", "sk_live_canary_123"]]);
const call = (over: Partial<HttpCall> = {}): HttpCall => ({
  request: {
    method: "GET",
    url: `${provider.url}/find?domain={{Domain}}&key={{secret:HUNTER}}`,
    headers: { Authorization: "Bearer {{secret:HUNTER}}" },
  },
  extract: "data.email",
  cacheTtlSeconds: 0,
  ...over,
});

describe("an HTTP call", () => {
  it("fills the template, reads the value, and keeps the secret out of its source", async () => {
    provider.setHandler((r) => ({ json: { data: { email: `ceo@${r.query.get("domain")}` } } }));
    const result = await callHttp(call(), text, { Domain: "a&b.example" }, secrets, deps);
    expect(result).toMatchObject({ outcome: "found", value: "ceo@a&b.example", credits: 1 });
    expect(provider.requests[0].query.get("domain")).toBe("a&b.example");
    expect(provider.requests[0].headers.authorization).toBe("Bearer sk_live_canary_123");
    expect(result.source.url).toContain("key=[secret:HUNTER]");
    expect(JSON.stringify(result)).not.toContain("canary");
  });

  it("JSON-encodes the row's values in a body", async () => {
    provider.setHandler((r) => ({ json: { echo: JSON.parse(r.body).q } }));
    const value = 'say "hi"\nand {{secret:HUNTER}}';
    const result = await callHttp(
      call({ request: { method: "POST", url: `${provider.url}/echo`, body: { q: "{{Domain}}" } }, extract: "echo" }),
      { type: "long-text", columnOptions: {} },
      { Domain: value },
      secrets,
      deps,
    );
    // A row's value is data: a placeholder inside it is never resolved.
    expect(result.value).toBe(value);
  });

  it("ends a 404, an empty extraction or a matching notFound.when as a miss that costs its declared credits", async () => {
    provider.setHandler((r) =>
      r.query.get("domain") === "gone.example"
        ? { status: 404, json: { error: "not found" } }
        : r.query.get("domain") === "empty.example"
          ? { json: { data: { email: null } } }
          : { json: { data: { email: "x@y.example", score: 3 } } },
    );
    const miss = await callHttp(call(), text, { Domain: "gone.example" }, secrets, deps);
    expect(miss).toMatchObject({ outcome: "not_found", value: "", credits: 0, source: { status: 404 } });
    const empty = await callHttp(call({ credits: { notFound: 2 } }), text, { Domain: "empty.example" }, secrets, deps);
    expect(empty).toMatchObject({ outcome: "not_found", credits: 2 });
    const low = await callHttp(
      call({ notFound: { when: "data.score < 5" } }),
      text,
      { Domain: "low.example" },
      secrets,
      deps,
    );
    expect(low.outcome).toBe("not_found");
    await expect(
      callHttp(call({ notFound: { whenEmpty: false } }), text, { Domain: "empty.example" }, secrets, deps),
    ).rejects.toMatchObject({ code: "provider_invalid_answer" });
  });

  it("reuses a cached answer by resolved request: no second call, no second charge", async () => {
    provider.setHandler(() => ({ json: { data: { email: "a@b.example" } } }));
    const cached = call({ cacheTtlSeconds: 60 });
    const first = await callHttp(cached, text, { Domain: "cache.example" }, secrets, deps);
    const second = await callHttp(cached, text, { Domain: "cache.example" }, secrets, deps);
    expect(provider.requests).toHaveLength(1);
    expect(first.credits).toBe(1);
    expect(second).toMatchObject({ value: "a@b.example", credits: 0, source: { cached: true, calls: 0 } });
    // Another secret value is another request.
    await callHttp(cached, text, { Domain: "cache.example" }, new Map([["HUNTER", "other"]]), deps);
    expect(provider.requests).toHaveLength(2);
    const stored = await app.rt.db.prisma.$queryRawUnsafe<{ key: string; body: unknown }[]>(
      `SELECT key, body FROM http_cache`,
    );
    expect(JSON.stringify(stored)).not.toContain("canary");
  });

  it("retries 429 and 5xx, honouring a short Retry-After, and hands a long one back to the queue", async () => {
    let n = 0;
    provider.setHandler(() =>
      ++n === 1
        ? { status: 429, headers: { "retry-after": "1" } }
        : n === 2
          ? { status: 503 }
          : { json: { data: { email: "ok@x.example" } } },
    );
    const t0 = performance.now();
    const ok = await callHttp(call(), text, { Domain: "retry.example" }, secrets, deps);
    expect(ok).toMatchObject({ value: "ok@x.example", source: { calls: 3 } });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(950);

    provider.setHandler(() => ({ status: 429, headers: { "retry-after": "60" } }));
    await expect(callHttp(call(), text, { Domain: "later.example" }, secrets, deps)).rejects.toMatchObject({
      code: "provider_failed",
      details: { retryable: true, retryAfterMs: 60_000 },
    });
    expect(provider.requests.filter((r) => r.query.get("domain") === "later.example")).toHaveLength(1);
  });

  it("refuses malformed JSON, a refused request, a header broken by a value, and a missing secret", async () => {
    provider.setHandler((r) => (r.path === "/bad" ? { text: "{oops" } : { status: 403, json: {} }));
    await expect(
      callHttp(call({ request: { method: "GET", url: `${provider.url}/bad` } }), text, {}, secrets, deps),
    ).rejects.toMatchObject({ code: "provider_invalid_answer" });
    await expect(callHttp(call(), text, { Domain: "x" }, secrets, deps)).rejects.toMatchObject({
      code: "provider_refused",
    });
    const header = call({
      request: { method: "GET", url: `${provider.url}/x`, headers: { "X-Domain": "{{Domain}}" } },
    });
    await expect(callHttp(header, text, { Domain: "a\r\nX-Evil: 1" }, secrets, deps)).rejects.toMatchObject({
      code: "request_invalid",
    });
    await expect(callHttp(call(), text, { Domain: "x" }, new Map(), deps)).rejects.toMatchObject({
      code: "secret_not_found",
    });
    expect(provider.requests.map((r) => r.path)).toEqual(["/bad", "/find"]);
  });

  it("is guarded against private addresses", async () => {
    const guarded = { ...deps, fetch: { ...deps.fetch, allowedPrivateHosts: [] } };
    await expect(callHttp(call(), text, { Domain: "x" }, secrets, guarded)).rejects.toMatchObject({
      code: "blocked_url",
    });
    expect(provider.requests).toHaveLength(0);
  });

  it("keeps a host's calls in flight within its concurrency, in one process and across processes", async () => {
    provider.setHandler(() => ({ delayMs: 40, json: { data: { email: "c@x.example" } } }));
    const limited = call({ rateLimit: { concurrency: 2 } });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => callHttp(limited, text, { Domain: `c${i}.example` }, secrets, deps)),
    );
    expect(provider.maxInFlight()).toBe(2);
    provider.reset();
    // Two gates on one database stand for two worker processes.
    const [a, b] = ["proc-a", "proc-b"].map((owner) => ({ ...deps, gate: sharedHostGate(app.rt.db, owner) }));
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => callHttp(limited, text, { Domain: `s${i}.example` }, secrets, i % 2 ? a : b)),
    );
    expect(provider.requests).toHaveLength(8);
    expect(provider.maxInFlight()).toBeLessThanOrEqual(2);
  });
});
