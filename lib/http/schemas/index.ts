import type { Endpoint } from "../endpoint.ts";
import * as apiKeys from "./api-keys.ts";
import * as assistant from "./assistant.ts";
import * as bases from "./bases.ts";
import * as columns from "./columns.ts";
import * as credits from "./credits.ts";
import * as events from "./events.ts";
import * as exportFile from "./export.ts";
import * as files from "./files.ts";
import * as imports from "./imports.ts";
import * as openapi from "./openapi.ts";
import * as quality from "./quality.ts";
import * as review from "./review.ts";
import * as rows from "./rows.ts";
import * as run from "./run.ts";
import * as runs from "./runs.ts";
import * as session from "./session.ts";
import * as views from "./views.ts";
import * as webhooks from "./webhooks.ts";
import * as writeRows from "./write-rows.ts";

// Every /api/v1 endpoint, for the OpenAPI document, MCP tools and the tests that keep the route
// files and real responses in step with these schemas.

export const ENDPOINTS: readonly Endpoint[] = [
  rows.getRows,
  rows.getRow,
  rows.queryRows,
  exportFile.exportRows,
  writeRows.addRows,
  writeRows.updateRows,
  writeRows.deleteRows,
  imports.createImport,
  imports.listImports,
  imports.getImport,
  imports.previewImport,
  bases.listBases,
  bases.createBase,
  bases.getBase,
  bases.updateBase,
  bases.deleteBase,
  bases.getBaseStructure,
  columns.createColumn,
  columns.updateColumn,
  columns.deleteColumn,
  views.listViews,
  views.createView,
  views.getView,
  views.updateView,
  views.deleteView,
  review.reviewCells,
  review.reviewHistory,
  review.undoReview,
  quality.columnQuality,
  quality.estimateEvaluation,
  quality.evaluateColumn,
  quality.getEvaluation,
  quality.listEvaluations,
  quality.applyEvaluation,
  run.runCells,
  run.estimateRun,
  runs.getRun,
  runs.listRuns,
  runs.cancelRun,
  runs.pauseRun,
  runs.resumeRun,
  assistant.configureBase,
  assistant.getChat,
  events.baseEvents,
  files.uploadFile,
  files.downloadFile,
  credits.listCredits,
  apiKeys.listApiKeys,
  apiKeys.createApiKey,
  apiKeys.revokeApiKey,
  session.getSession,
  session.signIn,
  session.signOut,
  session.autoSignIn,
  session.signInWithLink,
  webhooks.listWebhooks,
  webhooks.createWebhook,
  webhooks.getWebhook,
  webhooks.updateWebhook,
  webhooks.deleteWebhook,
  webhooks.rotateWebhookSecret,
  webhooks.listDeliveries,
  webhooks.redeliver,
  openapi.getOpenApi,
];

const pathParts = (pathname: string) => pathname.split("/").filter(Boolean);
const paramCount = (e: Endpoint) => e.path.split("{").length;

function servesPath(e: Endpoint, parts: readonly string[]): boolean {
  const segments = pathParts(e.path);
  return segments.length === parts.length && segments.every((s, i) => s.startsWith("{") || s === parts[i]);
}

/** The endpoint serving a method and a concrete path (e.g. GET /api/v1/bases/AbCd1234/rows). */
export function findEndpoint(method: string, pathname: string): Endpoint | undefined {
  const parts = pathParts(pathname);
  // Static segments win over params, as in the App Router (ai-configure-base is not a baseId).
  return ENDPOINTS.filter((e) => e.method === method.toUpperCase() && servesPath(e, parts)).sort((a, b) => paramCount(a) - paramCount(b))[0];
}

/** The routes under /api that are not endpoints of the API (no key, no schema). */
const OTHER_ROUTES: Record<string, readonly string[]> = { "/api/health": ["GET"] };

/** The methods a concrete path serves, or null when no route serves it. */
export function allowedMethods(pathname: string): readonly string[] | null {
  if (OTHER_ROUTES[pathname]) return OTHER_ROUTES[pathname];
  const parts = pathParts(pathname);
  const matching = ENDPOINTS.filter((e) => servesPath(e, parts));
  if (matching.length === 0) return null;
  // Where a static segment and a param both match, the static route is the one that serves.
  const fewest = Math.min(...matching.map(paramCount));
  return [...new Set(matching.filter((e) => paramCount(e) === fewest).map((e) => e.method))];
}
