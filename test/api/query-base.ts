import { expect } from "vitest";
import type { TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";

// The base the Query Rows suites read (rows-query.test.ts, rows-query-errors.test.ts): five
// companies over every filterable column type, with gaps, and an AI column that never runs.

const ROWS = [
  {
    Company: "Acme",
    Employees: 120,
    Founded: "2001-05-01",
    Public: true,
    Stage: "Series B",
    Notes: "Raised a Series B in 2020",
  },
  { Company: "Globex", Employees: 40, Founded: "1999-12-31", Public: false, Stage: "Seed", Notes: "École de commerce" },
  { Company: "Initech", Employees: 50, Founded: "2010-01-01", Stage: "Series A", Notes: "series b soon" },
  { Company: "acme labs", Employees: 7.5, Founded: "2020-02-29T10:00:00Z", Public: true, Notes: "100% remote_first" },
  { Company: "Umbrella" },
];

export async function createQueryBase(app: TestApp): Promise<TestBase> {
  const base = await createBase(app, {
    name: "Companies",
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Employees", type: "number" },
      { name: "Founded", type: "date" },
      { name: "Public", type: "checkbox" },
      { name: "Stage", type: "select", columnOptions: { options: ["Seed", "Series A", "Series B"] } },
      { name: "Notes", type: "long-text" },
      {
        name: "Summary",
        type: "long-text",
        isAiEnabled: true,
        inputColumns: ["Company"],
        instructions: "Summarise.",
        columnOptions: { autoRun: "never" },
      },
    ],
  });
  const res = await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
    body: { rows: ROWS.map((cells) => ({ cells })) },
  });
  expect(res.status, res.text).toBe(200);
  return base;
}
