import { afterAll, beforeAll, expect, it } from "vitest";
import { startPageServer, type PageServer } from "../support/page-server.ts";
import { createBase } from "../support/bases.ts";
import { addRows, settled, useEngineApp } from "./helpers.ts";
import { MAX_TOOL_CALLS_PER_STEP } from "../../lib/engine/llm/call-budget.ts";

// One cell generation makes at most AI_MAX_CALLS_PER_CELL model calls, across attempts, tool
// steps and validation repairs (counted at the fake server), and is charged nothing when it ends
// at the cap. A step asking for many tool calls runs only MAX_TOOL_CALLS_PER_STEP of them.

let pages: PageServer;
beforeAll(async () => {
  pages = await startPageServer({
    "/about": { contentType: "text/plain; charset=utf-8", body: "Acme makes widgets in Rotterdam." },
  });
});
afterAll(() => pages.close());

const t = useEngineApp(
  { ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1", AI_MAX_ATTEMPTS: "20", AI_RETRY_BASE_MS: "1" },
  { credits: 100 },
);

// Each test waits for retries that the queue takes up on its poll (every 500 ms), a dozen times at
// most; on a busy machine that is slow but bounded. The test's own limit is above every wait in it,
// so a slow run ends with the assertion that failed, not with vitest's default 30 s cut.
const SETTLE_MS = 90_000;
const TEST_MS = 200_000;

const columns = (tools: string[] = []) => [
  { name: "Site", type: "url", isPrimary: true },
  { name: "What", isAiEnabled: true, inputColumns: ["Site"], tools },
];

async function outcome(baseId: string) {
  const [row] = await settled(t.app, baseId, SETTLE_MS);
  const attempts = await t.app.rt.db.prisma.cellAttempt.findMany({ where: { rowId: row.id } });
  const ws = await t.app.rt.db.prisma.workspace.findUniqueOrThrow({ where: { id: t.app.workspaceA } });
  return { cell: row.cells.What, calls: attempts.reduce((n, a) => n + a.modelCalls, 0), credits: Number(ws.credits) };
}

it("stops a model that keeps asking for tools at exactly 12 calls, uncharged", { timeout: TEST_MS }, async () => {
  const { baseId } = await createBase(t.app, { columns: columns(["scrape-url"]) });
  t.llm.setHandler(() => ({ toolCalls: [{ name: "scrape-url", args: { url: `${pages.url}/about` } }] }));
  await addRows(t.app, baseId, [{ Site: `${pages.url}/about` }]);
  const o = await outcome(baseId);
  expect(o.cell.status).toBe("error");
  expect(o.cell.error?.code).toBe("call_limit_reached");
  expect(t.llm.totalRequests).toBe(12);
  expect(o.calls).toBe(12);
  expect(o.credits).toBe(100);
});

it("stops a model that keeps answering malformed JSON at the cap, across attempts", { timeout: TEST_MS }, async () => {
  const { baseId } = await createBase(t.app, { columns: columns() });
  t.llm.setHandler(() => ({ malformed: true }));
  await addRows(t.app, baseId, [{ Site: "https://acme.example" }]);
  const o = await outcome(baseId);
  expect(o.cell.error?.code).toBe("call_limit_reached");
  expect(t.llm.totalRequests).toBe(12);
  expect(o.credits).toBe(100);
});

it("runs at most MAX_TOOL_CALLS_PER_STEP tool calls of one step", { timeout: TEST_MS }, async () => {
  const { baseId } = await createBase(t.app, { columns: columns(["scrape-url"]) });
  const before = pages.requests.length;
  t.llm.setHandler((req) => {
    if (req.messages.some((m) => m.role === "tool"))
      return { json: { value: "Widgets", sources: [`${pages.url}/about?n=0`], confidenceScore: 0.9 } };
    return {
      toolCalls: Array.from({ length: 12 }, (_, n) => ({
        name: "scrape-url",
        args: { url: `${pages.url}/about?n=${n}` },
      })),
    };
  });
  await addRows(t.app, baseId, [{ Site: `${pages.url}/about` }]);
  const o = await outcome(baseId);
  expect(o.cell.status).toBe("done");
  expect(pages.requests.length - before).toBe(MAX_TOOL_CALLS_PER_STEP);
  expect(t.llm.totalRequests).toBe(2);
  expect(o.credits).toBe(99);
});

it("counts a repair round as calls, and stops retries at a small AI_MAX_CALLS_PER_CELL", {
  timeout: TEST_MS,
}, async () => {
  const small = await (await import("../support/app.ts")).createTestApp(
    {
      OPENAI_BASE_URL: t.llm.baseUrl,
      AI_MODEL: "openai:m",
      AI_MAX_CALLS_PER_CELL: "3",
      AI_MAX_ATTEMPTS: "20",
      AI_RETRY_BASE_MS: "1",
    },
    { engine: true },
  );
  try {
    const { baseId } = await createBase(small, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Size", type: "number", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    });
    // Valid JSON whose value does not fit a number column: a repair round, then a new attempt.
    t.llm.setHandler(() => ({ json: { value: "about a dozen", sources: [], confidenceScore: 0.5 } }));
    await addRows(small, baseId, [{ Company: "Acme" }]);
    const [row] = await settled(small, baseId, SETTLE_MS);
    expect(row.cells.Size.error?.code).toBe("invalid_output");
    expect(t.llm.totalRequests).toBe(2);
    t.llm.reset();
    t.llm.setHandler(() => ({ malformed: true }));
    await addRows(small, baseId, [{ Company: "Globex" }]);
    const rows = await settled(small, baseId, SETTLE_MS);
    expect(rows.find((r) => r.cells.Company.value === "Globex")!.cells.Size.error?.code).toBe("call_limit_reached");
    expect(t.llm.totalRequests).toBe(3);
  } finally {
    await small.close();
  }
});
