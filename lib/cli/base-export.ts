import { parseArgs } from "node:util";
import type { Writable } from "node:stream";
import type { Config } from "../config.ts";

// `npm run cli -- export --base <id> --format csv > out.csv`: a base's rows as a file, from a
// running Cellwright (CELLWRIGHT_URL, CELLWRIGHT_API_KEY) over its export endpoint. It opens no
// database, so it works while the server holds the embedded one. The file goes to stdout as it
// arrives; progress goes to stderr, and only when stderr is a terminal.

export const BASE_EXPORT_USAGE =
  "Usage: npm run cli -- export --base <baseId> [--format csv|xlsx|jsonl] [--view <viewId>] [--metadata] [--ids] [--columns <a,b>] [--filter <json>] [--sort=-a,b] [--search <text>] > file";

export interface BaseExportIo {
  stdout: Writable;
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

const OPTIONS = {
  base: { type: "string" },
  format: { type: "string", default: "csv" },
  view: { type: "string" },
  metadata: { type: "boolean" },
  ids: { type: "boolean" },
  raw: { type: "boolean" },
  columns: { type: "string" },
  filter: { type: "string" },
  sort: { type: "string" },
  search: { type: "string" },
} as const;

/** Whether `export` means a base export (with --base) rather than the whole-database export. */
export const isBaseExport = (argv: readonly string[]) =>
  argv[0] === "export" && argv.some((a) => a === "--base" || a.startsWith("--base="));

function exportQuery(v: Record<string, string | boolean | undefined>): URLSearchParams {
  const q = new URLSearchParams({ format: String(v.format) });
  const pass: [string, string][] = [
    ["view", "viewId"],
    ["columns", "columns"],
    ["filter", "filter"],
    ["sort", "sort"],
    ["search", "search"],
  ];
  for (const [from, to] of pass) if (typeof v[from] === "string") q.set(to, v[from] as string);
  for (const flag of ["metadata", "ids", "raw"]) if (v[flag]) q.set(flag, "true");
  return q;
}

/** Exit codes as the other commands: 0 done, 1 the export failed, 64 wrong usage. */
export async function runBaseExport(argv: string[], remote: Config["remote"], io: BaseExportIo): Promise<number> {
  const fail = (code: number, message: string) => (io.stderr.write(`error: ${message}\n`), code);
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv.slice(1), options: OPTIONS, strict: true }).values;
  } catch (e) {
    return fail(64, `${(e as Error).message.split(". ")[0]}.\n${BASE_EXPORT_USAGE}`);
  }
  if (!values.base) return fail(64, `--base is required.\n${BASE_EXPORT_USAGE}`);
  if (!["csv", "xlsx", "jsonl"].includes(String(values.format)))
    return fail(64, `--format is csv, xlsx or jsonl.\n${BASE_EXPORT_USAGE}`);
  if (!remote.apiKey)
    return fail(64, "CELLWRIGHT_API_KEY is required (an API key of the Cellwright at CELLWRIGHT_URL).");

  const url = new URL(
    `/api/v1/bases/${encodeURIComponent(String(values.base))}/export?${exportQuery(values)}`,
    remote.url,
  );
  let res: Response;
  try {
    res = await fetch(url, { headers: { "x-api-key": remote.apiKey } });
  } catch (e) {
    return fail(1, `Cellwright at ${remote.url} did not answer: ${(e as Error).cause ?? (e as Error).message}`);
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    return fail(1, body?.error ? `${body.error.message} (${body.error.code})` : `HTTP ${res.status}`);
  }
  const progress = io.stderr.isTTY ? progressLine(io.stderr, String(values.format)) : undefined;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    progress?.add(chunk);
    if (!io.stdout.write(chunk)) await new Promise((resolve) => io.stdout.once("drain", resolve));
  }
  progress?.done();
  return 0;
}

/** "12,000 rows" (CSV and JSON Lines, counted by line ends) or "3.2 MB" (XLSX), redrawn at most 5 times a second. */
function progressLine(stderr: BaseExportIo["stderr"], format: string) {
  // A CSV record ends with CRLF (a line break inside a quoted field is usually a lone LF).
  const end = format === "csv" ? [13, 10] : [10];
  let rows = format === "csv" ? -1 : 0;
  let bytes = 0;
  let last = 0;
  let previous = 0;
  const text = () =>
    format === "xlsx" ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(rows, 0).toLocaleString("en-US")} rows`;
  const draw = () => stderr.write(`\rExporting… ${text()}`);
  return {
    add(chunk: Uint8Array) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (end.length === 1 ? b === 10 : b === 10 && previous === 13) rows++;
        previous = b;
      }
      const now = Date.now();
      if (now - last > 200) (last = now), draw();
    },
    done() {
      draw();
      stderr.write("\n");
    },
  };
}
