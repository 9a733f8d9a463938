import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { baseIdParam, baseParams, cursorQuery, isoDate, nullableIsoDate } from "./common.ts";
import { RUN_STATUSES } from "../../domain/runs/states.ts";
import {
  extendFindSchema,
  FIND_CANDIDATE_STATUSES,
  FIND_STOP_REASONS,
  findRequestSchema,
  VERDICTS,
} from "../../domain/finds/schemas.ts";

// Find rows: a base that fills itself from a description (docs/finds.md).

const n = (what: string) => z.number().int().min(0).describe(what);

const sourceSchema = z
  .strictObject({
    url: z.string().describe("A page this find read."),
    title: z.string().describe("The page's title."),
    excerpt: z.string().describe("The words of the page that show the verdict."),
  })
  .describe("A source: only pages the find fetched, each with its excerpt.");

const verdictSchema = z
  .strictObject({
    criterionId: z.string().describe("The criterion (c1, c2, …)."),
    satisfied: z.enum(VERDICTS).describe("yes, no, or unclear when the pages do not say."),
    reasoning: z.string().describe("Why, in a sentence or two."),
    sources: z.array(sourceSchema).describe("The pages that show it; a yes or no always has one."),
    confidence: z.number().min(0).max(1).describe("How sure the verification is, 0 to 1."),
  })
  .describe("One criterion's verdict on one candidate.");

export const findSchema = z
  .strictObject({
    id: z.string().describe("The find's id (find_…)."),
    baseId: z.string().describe("The base it fills."),
    runId: z.string().describe("Its run (of its latest extension): pause, resume, cancel and budget are the run's."),
    status: z.enum(RUN_STATUSES).describe("Its run's status: running, paused, done or cancelled."),
    phase: z.enum(["plan", "search", "done"]).describe("plan, search (looking and verifying) or done."),
    stopReason: z
      .enum(FIND_STOP_REASONS)
      .nullable()
      .describe(
        "Why it stopped: target (count reached), exhausted (the searches ran out), budget (paused at maxCredits), cancelled, preview or error; null while looking.",
      ),
    query: z.string().describe("What it looks for."),
    criteria: z
      .array(
        z.strictObject({
          id: z.string().describe("c1, c2, …"),
          text: z.string().describe("The criterion."),
          columnId: z.string().describe("The column its verdicts fill (yes/no/unclear)."),
          yes: n("Candidates verified yes."),
          no: n("Candidates verified no."),
          unclear: n("Candidates whose pages leave it unclear."),
          successRate: z.number().nullable().describe("yes / verified; null before any verification."),
        }),
      )
      .describe("Each criterion with its success rate."),
    entity: z.unknown().describe("The entity hints it was given; null when none."),
    count: z.number().int().describe("The target: how many rows it adds (extensions raise it)."),
    preview: z.boolean().describe("true while it is a preview (nothing added)."),
    includeUnclear: z.boolean().describe("Whether unclear candidates are added (needing review)."),
    excludeExisting: z.boolean().describe("Whether entities the base already has are left out."),
    candidates: z
      .strictObject({
        generated: n("Candidates it came across (after deduplication)."),
        pending: n("Waiting to be verified."),
        verified: n("Verified: matched, rejected or unclear."),
        matched: n("Meeting every criterion."),
        rejected: n("Failing a criterion."),
        unclear: n("Left unclear by their pages."),
        excluded: n("Already in the base."),
        errors: n("Whose pages could not be read."),
        added: n("Added as rows."),
      })
      .describe("What became of its candidates."),
    credits: z
      .strictObject({
        spent: n("Credits it spent, across its extensions."),
        maxCredits: z.number().int().nullable().describe("Its run's budget; null when none."),
        perMatch: z.number().nullable().describe("Credits spent per matching candidate so far."),
        estimateForCount: z
          .number()
          .int()
          .nullable()
          .describe("The credits the whole count would take at that rate (a preview's estimate)."),
      })
      .describe("What it spent, and what the count would cost."),
    queries: z
      .array(
        z.strictObject({
          q: z.string().describe("A planned search."),
          pagesRead: n("Its result pages read."),
          exhausted: z.boolean().describe("No more pages."),
        }),
      )
      .describe("The searches it planned."),
    error: z
      .strictObject({ code: z.string().describe("A stable code."), message: z.string().describe("What happened.") })
      .nullable()
      .describe("Why it stopped on an error; null otherwise."),
    createdAt: isoDate("When it started"),
    finishedAt: nullableIsoDate("When it stopped"),
  })
  .describe("A find: rows looked for from a description, each criterion verified with sources.");

