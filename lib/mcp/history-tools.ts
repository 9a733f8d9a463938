import * as history from "../http/schemas/history.ts";
import type { McpTool } from "./tool-types.ts";

// The MCP tools of cell history (docs/monitors.md): what a row's cells said before, and undoing a
// change or a whole run. Each calls its REST endpoint, so its scope and errors are the API's.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export const HISTORY_TOOLS: readonly McpTool[] = [
  {
    name: "row_history",
    title: "A row's cell history",
    description:
      "The changes of a row's cells, newest first: before and after, sources, confidence, and the run or key that made each. columnId narrows it to one cell; pass nextCursor as cursor for more.",
    endpoints: [history.rowHistory],
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: (r) => `${plural(r.entries.length, "change")}${r.nextCursor ? "; more with nextCursor" : ""}.`,
  },
  {
    name: "revert_cell",
    title: "Revert a cell change",
    description:
      "Puts a cell back to what it held before one change of its history (historyId from row_history), with that value's sources. The revert is itself recorded and can be reverted.",
    endpoints: [history.revertCell],
    // It overwrites the cell's current value; reverting the same change twice ends the same way.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) => `The cell holds ${JSON.stringify(r.revertedTo.value.slice(0, 200))} again.`,
  },
  {
    name: "revert_run",
    title: "Revert a run",
    description:
      "Puts every cell a finished run changed back to what it held before, leaving cells changed since. Call it with dryRun: true first and tell the user how many cells it would revert.",
    endpoints: [history.revertRun],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) =>
      `${r.dryRun ? "Would revert" : "Reverted"} ${plural(r.cells, "cell")} in ${plural(r.rows, "row")} of run ${r.runId}.`,
  },
];
