import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import type { Config } from "../config.ts";

// `npm run cli -- import --base <id> file.csv [--merge-on Email]`: uploads a file to a running
// Cellwright (CELLWRIGHT_URL, with CELLWRIGHT_API_KEY) as an import job and follows it to its end,
// with a progress bar on a terminal. It opens no database. (`import --in` is the database move.)

export interface ImportFileIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The progress bar, redrawn in place; absent when stderr is not a terminal. */
  progress?: (text: string) => void;
}

const TYPES: Record<string, string> = {
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".txt": "text/csv",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".jsonl": "application/x-ndjson",
  ".ndjson": "application/x-ndjson",
};

const USAGE =
  "Usage: npm run cli -- import --base <baseId> <file> [--merge-on <column>]… [--sheet <name>] [--no-ai] [--no-create-columns] [--no-typecast] [--no-header]";

export async function runImportFile(
  argv: string[],
  { url, apiKey }: Config["remote"],
  io: ImportFileIo,
): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        base: { type: "string" },
        "merge-on": { type: "string", multiple: true },
        sheet: { type: "string" },
        "no-ai": { type: "boolean" },
        "no-create-columns": { type: "boolean" },
        "no-typecast": { type: "boolean" },
        "no-header": { type: "boolean" },
      },
    });
  } catch (e) {
    io.err(`error: ${(e as Error).message.split(". ")[0]}.\n${USAGE}`);
    return 64;
  }
  const file = args.positionals[0];
  if (!args.values.base || !file || args.positionals.length !== 1) {
    io.err(USAGE);
    return 64;
  }
  if (!apiKey) {
    io.err("error: CELLWRIGHT_API_KEY is required (an API key of the Cellwright at CELLWRIGHT_URL).");
    return 64;
  }
  const size = await stat(file).then(
    (s) => s.size,
    () => -1,
  );
  if (size < 0) {
    io.err(`error: cannot read ${file}.`);
    return 1;
  }
  const query = new URLSearchParams();
  for (const m of args.values["merge-on"] ?? []) query.append("mergeOn", m);
  if (args.values.sheet) query.set("sheet", args.values.sheet);
  if (args.values["no-ai"]) query.set("runAi", "false");
  if (args.values["no-create-columns"]) query.set("createColumns", "false");
  if (args.values["no-typecast"]) query.set("typecast", "false");
  if (args.values["no-header"]) query.set("header", "false");
  const base = new URL(`/api/v1/bases/${encodeURIComponent(args.values.base)}/imports`, url);
  const headers = {
    "x-api-key": apiKey,
    "content-type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
    "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(path.basename(file))}`,
  };
  const res = await fetch(`${base}?${query}`, {
    method: "POST",
    headers,
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: "half",
  } as RequestInit).catch((e: Error) => ({
    ok: false,
    status: 0,
    json: async () => ({ error: { message: `${url} did not answer: ${e.message}` } }),
  }));
  const created = (await res.json()) as { id?: string; error?: { code?: string; message: string } };
  if (res.status !== 202 || !created.id) {
    io.err(`error: ${created.error?.message ?? `the server answered ${res.status}`}`);
    return 1;
  }
  let job: ImportJob;
  for (;;) {
    const poll = await fetch(`${base}/${created.id}`, { headers: { "x-api-key": apiKey } });
    job = (await poll.json()) as ImportJob;
    if (!poll.ok) {
      io.err(`error: ${(job as unknown as { error: { message: string } }).error.message}`);
      return 1;
    }
    io.progress?.(bar(job));
    if (job.status === "done" || job.status === "failed") break;
    await new Promise((r) => setTimeout(r, 500));
  }
  io.progress?.("\n");
  io.out(
    `${job.status}: ${job.rowsRead} lines read, ${job.rowsCreated} rows created, ${job.rowsUpdated} updated, ${job.rowsSkipped} skipped (import ${job.id})`,
  );
  if (job.createdColumns.length > 0) io.out(`new columns: ${job.createdColumns.join(", ")}`);
  if (job.ignoredColumns.length > 0) io.out(`ignored columns: ${job.ignoredColumns.join(", ")}`);
  if (job.runId) io.out(`AI cells: run ${job.runId}`);
  for (const e of job.errors.slice(0, 10))
    io.err(`line ${e.line}${e.column ? `, ${e.column}` : ""}: ${e.message} (${e.code})`);
  return job.status === "done" ? 0 : 1;
}

interface ImportJob {
  id: string;
  status: string;
  linesTotal: number | null;
  rowsRead: number;
  rowsCreated: number;
  rowsUpdated: number;
  rowsSkipped: number;
  createdColumns: string[];
  ignoredColumns: string[];
  errors: { line: number; column: string | null; code: string; message: string }[];
  runId: string | null;
}

function bar(job: ImportJob): string {
  if (job.linesTotal === null) return `\r${job.status === "queued" ? "queued" : "reading the file"}…`;
  const share = job.linesTotal === 0 ? 1 : job.rowsRead / job.linesTotal;
  const filled = Math.round(share * 30);
  return `\r[${"#".repeat(filled)}${"-".repeat(30 - filled)}] ${Math.floor(share * 100)}% ${job.rowsRead.toLocaleString("en-US")}/${job.linesTotal.toLocaleString("en-US")} lines`;
}
