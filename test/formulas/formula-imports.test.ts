import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { allRows, importFile } from "../imports/helpers.ts";

// An import computes formula columns like any write, with and without upsert, and leaves out a
// file's field for a formula column (an export read back in) instead of refusing its lines.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
});
afterAll(() => app.close());

it("computes formulas for imported and upserted rows, ignoring the file's formula field", async () => {
  const { baseId } = await createBase(app, {
    columns: [
      { name: "Email", type: "email", isPrimary: true },
      { name: "Seats", type: "number" },
      { name: "Domain", fill: { kind: "formula", expression: '$substringAfter(Email, "@")' } },
      { name: "Price", type: "number", fill: { kind: "formula", expression: "Seats * 12" } },
    ],
  });
  const csv = "Email,Seats,Domain\na@one.test,2,forged.test\nb@two.test,,\n";
  const first = await importFile(app, baseId, csv);
  expect(first.status, JSON.stringify(first)).toBe("done");
  expect(await allRows(app, baseId)).toEqual([
    { Email: "a@one.test", Seats: "2", Domain: "one.test", Price: "24" },
    { Email: "b@two.test", Seats: "", Domain: "two.test", Price: "" },
  ]);
  const upsert = await importFile(app, baseId, "Email,Seats\nb@two.test,3\nc@three.test,1\n", {
    query: "?mergeOn=Email",
  });
  expect(upsert.status, JSON.stringify(upsert)).toBe("done");
  expect(await allRows(app, baseId)).toEqual([
    { Email: "a@one.test", Seats: "2", Domain: "one.test", Price: "24" },
    { Email: "b@two.test", Seats: "3", Domain: "two.test", Price: "36" },
    { Email: "c@three.test", Seats: "1", Domain: "three.test", Price: "12" },
  ]);
});
