import { afterAll, beforeAll, expect, it } from "vitest";
import { type CrashScene, openCrashScene } from "../support/crash-scene.ts";
import { startFakeWorld, TARGET_QUERY, type FakeWorld } from "../support/fake-world.ts";
import { keyedApi, pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { worldModel } from "../support/world-model.ts";

// Kill -9 the real server in the middle of a find, start it again, and check that the find goes on
// where it was: it reaches its count with no row added twice and no step charged twice. The world's
// companies live at loopback addresses of their own, which the server process reaches as it is.

const KEY = "cw_findcrashfindcrashfindcrashfindcra00";
let scene: CrashScene;
let world: FakeWorld;
let server: ServerProcess | undefined;

beforeAll(async () => {
  scene = await openCrashScene(60, "find-crash");
  world = await startFakeWorld({ addressing: "loopback" });
});
afterAll(async () => {
  await scene.close(server);
  await world.close();
});

const env = () => ({
  ...scene.env(KEY, 2),
  ALLOWED_PRIVATE_HOSTS: "127.0.0.0/8",
  SEARCH_PROVIDER: "searxng",
  SEARCH_BASE_URL: world.searchUrl,
  SEARCH_MAX_RESULTS: "10",
});
const api = keyedApi(() => server, KEY);

it("goes on after kill -9 without adding a row twice or charging a step twice", { timeout: 400_000 }, async () => {
  scene.llm.setHandler(worldModel());
  const port = await pickServerPort();
  server = await startServerProcess(env(), port);
  const base = await api("POST", "/api/v1/bases", {
    baseName: "Crash finds",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Website", type: "url" },
    ],
  });
  expect(base.status).toBe(201);
  const baseId = base.body.baseId as string;
  const started = await api("POST", `/api/v1/bases/${baseId}/finds`, {
    query: TARGET_QUERY,
    criteria: ["Based in Berlin", "Sells B2B", "Makes software", "50–200 employees"],
    count: 10,
  });
  expect(started.status).toBe(202);
  const findPath = `/api/v1/bases/${baseId}/finds/${started.body.id}`;
  await waitFor(
    async () => ((await api("GET", findPath)).body.candidates.added ?? 0) >= 3,
    "3 rows added",
    120_000,
    100,
  );
  await server.kill9();

  server = await startServerProcess(env(), port);
  const find = await waitFor(
    async () => {
      const f = (await api("GET", findPath)).body;
      return f.phase === "done" ? f : undefined;
    },
    "the find to finish after the restart",
    180_000,
    250,
  );
  expect(find).toMatchObject({ stopReason: "target", candidates: { added: 10 } });
  const rows = (await api("GET", `/api/v1/bases/${baseId}/rows?limit=100`)).body.rows as {
    cells: Record<string, string>;
  }[];
  expect(rows).toHaveLength(10);
  expect(new Set(rows.map((r) => r.cells.Website)).size).toBe(10);
  // Each step's charge is in the ledger once, and the find's figure is their sum.
  const entries = (await api("GET", "/api/v1/credits?limit=200")).body.entries as { amount: number; reason: string }[];
  const spent = -entries.filter((e) => e.reason.startsWith("find_")).reduce((sum, e) => sum + e.amount, 0);
  expect(spent).toBe(find.credits.spent);
});
