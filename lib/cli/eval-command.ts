import { readFile, stat } from "node:fs/promises";
import { nameKey, type ColumnRecord } from "../domain/column-model.ts";
import { answersMatch } from "../domain/evaluations/index.ts";
import { MAX_EVALUATION_ROWS } from "../domain/evaluations/index.ts";
import { MAX_REVIEW_CELLS } from "../domain/review/index.ts";
import { ApiError, pages, type ApiClient } from "./api-client.ts";
import { REMOTE_OPTIONS, remoteApi } from "./remote.ts";
import { stringOption, UsageError, type CommandInput, type ServerClientCommand } from "./command.ts";
import { MAX_LABELS_BYTES, planReview, readLabels, type LabelledCell, type ReviewItem } from "./eval-labels.ts";
import { finished, progressBar, progressLine, summaryLines, type Evaluation } from "./eval-report.ts";

// `npm run cli -- eval`: check a model or a prompt on the user's own golden set. The labels
// become verified cells of the column (review actions, so they also calibrate the column), then
// an evaluation re-answers those rows in the running server's engine and is compared with them.
// It is a client of the REST API: the server holds the database and runs the work.

const ROWS_PAGE = 1_000;
const POLL_MS = 1_000;
/** How long polling rides out a server that does not answer (a restart resumes the evaluation). */
const UNREACHABLE_GRACE_MS = 60_000;

interface ColumnView {
  id: string;
  name: string;
  type: string;
  isAiEnabled: boolean;
  columnOptions: Record<string, unknown>;
}
interface Structure {
  sheetColumns: ColumnView[];
  primaryColumn: ColumnView | null;
}
interface ExpandedRow {
  id: string;
  cells: Record<string, { value: string; status?: string; verified?: boolean }>;
}
interface Reviewed {
  cells: { rowId: string; action: string; verified: boolean }[];
  errors: { rowId: string; code: string; message: string }[];
}

const enc = encodeURIComponent;

