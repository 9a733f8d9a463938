import { expect } from "vitest";
import type { TestApp } from "../support/app.ts";
import { createFakeDns } from "../support/fake-dns.ts";
import { createEndpoint, createEndpointSchema } from "../../lib/webhooks/endpoints.ts";

// Shared setup for the API suites: a small "Companies" base with one column of most kinds and
// one AI column that takes two inputs.

export const COMPANY_COLUMNS = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Website", type: "url" },
  { name: "Employees", type: "number" },
  {
    name: "Summary",
    type: "long-text",
    isAiEnabled: true,
    inputColumns: ["Company", "Website"],
    tools: ["web-search"],
    instructions: "Summarise.",
  },
];

/** The "Companies" base most API suites start from: `createBase(app, COMPANIES)`. */
export const COMPANIES = { columns: COMPANY_COLUMNS, name: "Companies" };

/** The three rows the read suites start from: one with values of most kinds, one with a hand-written AI cell, one bare. */
export const THREE_COMPANIES = [
  { Company: "Acme", Website: "acme.com", Employees: 42 },
  { Company: "Globex", Summary: "Supplied by hand" },
  { Company: "Initech" },
];

/** The base the column suites change: a primary, a URL, a text column and an AI column that reads two of them. */
export const COLUMN_SUITE_BASE = {
  columns: [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Website", type: "url" },
    { name: "Size", type: "short-text" },
    {
      name: "Summary",
      type: "long-text",
      isAiEnabled: true,
      inputColumns: ["Company", "Website"],
      tools: [{ name: "web-search" }],
    },
  ],
};

export const columnsPath = (baseId: string, id = "") => `/api/v1/bases/${baseId}/columns${id ? `/${id}` : ""}`;

/**
 * Subscribes a webhook endpoint of workspace A to `row.sheet.processed` (of one base, or of every
 * base), so writes leave messages in the outbox. No relay runs in the API suites: they stay there.
 * The host resolves publicly through a fake DNS, so the outbound guard stays on.
 */
export async function subscribe(app: TestApp, baseId?: string): Promise<string> {
  const dns = createFakeDns({ hosts: { "hooks.example.test": ["93.184.216.34"] } });
  const input = createEndpointSchema.parse({
    url: "https://hooks.example.test/cellwright",
    events: ["row.sheet.processed"],
    baseId,
  });
  return (await createEndpoint(app.rt, app.workspaceA, input, { lookup: dns.lookup })).id;
}

export async function addRows(
  app: TestApp,
  baseId: string,
  cells: Record<string, unknown>[],
  key = app.keyA,
): Promise<any[]> {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    key,
    body: { rows: cells.map((c) => ({ cells: c })) },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.rows;
}

export async function getRows(app: TestApp, baseId: string, query = ""): Promise<any[]> {
  const res = await app.api("GET", `/api/v1/bases/${baseId}/rows${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.rows;
}

export async function rowCount(app: TestApp, baseId: string): Promise<number> {
  return (await getRows(app, baseId)).length;
}

/** The exact key set of a column object: spec §2.5's, and runIf (the run condition, documented in docs/). */
export const COLUMN_KEYS = [
  "columnOptions",
  "fill",
  "id",
  "index",
  "inputColumnIds",
  "instructions",
  "isAiEnabled",
  "isPrimary",
  "name",
  "runIf",
  "tools",
  "type",
];

export interface Endpoint {
  method: string;
  /** The path pattern, for test names. */
  label: string;
  path: () => string;
  /** A value, or a function when it holds ids that exist only after setup. */
  body?: unknown;
}

/** Every /api/v1 endpoint that names a base, with a valid body where it takes one. */
export function baseEndpoints(base: () => string, row: () => string, column: () => string): Endpoint[] {
  const b = "/api/v1/bases/{baseId}";
  return [
    { method: "GET", label: `${b}/rows`, path: () => `/api/v1/bases/${base()}/rows` },
    { method: "GET", label: `${b}/rows?limit=10`, path: () => `/api/v1/bases/${base()}/rows?limit=10` },
    { method: "GET", label: `${b}/rows/{rowId}`, path: () => `/api/v1/bases/${base()}/rows/${row()}` },
    { method: "GET", label: `${b}/export?format=csv`, path: () => `/api/v1/bases/${base()}/export?format=csv` },
    { method: "GET", label: `${b}/base-structure`, path: () => `/api/v1/bases/${base()}/base-structure` },
    {
      method: "POST",
      label: `${b}/add-rows`,
      path: () => `/api/v1/bases/${base()}/add-rows`,
      body: { rows: [{ cells: { Company: "x" } }] },
    },
    {
      method: "POST",
      label: `${b}/update-rows`,
      path: () => `/api/v1/bases/${base()}/update-rows`,
      body: () => ({ rows: [{ id: row(), cells: { Company: "x" } }] }),
    },
    {
      method: "POST",
      label: `${b}/delete-rows`,
      path: () => `/api/v1/bases/${base()}/delete-rows`,
      body: () => ({ rowIds: [row()] }),
    },
    { method: "GET", label: b, path: () => `/api/v1/bases/${base()}` },
    { method: "PATCH", label: b, path: () => `/api/v1/bases/${base()}`, body: { baseName: "Renamed" } },
    { method: "DELETE", label: b, path: () => `/api/v1/bases/${base()}` },
    {
      method: "POST",
      label: `${b}/columns`,
      path: () => `/api/v1/bases/${base()}/columns`,
      body: { name: "New", type: "short-text" },
    },
    {
      method: "PATCH",
      label: `${b}/columns/{columnId}`,
      path: () => `/api/v1/bases/${base()}/columns/${column()}`,
      body: { name: "Renamed" },
    },
    {
      method: "DELETE",
      label: `${b}/columns/{columnId}?force=true`,
      path: () => `/api/v1/bases/${base()}/columns/${column()}?force=true`,
    },
  ];
}
