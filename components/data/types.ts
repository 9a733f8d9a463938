// The API's shapes as the UI sees them: inferred from the endpoint schemas (type-only imports),
// so the UI cannot drift from what the server declares and tests check.

import type { z } from "zod";
import type {
  cellMetadataSchema,
  cellStatusSchema,
  expandedCellSchema,
  expandedRowSchema,
} from "@/lib/http/schemas/common.ts";

export type { BaseStructure, BaseSummary } from "@/lib/http/schemas/bases.ts";
export type { ColumnView } from "@/lib/http/schemas/columns.ts";
export type { RunEstimate } from "@/lib/http/schemas/run.ts";
import type { runSchema } from "@/lib/http/schemas/runs.ts";
import type { viewSchema } from "@/lib/http/schemas/views.ts";
import type { columnQuality, estimateEvaluation, getEvaluation, listEvaluations } from "@/lib/http/schemas/quality.ts";
import type { evaluateRequestSchema } from "@/lib/domain/evaluations/settings.ts";
/** A saved view: filter, sort, search and layout under a name. */
export type ViewRecord = z.infer<typeof viewSchema>;
/** A run: the AI cells one request queued, their progress and cost. */
export type RunView = z.infer<typeof runSchema>;
export type { UpdateRowsResult } from "@/lib/http/schemas/write-rows.ts";

export type CellMetadata = z.infer<typeof cellMetadataSchema>;
export type CellStatus = z.infer<typeof cellStatusSchema>;
export type CellView = z.infer<typeof expandedCellSchema>;
/** The grid reads rows in the expanded form. */
export type RowRecord = z.infer<typeof expandedRowSchema>;

export interface RowsPage {
  rows: RowRecord[];
  nextCursor: string | null;
  /** Query Rows with count: the number of matching rows. */
  total?: number;
}

/** A column's agreement with its reviewers, by confidence, and its review workload. */
export type ColumnQuality = z.infer<(typeof columnQuality)["response"]>;
/** One confidence tenth: its reviewed cells, how often the reviewer agreed, their mean confidence. */
export type ConfidenceBucket = ColumnQuality["byConfidence"][number];
/** What an evaluation asks the model with; omitted fields keep the column's own. */
export type EvaluationRequest = z.input<typeof evaluateRequestSchema>;
export type EvaluationEstimate = z.infer<(typeof estimateEvaluation)["response"]>;
/** An evaluation as lists show it, without its rows. */
export type EvaluationSummary = z.infer<(typeof listEvaluations)["response"]>["evaluations"][number];
export type EvaluationStatus = EvaluationSummary["status"];
/** An evaluation with every row's verdict. */
export type Evaluation = z.infer<(typeof getEvaluation)["response"]>;
export type EvaluationResult = Evaluation["results"][number];
