import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { healthTimesDuring, peakRssDuring, worstBlockedMs } from "./health-pinger.ts";
import { manySmallSharedStringsWorkbook, oneHugeSharedStringWorkbook } from "./hostile-files.ts";

// The two XLSX zip bombs of the trust issue, sent to a real server's import preview and import:
// each is refused with file_too_large, the server's resident memory grows by less than 150 MB, and
// another client asking /api/health meanwhile never waits 100 ms more than when the server is calm.
// The file runs alone (*.alone.test.ts), so that other suites do not take the cores; a case is
// tried twice against a stray hiccup of the machine.

const KEY = "cw_workbookBombTestKey000000000000000000001";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const DELAY_LIMIT_MS = 100;
const RSS_LIMIT = 150 * 1024 * 1024;
let server: ServerProcess;
let dataDir: string;
let baseId: string;

const api = (method: string, p: string, body?: unknown) =>
  fetch(`${server.url}${p}`, {
    method,
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const send = (query: string, bytes: Buffer) =>
  fetch(`${server.url}/api/v1/bases/${baseId}/imports${query}`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": XLSX },
    body: new Uint8Array(bytes),
  });

/** The preview's answer, or the import's end: its status and error code. */
async function outcome(query: string, bytes: Buffer): Promise<[number | string, string | undefined]> {
  const res = await send(query, bytes);
  const body = (await res.json()) as { id?: string; error?: { code: string } };
  if (query.startsWith("/preview") || res.status !== 202) return [res.status, body.error?.code];
  const end = await waitFor(
    async () => {
      const r = (await (await api("GET", `/api/v1/bases/${baseId}/imports/${body.id}`)).json()) as {
        status: string;
        errors: { code: string }[];
      };
      return r.status === "done" || r.status === "failed" ? r : null;
    },
    "the import to end",
    60_000,
    20,
  );
  return [end.status, end.errors[0]?.code];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-bombs-"));
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEY: KEY }, await pickServerPort());
  const res = await api("POST", "/api/v1/bases", { baseName: "Bombs", columns: [{ name: "Name" }] });
  const base = (await res.json()) as { baseId: string };
  expect(res.status, JSON.stringify(base)).toBe(201);
  baseId = base.baseId;
  // Warm the import routes and exceljs, so that start-up costs are not counted.
  const warm = oneHugeSharedStringWorkbook(1);
  await send("/preview", warm);
  await outcome("", warm);
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const measured: Record<string, { delayMs: number; rssMb: number }> = {};

describe("an XLSX zip bomb is refused without stalling or swelling the server", () => {
  const bombs: [string, Buffer][] = [
    ["one 64 MB shared string", oneHugeSharedStringWorkbook(64)],
    ["64 MB of small shared strings", manySmallSharedStringsWorkbook(64)],
  ];
  const cases = bombs.flatMap(([name, bytes]) => [
    [`${name}, preview`, "/preview", bytes, 413] as const,
    [`${name}, import`, "", bytes, "failed"] as const,
  ]);

  it.each(cases)("%s", { timeout: 120_000, retry: 1 }, async (name, query, bytes, status) => {
    const { times: calm } = await healthTimesDuring(server.url, () => sleep(1_000));
    const { before, peak, result } = await peakRssDuring(server.child.pid!, () =>
      healthTimesDuring(server.url, () => outcome(query, bytes), server.child.pid),
    );
    expect(await result.result).toEqual([status, "file_too_large"]);
    const delayMs = worstBlockedMs(result.answers, median(calm));
    measured[name] = { delayMs, rssMb: Math.round((peak - before) / 1_048_576) };
    expect(result.times.length).toBeGreaterThan(0);
    expect(
      delayMs,
      `health answers during "${name}" (ms, main-thread CPU ms): ${result.answers.map((a) => `${Math.round(a.ms)}/${a.cpuMs}`).join(", ")}`,
    ).toBeLessThan(DELAY_LIMIT_MS);
    expect(peak - before).toBeLessThan(RSS_LIMIT);
  });

  afterAll(() => {
    console.log("worst extra delay of /api/health and RSS growth of the server per bomb:", measured);
  });
});
