import { afterAll, beforeAll, describe } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import type { AppEvent } from "../../lib/events.ts";
import { addRows, subscribe } from "./fixtures.ts";
import { EMITS_NOTHING, scenarios } from "./scenario.ts";

// Rule 9: each write states the app events it emits and the webhook messages it writes to the
// outbox; a rejected request emits nothing and writes nothing.

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const colPath = (baseId: string, id = "") => `/api/v1/bases/${baseId}/columns${id ? `/${id}` : ""}`;

describe("rows", () => {
  // Summary waits on AI unless a value is supplied; a row with nothing left to run is processed
  // at once, which is when its webhook message is written.
  let h: TestBase;
  let endpointId: string;
  let rows: { id: string }[];
  beforeAll(async () => {
    h = await createBase(app, {
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Notes", type: "long-text" },
        {
          name: "Summary",
          type: "long-text",
          isAiEnabled: true,
          inputColumns: ["Company"],
          instructions: "Summarise.",
        },
      ],
      name: "Hooked",
    });
    endpointId = await subscribe(app, h.baseId);
    rows = await addRows(app, h.baseId, [
      { Company: "Kept", Summary: "given" },
      { Company: "Doomed", Summary: "given" },
    ]);
  });
  const path = (op: string) => () => `/api/v1/bases/${h.baseId}/${op}`;
  const processed = (cells: Record<string, string>) => ({
    eventType: "row.sheet.processed",
    endpointId,
    body: { type: "row.sheet.processed", data: { baseId: h.baseId, row: { cells } } },
  });

  scenarios(
    () => app,
    [
      {
        name: "add-rows: the settled row is processed and has a message, the row waiting on AI has neither",
        method: "POST",
        path: path("add-rows"),
        body: { rows: [{ cells: { Company: "Done", Summary: "supplied" } }, { cells: { Company: "Waiting" } }] },
        status: 200,
        events: () => [
          { type: "run.updated", baseId: h.baseId },
          { type: "work.available" },
          { type: "webhooks.queued" },
          { type: "row.sheet.processed", baseId: h.baseId },
          { type: "rows.changed", kind: "added", baseId: h.baseId },
        ],
        webhooks: () => [processed({ Company: "Done", Notes: "", Summary: "supplied" })],
      },
      {
        name: "update-rows: the row is processed again, with a new message",
        method: "POST",
        path: path("update-rows"),
        body: () => ({ rows: [{ id: rows[0].id, cells: { Notes: "changed" } }] }),
        status: 200,
        events: () => [
          { type: "webhooks.queued" },
          { type: "row.sheet.processed", baseId: h.baseId, rowId: rows[0].id },
          { type: "rows.changed", kind: "updated", rowIds: [rows[0].id] },
        ],
        webhooks: () => [processed({ Company: "Kept", Notes: "changed", Summary: "given" })],
      },
      {
        name: "delete-rows: rows.changed deleted, no message",
        method: "POST",
        path: path("delete-rows"),
        body: () => ({ rowIds: [rows[1].id] }),
        status: 200,
        events: () => [{ type: "rows.changed", kind: "deleted", rowIds: [rows[1].id] }],
        webhooks: [],
      },
      {
        name: "add-rows rejected: nothing",
        method: "POST",
        path: path("add-rows"),
        body: { rows: [{ cells: { Nope: "x" } }] },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "add-rows with another workspace's key: nothing",
        method: "POST",
        path: path("add-rows"),
        key: "B",
        body: { rows: [{ cells: {} }] },
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "update-rows where every row failed: nothing",
        method: "POST",
        path: path("update-rows"),
        body: { rows: [{ id: "sr_missing", cells: { Notes: "x" } }] },
        status: 200,
        bodyMatches: { rows: [], errors: [{ rowId: "sr_missing", code: "row_not_found" }] },
        ...EMITS_NOTHING,
      },
      {
        name: "update-rows rejected: nothing",
        method: "POST",
        path: path("update-rows"),
        body: { rows: null },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "delete-rows of unknown ids: nothing",
        method: "POST",
        path: path("delete-rows"),
        body: { rowIds: ["sr_unknown"] },
        status: 200,
        bodyMatches: { deletedRowIds: [] },
        ...EMITS_NOTHING,
      },
      {
        name: "delete-rows rejected: nothing",
        method: "POST",
        path: path("delete-rows"),
        body: {},
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
    ],
  );
});

describe("bases and columns", () => {
  // An endpoint of every base is subscribed: no structure change processes a row, so none writes
  // a message, and rows are not re-processed when a column comes or goes.
  let s: TestBase;
  let doomed: TestBase;
  beforeAll(async () => {
    await subscribe(app);
    s = await createBase(app, {
      columns: [{ name: "Company", isPrimary: true }, { name: "Notes" }, { name: "Extra" }],
      name: "Shaped",
    });
    doomed = await createBase(app, { columns: [{ name: "Company", isPrimary: true }], name: "Doomed too" });
    await addRows(app, s.baseId, [{ Company: "Acme" }]);
    await addRows(app, doomed.baseId, [{ Company: "Gone" }]);
  });
  const changed = (): Partial<AppEvent>[] => [{ type: "structure.changed", baseId: s.baseId }];

  scenarios(
    () => app,
    [
      {
        name: "POST a base",
        method: "POST",
        path: "/api/v1/bases",
        body: { baseName: "Fresh", columns: [{ name: "A" }] },
        status: 201,
        events: [{ type: "structure.changed" }],
        webhooks: [],
      },
      {
        name: "PATCH a base",
        method: "PATCH",
        path: () => `/api/v1/bases/${s.baseId}`,
        body: { baseName: "Reshaped" },
        status: 200,
        events: changed,
        webhooks: [],
      },
      {
        name: "POST a column",
        method: "POST",
        path: () => colPath(s.baseId),
        body: { name: "Country" },
        status: 201,
        events: changed,
        webhooks: [],
      },
      {
        name: "POST an AI column (its cells wait to be run)",
        method: "POST",
        path: () => colPath(s.baseId),
        body: { name: "Later", isAiEnabled: true, inputColumns: ["Company"] },
        status: 201,
        events: changed,
        webhooks: [],
      },
      {
        name: "PATCH a column",
        method: "PATCH",
        path: () => colPath(s.baseId, s.col.Notes),
        body: { name: "Remarks" },
        status: 200,
        events: changed,
        webhooks: [],
      },
      {
        name: "DELETE a column",
        method: "DELETE",
        path: () => `${colPath(s.baseId, s.col.Extra)}?force=true`,
        status: 200,
        events: changed,
        webhooks: [],
      },
      // Open streams of the base learn it is gone (their next read of its structure is a 404).
      {
        name: "DELETE a base",
        method: "DELETE",
        path: () => `/api/v1/bases/${doomed.baseId}`,
        status: 200,
        events: () => [{ type: "structure.changed", baseId: doomed.baseId }],
        webhooks: [],
      },
      {
        name: "PATCH another workspace's base",
        method: "PATCH",
        path: () => `/api/v1/bases/${s.baseId}`,
        key: "B",
        body: { baseName: "Mine" },
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "DELETE another workspace's base",
        method: "DELETE",
        path: () => `/api/v1/bases/${s.baseId}`,
        key: "B",
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
    ],
  );
});