export const EVAL_COMMAND: ServerClientCommand = {
  path: "eval",
  summary:
    "Check a column's model or prompt on your golden set: import labels as verified values, evaluate on the running server, print the accuracy.",
  usage:
    "--base <baseId> --column <name> --labels <file.csv> [--key <column>] [--instructions <file>] [--model <provider:model>] [--url <server>] [--api-key <key>] [--json]",
  options: {
    base: { type: "string", required: true },
    column: { type: "string", required: true },
    labels: { type: "string", required: true },
    key: { type: "string" },
    instructions: { type: "string" },
    model: { type: "string" },
    ...REMOTE_OPTIONS,
  },
  runtime: false,
  async run(config, input) {
    const api = remoteApi(config, input);
    const baseId = stringOption(input, "base");
    const labelsText = await readTextFile(stringOption(input, "labels"), "labels", MAX_LABELS_BYTES);
    const instructions =
      input.options.instructions === undefined
        ? undefined
        : await readInstructions(stringOption(input, "instructions"));
    const model = input.options.model === undefined ? undefined : stringOption(input, "model");
    // In --json mode stdout carries only the evaluation; everything for people goes to stderr.
    const note = input.options.json ? input.err : input.out;

    const structure = await api.get<Structure>(`/api/v1/bases/${enc(baseId)}/base-structure`);
    const column = findColumn(structure, stringOption(input, "column"));
    if (!column.isAiEnabled) throw new Error(`"${column.name}" is not an AI column; only AI columns can be evaluated.`);
    const keyColumn =
      input.options.key === undefined ? structure.primaryColumn : findColumn(structure, stringOption(input, "key"));
    if (!keyColumn)
      throw new UsageError("The base has no primary column; pass --key <column> to match labels to rows.");
    if (keyColumn.id === column.id)
      throw new UsageError(`The key column and the labelled column are both "${column.name}"; pass --key <column>.`);

    const file = readLabels(labelsText, keyColumn.name, column.name);
    const cells = await cellsByKey(api, baseId, keyColumn.name, column.name, new Set(file.labels.map((l) => l.key)));
    const asStored = { type: column.type, columnOptions: column.columnOptions as ColumnRecord["columnOptions"] };
    const plan = planReview(file.labels, cells, column.id, (label, value) => answersMatch(asStored, label, value));
    const skipped = (n: number, why: string, keys: string[]) => {
      if (n > 0) input.err(`${n} label(s) skipped: ${why}${sample(keys)}`);
    };
    skipped(file.blank, "a key or a label is empty", []);
    skipped(file.conflicting.length, "labelled twice with different values", file.conflicting);
    skipped(
      plan.unmatched.length,
      `no row has this ${keyColumn.name}`,
      plan.unmatched.map((l) => l.key),
    );
    skipped(
      plan.ambiguous.length,
      `several rows have this ${keyColumn.name}`,
      plan.ambiguous.map((l) => l.key),
    );

    const keyOf = new Map([...cells].flatMap(([key, list]) => list.map((c) => [c.rowId, key] as const)));
    const reviewed = await review(api, baseId, plan.reviews, keyOf, input);
    const verified = new Set([...reviewed.rowIds, ...plan.alreadyVerified]);
    const rowIds = file.labels.flatMap(
      (l) =>
        cells
          .get(l.key)
          ?.filter((c) => verified.has(c.rowId))
          .map((c) => c.rowId) ?? [],
    );
    note(
      `Imported ${rowIds.length} label(s) into "${column.name}" as verified values: ${reviewed.accepted} accepted (the column's answer was right), ${reviewed.edited} corrected, ${plan.alreadyVerified.length} already verified.`,
    );
    if (rowIds.length === 0)
      throw new Error(
        `No label could be imported, so there is nothing to evaluate. Do the keys in the file match the base's "${keyColumn.name}" column?`,
      );

    if (rowIds.length > MAX_EVALUATION_ROWS) {
      input.err(
        `An evaluation takes at most ${MAX_EVALUATION_ROWS} rows: it runs on ${MAX_EVALUATION_ROWS} of the ${rowIds.length} labelled rows, spread evenly over the file.`,
      );
    }
    const started = await api.post<{ id: string; rows: number; estimatedCredits: number }>(
      `/api/v1/bases/${enc(baseId)}/columns/${enc(column.id)}/evaluate`,
      {
        rowIds: spread(rowIds, MAX_EVALUATION_ROWS),
        ...(instructions === undefined ? {} : { instructions }),
        ...(model === undefined ? {} : { model }),
      },
    );
    input.err(
      `Evaluating ${started.rows} row(s) (evaluation ${started.id}, about ${started.estimatedCredits} credits)…`,
    );

    const evaluation = await follow(api, started.id, input);
    if (input.options.json) input.out(JSON.stringify(evaluation));
    else for (const line of summaryLines(evaluation, column.name)) input.out(line);
    if (evaluation.status === "cancelled")
      throw new Error(
        `The evaluation was cancelled${evaluation.runId ? ` (run ${evaluation.runId})` : ""}; the figures above cover the rows it finished.`,
      );
  },
};

function findColumn(structure: Structure, name: string): ColumnView {
  const found =
    structure.sheetColumns.find((c) => c.id === name) ??
    structure.sheetColumns.find((c) => nameKey(c.name) === nameKey(name));
  if (!found)
    throw new Error(
      `The base has no column "${name}"; its columns are ${structure.sheetColumns.map((c) => `"${c.name}"`).join(", ")}.`,
    );
  return found;
}

/**
 * At most `n` of the rows, evenly spaced: rather than the server's pick of the column's most
 * recently reviewed rows, these stay within this golden set, and are the same on every run, so
 * two prompts are compared on the same rows.
 */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

const sample = (keys: string[]) =>
  keys.length === 0
    ? ""
    : ` (${keys
        .slice(0, 5)
        .map((k) => `"${k}"`)
        .join(", ")}${keys.length > 5 ? ", …" : ""})`;