export const candidateSchema = z
  .strictObject({
    id: z.string().describe("The candidate's id (fc_…)."),
    name: z.string().describe("Its name."),
    url: z.string().nullable().describe("Its website, as read."),
    key: z.string().describe('Its canonical key: "domain:…" or "name:…".'),
    status: z
      .enum(FIND_CANDIDATE_STATUSES)
      .describe("pending, running, matched, rejected, unclear, excluded or error."),
    query: z.string().nullable().describe("The search that found it."),
    snippet: z.string().nullable().describe("The search result's snippet."),
    verdicts: z.array(verdictSchema).describe("Its verdicts, once verified."),
    rowId: z.string().nullable().describe("The row added for it."),
    credits: n("What was spent on it."),
    error: z
      .strictObject({ code: z.string().describe("A stable code."), message: z.string().describe("What happened.") })
      .nullable()
      .describe("Why it could not be verified."),
  })
  .describe("An entity a find came across.");

const findParams = z.object({
  baseId: baseIdParam,
  findId: pathId("The find's id (find_…).", "find_not_found"),
});

export const createFind = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/finds",
  scope: "runs:write",
  audit: { action: "find.create", target: "find", fields: ["query", "count", "preview"] },
  summary: "Find rows",
  description:
    "Starts a find: searches planned from the query, candidates verified on their own pages against every criterion, and those that pass added as rows. 202 with the find; follow it by polling, find.updated events or the find.completed webhook. Needs a model and web search (503 ai_not_configured, search_not_configured).",
  params: baseParams,
  body: findRequestSchema,
  status: 202,
  response: findSchema,
});

export const listFinds = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/finds",
  scope: "rows:read",
  summary: "List finds",
  description: "The base's finds, newest first.",
  params: baseParams,
  query: z.object({ limit: intQuery("limit", 1, 100, "How many, 1 to 100 (default 20).") }),
  response: z.strictObject({ finds: z.array(findSchema).describe("The finds, newest first.") }),
});

export const getFind = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/finds/{findId}",
  scope: "rows:read",
  summary: "Get a find",
  description: "A find's progress, per-criterion success rates and credits.",
  params: findParams,
  response: findSchema,
});

export const extendFind = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/finds/{findId}/extend",
  scope: "runs:write",
  audit: { action: "find.extend", target: "find", fields: ["count"] },
  summary: "Find more rows",
  description:
    "Looks for `count` more rows in a new run, never verifying a candidate seen before; a preview's matches are added first. 409 find_in_progress while it is still looking.",
  params: findParams,
  body: extendFindSchema,
  status: 202,
  response: findSchema,
});

export const listCandidates = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/finds/{findId}/candidates",
  scope: "rows:read",
  summary: "List a find's candidates",
  description: "What the find came across, with each verdict, its reasoning and sources; filter by status.",
  params: findParams,
  query: z.object({
    status: z
      .string()
      .max(200)
      .refine((s) => s.split(",").every((x) => (FIND_CANDIDATE_STATUSES as readonly string[]).includes(x.trim())), {
        message: `status lists candidate statuses, comma-separated: ${FIND_CANDIDATE_STATUSES.join(", ")}`,
      })
      .optional()
      .describe("Comma-separated statuses, e.g. rejected,unclear; all when absent."),
    limit: intQuery("limit", 1, 200, "Page size, 1 to 200 (default 50)."),
    cursor: cursorQuery("candidates"),
  }),
  response: z.strictObject({
    candidates: z.array(candidateSchema).describe("The candidates."),
    nextCursor: z.string().nullable().describe("The cursor of the next page; null on the last page."),
  }),
});
