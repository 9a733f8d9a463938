import type { Endpoint } from "../endpoint.ts";
import * as apiKeys from "./api-keys.ts";
import * as assistant from "./assistant.ts";
import * as audit from "./audit.ts";
import * as bases from "./bases.ts";
import * as columns from "./columns.ts";
import * as credits from "./credits.ts";
import * as events from "./events.ts";
import * as exportFile from "./export.ts";
import * as files from "./files.ts";
import * as finds from "./finds.ts";
import * as history from "./history.ts";
import * as imports from "./imports.ts";
import * as members from "./members.ts";
import * as openapi from "./openapi.ts";
import * as quality from "./quality.ts";
import * as review from "./review.ts";
import * as rows from "./rows.ts";
import * as run from "./run.ts";
import * as runs from "./runs.ts";
import * as schedules from "./schedules.ts";
import * as secrets from "./secrets.ts";
import * as session from "./session.ts";
import * as sso from "./sso.ts";
import * as steps from "./steps.ts";
import * as fillPreview from "./fill-preview.ts";
import * as views from "./views.ts";
import * as webhooks from "./webhooks.ts";
import * as writeRows from "./write-rows.ts";

// Every /api/v1 endpoint, for the OpenAPI document, MCP tools and the tests that keep the route
// files and real responses in step with these schemas.

export const ENDPOINTS: readonly Endpoint[] = [
  rows.getRows,
  rows.getRow,
  rows.queryRows,
  history.rowHistory,
  history.revertCell,
  history.revertRun,
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
  finds.createFind,
  finds.listFinds,
  finds.getFind,
  finds.extendFind,
  finds.listCandidates,
  schedules.listSchedules,
  schedules.createSchedule,
  schedules.getSchedule,
  schedules.updateSchedule,
  schedules.deleteSchedule,
  schedules.triggerSchedule,
  quality.columnQuality,
  steps.columnSteps,
  fillPreview.previewFill,
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
  apiKeys.updateApiKey,
  apiKeys.revokeApiKey,
  session.getSession,
  session.signIn,
  session.signOut,
  session.autoSignIn,
  session.signInWithLink,
  members.listMembers,
  members.updateMember,
  members.removeMember,
  members.createFirstOwner,
  members.createInvitation,
  members.listInvitations,
  members.revokeInvitation,
  members.acceptInvitation,
  members.createPasswordReset,
  members.redeemPasswordReset,
  sso.startSso,
  sso.ssoCallback,
  webhooks.listWebhooks,
  webhooks.createWebhook,
  webhooks.getWebhook,
  webhooks.updateWebhook,
  webhooks.deleteWebhook,
  webhooks.rotateWebhookSecret,
  webhooks.listDeliveries,
  webhooks.redeliver,
  secrets.listSecrets,
  secrets.createSecret,
  secrets.deleteSecret,
  audit.listAudit,
  audit.getWorkspace,
  audit.updateWorkspace,
  openapi.getOpenApi,
];

const pathParts = (pathname: string) => pathname.split("/").filter(Boolean);

// Every request under /api is matched against this table (edge-listener.ts), so each endpoint's
// path is split once here rather than on every request; grouped by segment count, since a path
// can only match endpoints with as many segments.
interface RouteEntry {
  endpoint: Endpoint;
  segments: readonly (string | null)[];
  paramCount: number;
}
const ROUTES_BY_LENGTH = new Map<number, RouteEntry[]>();
for (const endpoint of ENDPOINTS) {
  const segments = pathParts(endpoint.path).map((s) => (s.startsWith("{") ? null : s));
  const entry = { endpoint, segments, paramCount: segments.filter((s) => s === null).length };
  ROUTES_BY_LENGTH.set(segments.length, [...(ROUTES_BY_LENGTH.get(segments.length) ?? []), entry]);
}

/** The routes serving a concrete path, fewest params first (static segments win, as in the App Router). */
function routesServing(pathname: string): RouteEntry[] {
  const parts = pathParts(pathname);
  return (ROUTES_BY_LENGTH.get(parts.length) ?? [])
    .filter((r) => r.segments.every((s, i) => s === null || s === parts[i]))
    .sort((a, b) => a.paramCount - b.paramCount);
}

/** The endpoint serving a method and a concrete path (e.g. GET /api/v1/bases/AbCd1234/rows). */
export function findEndpoint(method: string, pathname: string): Endpoint | undefined {
  const upper = method.toUpperCase();
  // ai-configure-base is not a baseId: the static route serves it.
  return routesServing(pathname).find((r) => r.endpoint.method === upper)?.endpoint;
}

/** The routes under /api that are not endpoints of the API (no key, no schema). */
const OTHER_ROUTES: Record<string, readonly string[]> = { "/api/health": ["GET"] };

/** The methods a concrete path serves, or null when no route serves it. */
export function allowedMethods(pathname: string): readonly string[] | null {
  if (Object.hasOwn(OTHER_ROUTES, pathname)) return OTHER_ROUTES[pathname];
  const matching = routesServing(pathname);
  if (matching.length === 0) return null;
  // Where a static segment and a param both match, the static route is the one that serves.
  return [...new Set(matching.filter((r) => r.paramCount === matching[0].paramCount).map((r) => r.endpoint.method))];
}
