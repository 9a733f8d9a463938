import type { Endpoint } from "../endpoint.ts";
import * as apiKeys from "./api-keys.ts";
import * as assistant from "./assistant.ts";
import * as bases from "./bases.ts";
import * as columns from "./columns.ts";
import * as credits from "./credits.ts";
import * as events from "./events.ts";
import * as files from "./files.ts";
import * as review from "./review.ts";
import * as rows from "./rows.ts";
import * as run from "./run.ts";
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
  writeRows.addRows,
  writeRows.updateRows,
  writeRows.deleteRows,
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
  run.runCells,
  run.estimateRun,
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
  webhooks.listWebhooks,
  webhooks.createWebhook,
  webhooks.getWebhook,
  webhooks.updateWebhook,
  webhooks.deleteWebhook,
  webhooks.rotateWebhookSecret,
  webhooks.listDeliveries,
  webhooks.redeliver,
];

/** The endpoint serving a method and a concrete path (e.g. GET /api/v1/bases/AbCd1234/rows). */
export function findEndpoint(method: string, pathname: string): Endpoint | undefined {
  const parts = pathname.split("/").filter(Boolean);
  const params = (e: Endpoint) => e.path.split("{").length;
  // Static segments win over params, as in the App Router (ai-configure-base is not a baseId).
  return ENDPOINTS.filter((e) => {
    if (e.method !== method.toUpperCase()) return false;
    const segments = e.path.split("/").filter(Boolean);
    return segments.length === parts.length && segments.every((s, i) => s.startsWith("{") || s === parts[i]);
  }).sort((a, b) => params(a) - params(b))[0];
}
