import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { loadConfig } from "../../lib/config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { createWorkspace } from "../../lib/workspaces.ts";
import { createBase } from "../../lib/domain/bases.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { createImport } from "../../lib/imports/create.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { IMPORT_LIMITS } from "../../lib/imports/limits.ts";
import { waitFor } from "../support/wait.ts";
import { DataDirBusyError } from "../../lib/db/data-dir-lock.ts";

// Kill -9 a worker process in the middle of an import, then let another worker take it up: the
// import resumes after the last committed batch, with no half-written batch and no duplicate row.
// On the embedded database (DATA_DIR) or on PostgreSQL when TEST_DATABASE_URL is set.

const LINES = 40_000;
const root = path.resolve(import.meta.dirname, "../..");
let dataDir: string;
let env: Record<string, string>;
let dropDb: () => Promise<void> = async () => {};
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-import-kill-"));
  env = { DATA_DIR: dataDir };
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const name = `cw_test_${randomBytes(6).toString("hex")}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDb = async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  await dropDb();
  rmSync(dataDir, { recursive: true, force: true });
});

const open = () => createRuntime(loadConfig(env), { queue: "database" });

function startWorkerProcess(onLine: (line: string) => void): ChildProcess {
  const p = spawn("npx", ["--no-install", "tsx", "test/imports/import-worker-process.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffer = "";
  p.stdout!.on("data", (d) => {
    buffer += d;
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    lines.forEach(onLine);
  });
  p.stderr!.on("data", (d) => process.stderr.write(d));
  return p;
}

it("resumes after kill -9 with every line written exactly once", { timeout: 900_000 }, async () => {
  let rt: Runtime = await open();
  const ws = await createWorkspace(rt.db.prisma, "kill9");
  const base = await inTransaction(rt, (w) =>
    createBase(
      w,
      ws.workspace.id,
      {
        baseName: "Leads",
        columns: [
          { name: "Email", type: "email", isPrimary: true },
          { name: "Company" },
          { name: "Score", type: "number" },
        ],
      },
      [],
    ),
  );
  const file = path.join(dataDir, "leads.csv");
  writeFileSync(
    file,
    `Email,Company,Score\n${Array.from({ length: LINES }, (_, i) => `p${i}@x.test,Company ${i},${i}`).join("\n")}\n`,
  );
  const imp = await createImport(
    rt,
    ws.workspace.id,
    base.baseId,
    { mergeOn: ["Email"], createColumns: true, typecast: true, runAi: true, header: true },
    async (target) => {
      const { copyFile, stat } = await import("node:fs/promises");
      await copyFile(file, target);
      return { name: "leads.csv", contentType: "text/csv", size: (await stat(target)).size };
    },
  );
  // On the embedded database one process holds it at a time: the worker process takes over.
  if (!env.DATABASE_URL) await stopRuntime(rt);

  let done = 0;
  child = startWorkerProcess((line) => {
    const m = /^progress running (\d+)$/.exec(line);
    if (m) done = Number(m[1]);
  });
  await waitFor(() => done >= 5_000, "5,000 lines committed by the worker process", 240_000, 20);
  process.kill(-child.pid!, "SIGKILL");
  await new Promise((r) => child!.once("exit", r));

  // The killed worker holds the data directory until the system has reaped it.
  if (!env.DATABASE_URL)
    rt = await waitFor(
      () => open().catch((e) => (e instanceof DataDirBusyError ? null : Promise.reject(e))),
      "the killed worker's lock to go",
      60_000,
      100,
    );
  const [killed] = await rt.db.prisma.$queryRawUnsafe<{ lines_done: number; status: string; n: number }[]>(
    `SELECT i.lines_done, i.status, (SELECT count(*)::int FROM rows r JOIN sheets s ON s.id = r.sheet_id WHERE s.base_id = i.base_id) AS n FROM imports i WHERE i.id = $1`,
    imp.id,
  );
  expect(killed.status).toBe("running");
  expect(killed.lines_done).toBeLessThan(LINES);
  // Whole batches only: the rows written are exactly the lines committed.
  expect(killed.n).toBe(killed.lines_done);
  expect(killed.lines_done % (env.DATABASE_URL ? IMPORT_LIMITS.bulkBatchLines : IMPORT_LIMITS.batchLines)).toBe(0);

  // Another worker takes it up: at once on the embedded database (its leases are a dead
  // process's), once the 2 s lease runs out on PostgreSQL.
  await startImportWorker(rt, { pollMs: 50 });
  const final = await waitFor(
    async () => {
      const row = await rt.db.prisma.importJob.findUnique({ where: { id: imp.id } });
      return row?.status === "done" || row?.status === "failed" ? row : null;
    },
    "the import to finish after the restart",
    400_000,
    100,
  );
  expect(final).toMatchObject({
    status: "done",
    linesDone: LINES,
    rowsRead: LINES,
    rowsCreated: LINES,
    rowsSkipped: 0,
  });
  const [counts] = await rt.db.prisma.$queryRawUnsafe<{ n: number; distinct_emails: number }[]>(
    `SELECT count(*)::int AS n, count(DISTINCT r."values"->>$2)::int AS distinct_emails FROM rows r WHERE r.sheet_id = $1`,
    base.sheet.id,
    base.sheetColumns[0].id,
  );
  expect(counts).toEqual({ n: LINES, distinct_emails: LINES });
  await stopRuntime(rt);
});
