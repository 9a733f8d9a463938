import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeLlm, type FakeLlm, type FakeLlmRequest } from "../support/fake-llm.ts";
import { keyedApi, pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";

// `npm run cli -- eval` as users run it: a child process talking to the real server (which holds
// the embedded database and runs the evaluation in its engine), with a scripted model whose
// right and wrong answers, and their confidences, fix the figures the CLI must print.

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const KEY = "cw_evalclievalclievalclievalclievalcli00";
const ROWS = 10;
const INDUSTRIES = ["Software", "Retail", "Banking", "Energy"];
const truth = (i: number) => INDUSTRIES[i % INDUSTRIES.length];
// The column's instructions get rows 0-5 right (so 6 labels are accepts, 4 corrections: 60%
// before); the evaluated instructions get rows 0-8 right at 0.95 and row 9 wrong at 0.35.
const COLUMN_INSTRUCTIONS = "Name the company's industry.";
const TRIED_INSTRUCTIONS = "Name the company's industry, from its main product. (tried)";

let llm: FakeLlm;
let server: ServerProcess | undefined;
let dir: string;

function answer(req: FakeLlmRequest) {
  const i = Number(/Company (\d+)/.exec(req.lastUserText)?.[1]);
  if (!Number.isInteger(i)) return undefined;
  const prompt = `${req.system}\n${req.messages.map((m) => m.content).join("\n")}`;
  const [right, confidence, wrongConfidence] = prompt.includes("(tried)") ? [i < 9, 0.95, 0.35] : [i < 6, 0.8, 0.6];
  // "(slow)" instructions keep every row in flight long enough to cancel the evaluation.
  const delayMs = prompt.includes("(slow)") ? 4_000 : 0;
  return {
    delayMs,
    json: {
      value: right ? truth(i) : "Unknown",
      sources: [],
      confidenceScore: right ? confidence : wrongConfidence,
      additionalDetails: null,
    },
  };
}

const api = keyedApi(() => server, KEY);

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No DATA_DIR and no DATABASE_URL: the command must not need the database the server holds.
    // (A later --url in args wins over the server's.)
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      CELLWRIGHT_API_KEY: KEY,
    };
    const child = spawn(process.execPath, [tsx, "lib/cli/index.ts", "eval", "--url", server!.url, ...args], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

beforeAll(async () => {
  llm = await startFakeLlm({ handler: answer });
  dir = mkdtempSync(path.join(tmpdir(), "cw-eval-cli-"));
  server = await startServerProcess(
    { DATA_DIR: path.join(dir, "data"), API_KEY: KEY, OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:fake-model" },
    await pickServerPort(),
  );
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("imports the labels as verified cells, evaluates other instructions and prints the accuracy and the buckets", {
  timeout: 300_000,
}, async () => {
  const base = await api("POST", "/api/v1/bases", {
    baseName: "Golden set",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Industry", isAiEnabled: true, inputColumns: ["Company"], instructions: COLUMN_INSTRUCTIONS },
    ],
  });
  expect(base.status).toBe(201);
  const baseId = base.body.baseId as string;
  const added = await api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
  });
  expect(added.status).toBe(200);
  const rows = async () => (await api("GET", `/api/v1/bases/${baseId}/rows?expand=true`)).body.rows as any[];
  await waitFor(
    async () => (await rows()).every((r) => r.cells.Industry.status === "done"),
    "the column's cells to be done",
    120_000,
    200,
  );

  const labels = path.join(dir, "labels.csv");
  const lines = Array.from({ length: ROWS }, (_, i) => `Company ${i},${truth(i)}`);
  writeFileSync(labels, ["company,Industry", ...lines, "Company 99,Retail", ""].join("\n"));
  const instructions = path.join(dir, "instructions.txt");
  writeFileSync(instructions, TRIED_INSTRUCTIONS);

  const first = await cli([
    "--base",
    baseId,
    "--column",
    "Industry",
    "--labels",
    labels,
    "--instructions",
    instructions,
  ]);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toContain('1 label(s) skipped: no row has this Company ("Company 99")');
  expect(first.stdout).toContain(
    'Imported 10 label(s) into "Industry" as verified values: 6 accepted (the column\'s answer was right), 4 corrected, 0 already verified.',
  );
  expect(first.stdout).toMatch(/^Accuracy +90\.0% \(9 of 10 rows right\)$/m);
  expect(first.stdout).toMatch(/^Before +60\.0% /m);
  expect(first.stdout).toMatch(/^Changed +instructions /m);
  expect(first.stdout).toMatch(/^Calibration error +0\.08 /m);
  expect(first.stdout).toMatch(/^0\.3–0\.4 +1 +0\.0% +0\.35$/m);
  expect(first.stdout).toMatch(/^0\.9–1\.0 +9 +100\.0% +0\.95$/m);
  // Not a terminal: one plain progress line per change, ending at all rows.
  expect(first.stderr).toMatch(/^10\/10 rows$/m);

  // Every label is now the cell's verified value.
  const after = await rows();
  expect(after.map((r) => [r.cells.Company.value, r.cells.Industry.value, r.cells.Industry.verified])).toEqual(
    Array.from({ length: ROWS }, (_, i) => [`Company ${i}`, truth(i), true]),
  );
  const history = (await api("GET", `/api/v1/bases/${baseId}/review`)).body.actions as { action: string }[];
  expect(history.filter((a) => a.action === "accept")).toHaveLength(6);
  expect(history.filter((a) => a.action === "edit")).toHaveLength(4);

  // The same golden set again adds nothing to the history, and --json prints the evaluation alone.
  const again = await cli(["--base", baseId, "--column", "industry", "--labels", labels, "--json"]);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toContain("0 accepted (the column's answer was right), 0 corrected, 10 already verified.");
  const evaluation = JSON.parse(again.stdout);
  // The column's own instructions: rows 6-9 answer "Unknown" against the verified labels.
  expect(evaluation).toMatchObject({
    status: "done",
    accuracy: 0.6,
    previousAccuracy: 0.6,
    counts: { rows: 10, correct: 6, incorrect: 4 },
  });
  expect((await api("GET", `/api/v1/bases/${baseId}/review`)).body.actions).toHaveLength(10);

  // Cancelled from elsewhere while the CLI waits: it prints what there is and exits 1.
  const slow = path.join(dir, "slow.txt");
  writeFileSync(slow, "Name the industry. (slow)");
  const waiting = cli(["--base", baseId, "--column", "Industry", "--labels", labels, "--instructions", slow]);
  const columnId = (base.body.sheetColumns as { id: string; name: string }[]).find((c) => c.name === "Industry")!.id;
  const running = await waitFor(
    async () => {
      const list = (await api("GET", `/api/v1/bases/${baseId}/columns/${columnId}/evaluations?limit=1`)).body
        .evaluations as { runId: string; settings: { instructions: string } }[];
      return list[0]?.settings.instructions.includes("(slow)") ? list[0] : undefined;
    },
    "the slow evaluation to start",
    60_000,
    100,
  );
  expect((await api("POST", `/api/v1/runs/${running.runId}/cancel`)).status).toBe(200);
  const cancelled = await waiting;
  expect(cancelled.code).toBe(1);
  expect(cancelled.stdout).toMatch(/^Evaluation eval_\w+ of "Industry": cancelled/m);
  expect(cancelled.stderr).toMatch(/^error: The evaluation was cancelled \(run run_\w+\)/m);
});

it("fails readably: a column that is not there, labels without the key column, a wrong key", {
  timeout: 120_000,
}, async () => {
  const base = await api("POST", "/api/v1/bases", {
    baseName: "Errors",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Industry", isAiEnabled: true, inputColumns: ["Company"] },
    ],
  });
  const baseId = base.body.baseId as string;
  const labels = path.join(dir, "bad.csv");
  writeFileSync(labels, "Name,Industry\nAcme,Software\n");

  const noColumn = await cli(["--base", baseId, "--column", "Sector", "--labels", labels]);
  expect(noColumn.code).toBe(1);
  expect(noColumn.stderr).toMatch(/^error: The base has no column "Sector"; its columns are "Company", "Industry"\.$/m);

  const noKey = await cli(["--base", baseId, "--column", "Industry", "--labels", labels]);
  expect(noKey.code).toBe(1);
  expect(noKey.stderr).toContain('The labels file has no "Company" column to match rows by');

  const byName = await cli(["--base", baseId, "--column", "Industry", "--labels", labels, "--key", "Name"]);
  expect(byName.code).toBe(1);
  expect(byName.stderr).toMatch(/^error: The base has no column "Name"/m);

  const unknown = path.join(dir, "unknown.csv");
  writeFileSync(unknown, "Company,Industry\nAcme,Software\n");
  const noMatch = await cli(["--base", baseId, "--column", "Industry", "--labels", unknown]);
  expect(noMatch.code).toBe(1);
  expect(noMatch.stderr).toContain('1 label(s) skipped: no row has this Company ("Acme")');
  expect(noMatch.stderr).toMatch(/^error: No label could be imported, so there is nothing to evaluate\./m);

  const badKey = await cli(["--base", baseId, "--column", "Industry", "--labels", unknown, "--api-key", "cw_wrong"]);
  expect(badKey.code).toBe(1);
  expect(badKey.stderr).toMatch(/^error: .*\(invalid_api_key\) Check --api-key or CELLWRIGHT_API_KEY\.$/m);

  const closed = await pickServerPort();
  const noServer = await cli([
    "--base",
    baseId,
    "--column",
    "Industry",
    "--labels",
    unknown,
    "--url",
    `http://127.0.0.1:${closed}`,
  ]);
  expect(noServer.code).toBe(1);
  expect(noServer.stderr).toContain(
    `error: Cellwright at http://127.0.0.1:${closed} did not answer (ECONNREFUSED). Is the server running (npm start)?`,
  );
});
