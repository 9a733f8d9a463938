import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { startPageServer, type PageServer } from "../support/page-server.ts";
import { createBase } from "../support/bases.ts";
import { addRows, settled } from "./helpers.ts";

// A page full of NUL characters and broken surrogates must not spoil anyone's cells: what the
// tools fetched is cleaned before it is prompted or stored, and the cells written in the same
// batch as the poisoned one are stored too.

let llm: FakeLlm;
let pages: PageServer;
let app: TestApp;

beforeAll(async () => {
  llm = await startFakeLlm();
  pages = await startPageServer({
    "/poisoned": {
      contentType: "text/plain; charset=utf-8",
      body: "Acme\u0000 makes widgets \ud800 in Rotterdam.\u0000",
    },
    "/clean": { contentType: "text/plain; charset=utf-8", body: "Globex makes gadgets in Lyon." },
  });
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:m", ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1", AI_CONCURRENCY: "8" },
    { engine: true },
  );
});
afterAll(async () => {
  await app.close();
  await llm.close();
  await pages.close();
});

it("cleans fetched text before it is prompted or stored, and every cell of the batch lands", async () => {
  const { baseId } = await createBase(app, {
    columns: [
      { name: "Site", type: "url", isPrimary: true },
      { name: "What", isAiEnabled: true, inputColumns: ["Site"], tools: ["scrape-url"] },
    ],
  });
  llm.setHandler((req) => {
    const site = /https?:\/\/\S+\/(poisoned|clean)/.exec(JSON.stringify(req.messages))![0];
    const tool = req.messages.find((m) => m.role === "tool");
    if (!tool) return { toolCalls: [{ name: "scrape-url", args: { url: site } }] };
    // The model echoes what it read, NUL and all.
    return {
      json: {
        value: `Summary\u0000 of ${site.endsWith("poisoned") ? "Acme" : "Globex"}`,
        sources: [site],
        confidenceScore: 0.8,
      },
    };
  });
  const sites = ["poisoned", "clean", "clean", "poisoned", "clean", "clean"].map((p, i) => `${pages.url}/${p}?n=${i}`);
  await addRows(
    app,
    baseId,
    sites.map((Site) => ({ Site })),
  );
  const rows = await settled(app, baseId);
  expect(rows).toHaveLength(6);
  expect(rows.map((r) => r.cells.What.status)).toEqual(Array(6).fill("done"));
  for (const r of rows) expect(r.cells.What.value).toMatch(/^Summary of (Acme|Globex)$/);
  const poisoned = rows.find((r) => r.cells.Site.value.includes("poisoned"))!;
  const excerpt = Object.values(poisoned.cells.What.metadata.excerpts as Record<string, string>)[0];
  expect(excerpt).toContain("Acme makes widgets");
  expect(excerpt).not.toContain("\u0000");
  expect(excerpt.isWellFormed()).toBe(true);
  // What the model was shown was clean too.
  const toolText = llm.requests
    .flatMap((q) => q.messages.filter((m) => m.role === "tool").map((m) => String(m.content)))
    .join("\n");
  expect(toolText).toContain("Acme makes widgets");
  expect(toolText).not.toContain("\u0000");
});