async function readTextFile(file: string, what: string, maxBytes: number): Promise<string> {
  const size = await stat(file).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0) throw new Error(`Cannot read the ${what} file ${file}.`);
  if (size > maxBytes) throw new Error(`The ${what} file ${file} is larger than ${maxBytes / 1024 / 1024} MB.`);
  return readFile(file, "utf8");
}

async function readInstructions(file: string): Promise<string> {
  const text = (await readTextFile(file, "instructions", 1024 * 1024)).trim();
  if (text === "") throw new UsageError(`The instructions file ${file} is empty.`);
  return text;
}

/** The labelled column's cell in every row whose key is labelled, by key (paged, so any base size works). */
async function cellsByKey(
  api: ApiClient,
  baseId: string,
  keyName: string,
  columnName: string,
  keys: ReadonlySet<string>,
): Promise<Map<string, LabelledCell[]>> {
  const found = new Map<string, LabelledCell[]>();
  for await (const rows of pages<ExpandedRow>(api, `/api/v1/bases/${enc(baseId)}/rows`, {
    expand: "true",
    limit: String(ROWS_PAGE),
  })) {
    for (const row of rows) {
      const key = (row.cells[keyName]?.value ?? "").trim();
      if (!keys.has(key)) continue;
      const cell = row.cells[columnName];
      found.set(key, [
        ...(found.get(key) ?? []),
        { rowId: row.id, value: cell?.value ?? "", status: cell?.status, verified: cell?.verified },
      ]);
    }
  }
  return found;
}

/** Applies the review actions; a label the column's type refuses is reported and left out. */
async function review(
  api: ApiClient,
  baseId: string,
  items: readonly ReviewItem[],
  keyOf: ReadonlyMap<string, string>,
  input: CommandInput,
) {
  const result = { rowIds: [] as string[], accepted: 0, edited: 0 };
  const errors: Reviewed["errors"] = [];
  for (let i = 0; i < items.length; i += MAX_REVIEW_CELLS) {
    const answer = await api.post<Reviewed>(`/api/v1/bases/${enc(baseId)}/review`, {
      cells: items.slice(i, i + MAX_REVIEW_CELLS),
    });
    for (const cell of answer.cells.filter((c) => c.verified)) {
      result.rowIds.push(cell.rowId);
      if (cell.action === "accept") result.accepted++;
      else result.edited++;
    }
    errors.push(...answer.errors);
  }
  if (errors.length > 0) {
    input.err(`${errors.length} label(s) not imported:`);
    for (const e of errors.slice(0, 5)) input.err(`  "${keyOf.get(e.rowId) ?? e.rowId}": ${e.message} (${e.code})`);
    if (errors.length > 5) input.err(`  … and ${errors.length - 5} more`);
  }
  return result;
}

/** Polls the evaluation until it is done or cancelled, drawing its progress on stderr. */
async function follow(api: ApiClient, id: string, input: CommandInput): Promise<Evaluation> {
  let shown = "";
  let unreachableSince: number | undefined;
  let pausedNoted = false;
  for (;;) {
    let evaluation: Evaluation;
    try {
      evaluation = await api.get<Evaluation>(`/api/v1/evaluations/${enc(id)}`);
      unreachableSince = undefined;
    } catch (e) {
      // An error envelope is final; a server that does not answer may be restarting.
      if (e instanceof ApiError) throw e;
      unreachableSince ??= Date.now();
      if (Date.now() - unreachableSince > UNREACHABLE_GRACE_MS) throw e;
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    const line = input.progress ? progressBar(evaluation) : progressLine(evaluation);
    if (line !== shown) {
      if (input.progress) input.progress(line);
      else input.err(line);
      shown = line;
    }
    if (evaluation.status === "paused" && !pausedNoted && evaluation.runId) {
      pausedNoted = true;
      const text = `The evaluation is paused; resume it in the web app or with POST /api/v1/runs/${evaluation.runId}/resume. Waiting…`;
      if (input.progress) input.progress(`\n${text}\n`);
      else input.err(text);
    }
    if (finished(evaluation)) {
      if (input.progress) input.progress("\n");
      return evaluation;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
