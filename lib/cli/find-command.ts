import type { ApiClient } from "./api-client.ts";
import { REMOTE_OPTIONS, remoteApi } from "./remote.ts";
import { intOption, stringOption, UsageError, type CommandInput, type ServerClientCommand } from "./command.ts";

// `npm run cli -- find`: fill a base from a description on the running server (docs/finds.md).
// It starts a find, or extends one, and with --wait follows it until it stops. A client of the
// REST API: the server's engine searches, verifies and charges.

const POLL_MS = 500;

interface FindView {
  id: string;
  runId: string;
  status: string;
  phase: string;
  stopReason: string | null;
  query: string;
  count: number;
  preview: boolean;
  criteria: { text: string; yes: number; no: number; unclear: number; successRate: number | null }[];
  candidates: Record<
    "generated" | "pending" | "matched" | "rejected" | "unclear" | "excluded" | "errors" | "added",
    number
  >;
  credits: { spent: number; maxCredits: number | null; estimateForCount: number | null };
  error: { code: string; message: string } | null;
}

const enc = encodeURIComponent;

export const FIND_COMMAND: ServerClientCommand = {
  path: "find",
  summary:
    "Find rows from a description on the running server: web searches, each criterion verified on the candidate's own pages; or --extend a find.",
  usage:
    '--base <baseId> (--query "<what>" --criterion "<statement>"… | --extend <findId>) --count <n> [--preview] [--max-credits <n>] [--include-unclear] [--wait] [--url <server>] [--api-key <key>] [--json]',
  options: {
    base: { type: "string", required: true },
    query: { type: "string" },
    criterion: { type: "string", multiple: true },
    count: { type: "string", required: true },
    extend: { type: "string" },
    preview: { type: "boolean" },
    "max-credits": { type: "string" },
    "include-unclear": { type: "boolean" },
    wait: { type: "boolean" },
    ...REMOTE_OPTIONS,
  },
  runtime: false,
  async run(config, input) {
    const api = remoteApi(config, input);
    const baseId = stringOption(input, "base");
    // In --json mode stdout carries only the find; everything for people goes to stderr.
    const note = input.options.json ? input.err : input.out;
    let find = await start(api, baseId, input);
    note(
      `Find ${find.id} (run ${find.runId}) ${find.preview ? "previews" : "looks for"} ${find.count} row(s): "${find.query}".`,
    );
    if (input.options.wait) find = await follow(api, baseId, find, input, note);
    else note(progressLine(find));
    if (input.options.json) input.out(JSON.stringify(find));
    else for (const line of summary(find, baseId)) input.out(line);
    if (find.stopReason === "error") throw new Error(`The find stopped on an error: ${find.error?.message}`);
  },
};

function start(api: ApiClient, baseId: string, input: CommandInput): Promise<FindView> {
  const count = intOption(input, "count");
  const maxCredits = intOption(input, "max-credits");
  if (input.options.extend !== undefined) {
    for (const other of ["query", "criterion", "preview", "include-unclear"])
      if (input.options[other] !== undefined)
        throw new UsageError(`--${other} is the find's own; --extend takes --count.`);
    return api.post(`/api/v1/bases/${enc(baseId)}/finds/${enc(stringOption(input, "extend"))}/extend`, {
      count,
      maxCredits,
    });
  }
  const criteria = ((input.options.criterion ?? []) as string[]).map((c) => c.trim()).filter(Boolean);
  if (input.options.query === undefined) throw new UsageError("--query is required (or --extend <findId>).");
  if (criteria.length === 0) throw new UsageError('Give at least one --criterion "<statement>".');
  return api.post(`/api/v1/bases/${enc(baseId)}/finds`, {
    query: stringOption(input, "query"),
    criteria,
    count,
    maxCredits,
    preview: input.options.preview === true,
    includeUnclear: input.options["include-unclear"] === true,
  });
}

/** Polls the find until it stops (done, or its run paused), printing its progress as it changes. */
async function follow(
  api: ApiClient,
  baseId: string,
  find: FindView,
  input: CommandInput,
  note: (line: string) => void,
): Promise<FindView> {
  let last = "";
  for (;;) {
    const line = progressLine(find);
    if (line !== last) {
      if (input.progress) input.progress(`\r\x1b[K${line}`);
      else note(line);
      last = line;
    }
    if (find.phase === "done" || find.status === "paused") break;
    await new Promise((r) => setTimeout(r, POLL_MS));
    find = await api.get<FindView>(`/api/v1/bases/${enc(baseId)}/finds/${enc(find.id)}`);
  }
  if (input.progress) input.progress("\n");
  return find;
}

function progressLine(f: FindView): string {
  const c = f.candidates;
  const state =
    f.phase === "done" ? "stopped" : f.status === "paused" ? "paused" : f.phase === "plan" ? "planning" : "searching";
  return `${state}: ${c.added} of ${f.count} added; ${c.matched} matched, ${c.rejected} rejected, ${c.unclear} unclear, ${c.pending} to verify; ${f.credits.spent} credits`;
}

function summary(f: FindView, baseId: string): string[] {
  const c = f.candidates;
  const lines: string[] = [];
  if (f.phase === "done") lines.push(`Stopped (${f.stopReason}): ${c.added} row(s) added.`);
  else if (f.status === "paused")
    lines.push(
      `Paused${f.credits.maxCredits === null ? "" : ` at its budget of ${f.credits.maxCredits} credits`}: resume it with POST /api/v1/runs/${f.runId}/resume.`,
    );
  else
    lines.push(
      `Still ${f.phase === "plan" ? "planning" : "searching"}: follow it with --wait, or GET /api/v1/bases/${baseId}/finds/${f.id}.`,
    );
  lines.push(
    `Candidates: ${c.generated} found, ${c.matched} matched, ${c.rejected} rejected, ${c.unclear} unclear, ${c.excluded} already in the base, ${c.errors} unreadable; ${f.credits.spent} credits spent.`,
  );
  for (const k of f.criteria) {
    const verified = k.yes + k.no + k.unclear;
    const rate =
      k.successRate === null ? "not verified yet" : `${Math.round(k.successRate * 100)}% yes (${k.yes} of ${verified})`;
    lines.push(`  ${k.text}: ${rate}`);
  }
  if (f.error) lines.push(`Error: ${f.error.message} (${f.error.code})`);
  if (f.stopReason === "preview") {
    const estimate = f.credits.estimateForCount === null ? "" : ` (about ${f.credits.estimateForCount} credits)`;
    lines.push(
      `A preview adds nothing. To add ${f.count} rows${estimate}: npm run cli -- find --base ${baseId} --extend ${f.id} --count ${f.count} --wait`,
    );
  }
  return lines;
}
