import { z } from "zod";
import * as finds from "../http/schemas/finds.ts";
import { pageThatFits } from "./call.ts";
import type { McpTool } from "./tool-types.ts";

// The MCP tools of find rows (docs/finds.md): start a find, follow it, read what it came across,
// and ask for more. Each calls its REST endpoint, so its scope, credits and errors are the API's.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A find's progress in one line: what an agent polls for. */
function progress(r: z.infer<typeof finds.findSchema>): string {
  const c = r.candidates;
  const state =
    r.phase === "done"
      ? `stopped (${r.stopReason})`
      : r.status === "paused"
        ? "paused"
        : r.phase === "plan"
          ? "planning"
          : "searching";
  const estimate =
    r.preview && r.credits.estimateForCount !== null
      ? `; about ${r.credits.estimateForCount} credits for all ${r.count}: extend_find to add them`
      : "";
  return `Find ${r.id} (run ${r.runId}): ${state}; ${c.added} of ${r.count} added, ${c.matched} matched, ${c.rejected} rejected, ${c.unclear} unclear, ${c.pending} to verify; ${r.credits.spent} credits spent${estimate}.`;
}

const MAX_TOOL_CANDIDATES = 100;

export const FIND_TOOLS: readonly McpTool[] = [
  {
    name: "find_rows",
    title: "Find rows from a description",
    description:
      "Fills a base from a description: searches the web, verifies each candidate on its own pages against every criterion (yes/no/unclear with sources), and adds those that pass as rows. Spends credits per step. Start with preview: true (verifies a few candidates, adds nothing, estimates the credits for the count), show the user the matches and the estimate, then extend_find. Follow it with get_find.",
    endpoints: [finds.createFind],
    // It spends credits on every call and reads the web; it adds rows beside the others.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    summary: progress,
  },
  {
    name: "get_find",
    title: "Get a find",
    endpoints: [finds.getFind],
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: progress,
  },
  {
    name: "find_candidates",
    title: "List a find's candidates",
    description:
      "What a find came across, with each criterion's verdict, reasoning and sources; status filters (e.g. matched, or rejected,unclear). Pass nextCursor as cursor for the next page.",
    endpoints: [finds.listCandidates],
    annotations: { readOnlyHint: true, openWorldHint: false },
    extra: {
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_TOOL_CANDIDATES)
        .optional()
        .describe(`Candidates per page, 1 to ${MAX_TOOL_CANDIDATES}; default 50.`),
    },
    run: (args, invoke) => pageThatFits(invoke, finds.listCandidates, args, 50),
    summary: (r) =>
      `${plural(r.candidates.length, "candidate")}: ${r.candidates
        .slice(0, 20)
        .map((c: z.infer<typeof finds.candidateSchema>) => `${c.name} (${c.status})`)
        .join(", ")}${r.nextCursor ? `; more with cursor ${r.nextCursor}` : ""}.`,
  },
  {
    name: "extend_find",
    title: "Find more rows",
    description:
      "Continues a find (a preview, or one that stopped) for count more rows, never verifying a candidate seen before; a preview's matches are added first. Spends credits. Follow it with get_find.",
    endpoints: [finds.extendFind],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    summary: progress,
  },
];
