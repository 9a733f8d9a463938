import { z } from "zod";

// What a client sends to find rows, and what a find and its candidates look like. No statements:
// the endpoint schemas, MCP and the UI's types read it.

export const FIND_LIMITS = {
  queryChars: 500,
  criteria: 10,
  criterionChars: 300,
  maxCount: 1_000,
  /** Candidates a preview verifies. */
  previewCandidates: 10,
  /** Searches planned from the query and criteria. */
  plannedQueries: 6,
  /** Result pages read per planned search. */
  pagesPerQuery: 5,
  /** A candidate's own pages read to verify it. */
  pagesPerCandidate: 2,
  /** Verification attempts before a candidate ends in error. */
  attempts: 3,
} as const;

export const VERDICTS = ["yes", "no", "unclear"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const FIND_CANDIDATE_STATUSES = [
  "pending",
  "running",
  "matched",
  "rejected",
  "unclear",
  "excluded",
  "error",
] as const;
export type FindCandidateStatus = (typeof FIND_CANDIDATE_STATUSES)[number];

export const FIND_STOP_REASONS = ["target", "exhausted", "budget", "cancelled", "preview", "error"] as const;

export const findRequestSchema = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1)
      .max(FIND_LIMITS.queryChars)
      .describe('What to find, e.g. "B2B software companies in Berlin with 50–200 employees".'),
    criteria: z
      .array(z.string().trim().min(1).max(FIND_LIMITS.criterionChars))
      .min(1)
      .max(FIND_LIMITS.criteria)
      .describe(
        'Short statements every row must meet, each verified on the candidate\'s own pages, e.g. ["Based in Berlin", "Sells to businesses"]. Each becomes a column of yes/no/unclear verdicts.',
      ),
    count: z
      .number()
      .int()
      .min(1)
      .max(FIND_LIMITS.maxCount)
      .describe("How many matching rows to add: a target, not a promise (the search may run out first)."),
    entity: z
      .strictObject({
        type: z.string().trim().min(1).max(50).optional().describe('What a row is, e.g. "company" (the default).'),
        description: z.string().trim().max(500).optional().describe("More about what counts as one."),
      })
      .optional()
      .describe("Hints on what a row is."),
    maxCredits: z
      .number()
      .int()
      .min(1)
      .max(1_000_000_000)
      .optional()
      .describe("A budget: the find stops (paused) once it has spent this."),
    excludeExisting: z
      .boolean()
      .default(true)
      .describe("Leave out entities the base already has (by primary name and website domain). Default true."),
    includeUnclear: z
      .boolean()
      .default(false)
      .describe("Also add candidates whose pages leave a criterion unclear (they then need review). Default false."),
    preview: z
      .boolean()
      .default(false)
      .describe(
        `Verify up to ${FIND_LIMITS.previewCandidates} candidates, add nothing, and estimate the credits for the whole count from their match rate. Continue it with extend.`,
      ),
  })
  .describe("A find: rows looked for from a description, every criterion verified with sources.");

export type FindRequest = z.infer<typeof findRequestSchema>;

export const extendFindSchema = z
  .strictObject({
    count: z
      .number()
      .int()
      .min(1)
      .max(FIND_LIMITS.maxCount)
      .describe("How many more matching rows to add. A preview's matches count among them."),
    maxCredits: z.number().int().min(1).max(1_000_000_000).optional().describe("The budget of this extension."),
  })
  .describe("Looks for more rows, never verifying a candidate seen before.");

export type ExtendFindRequest = z.infer<typeof extendFindSchema>;

export interface StoredCriterion {
  id: string;
  text: string;
  columnId: string;
}

export interface PlannedQuery {
  q: string;
  /** The next page to read. */
  page: number;
  exhausted: boolean;
}

export interface VerdictSource {
  url: string;
  title: string;
  /** The words of the page that show it, as read. */
  excerpt: string;
}

export interface CriterionVerdict {
  criterionId: string;
  satisfied: Verdict;
  reasoning: string;
  sources: VerdictSource[];
  confidence: number;
}
