import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { llmsTxtResponse } from "../../lib/mcp/llms.ts";
import { GET } from "../../app/llms.txt/route.ts";

// /llms.txt links to the origin the client asked for. X-Forwarded-Host and -Proto count only
// behind a trusted proxy (TRUST_PROXY): otherwise anyone could make a shared cache keep a copy
// whose links point elsewhere. Vary names every header the links came from.

const FORGED = { host: "cells.example.com", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
const ask = (headers: Record<string, string>) => new Request("http://127.0.0.1:3000/llms.txt", { headers });

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("/llms.txt", () => {
  it("ignores forwarded headers without TRUST_PROXY (the route, as served), and says what it varies on", async () => {
    expect(app.rt.config.trustProxy).toBe(false);
    const res = await GET(ask(FORGED));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("(http://cells.example.com/api/v1/openapi.json)");
    expect(text).not.toContain("evil.example");
    expect(text).not.toContain("https://cells.example.com");
    expect(res.headers.get("vary")).toBe("Host");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("follows a trusted proxy's forwarded host and scheme, and varies on them", async () => {
    const res = llmsTxtResponse(ask(FORGED), true);
    const text = await res.text();
    expect(text).toContain("(https://evil.example/api/v1/openapi.json)");
    expect(text).not.toContain("cells.example.com");
    expect(res.headers.get("vary")).toBe("Host, X-Forwarded-Host, X-Forwarded-Proto");
    // Without forwarded headers, the Host the client sent.
    expect(await llmsTxtResponse(ask({ host: "cells.example.com" }), true).text()).toContain(
      "(http://cells.example.com/mcp)",
    );
  });

  it("falls back to the request's own origin when the Host is not a host", async () => {
    const text = await llmsTxtResponse(ask({ host: "bad host/../x" }), false).text();
    expect(text).toContain("(http://127.0.0.1:3000/docs)");
  });
});
