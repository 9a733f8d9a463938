import { expect, it } from "vitest";
import { CONFIGURE, calls, createLeadsBase, structure, toolResults, useAssistantApp, user } from "./helpers.ts";

// The assistant builds formula and HTTP columns with manageColumn's fill, and sees them in the base it is shown.
const t = useAssistantApp();

it("builds a formula column, names it to the model, and reports a bad formula as an error result", async () => {
  const { baseId } = await createLeadsBase(t);
  t.llm.enqueue(
    calls({ args: { columnOperation: "create", name: "Host", fill: { kind: "formula", expression: "Compny" } } }),
    calls({
      args: {
        columnOperation: "create",
        name: "Slug",
        fill: { kind: "formula", expression: '$lowercase($replace(Company, " ", "-"))' },
      },
    }),
    { text: "Added Host." },
  );
  const res = await t.app.api("POST", CONFIGURE, {
    body: { baseId, messages: [user("Add a slug of the company name.")] },
  });
  expect(res.status, res.text).toBe(200);
  const [bad, good] = toolResults(res.body.messages);
  expect(bad.result.error.code).toBe("invalid_formula");
  const slug = (await structure(t.app, baseId)).sheetColumns.find((c) => c.name === "Slug")!;
  expect(good.result.column).toEqual(slug);
  expect(slug).toMatchObject({ isAiEnabled: false, fill: { kind: "formula" } });
  await t.app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    body: { rows: [{ cells: { Company: "Acme Rockets" } }] },
  });
  const rows = (await t.app.api("GET", `/api/v1/bases/${baseId}/rows`)).body.rows;
  expect(rows[0].cells.Slug).toBe("acme-rockets");
  t.llm.enqueue({ text: "Nothing to do." });
  await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("What is there?")] } });
  expect(t.llm.requests.at(-1)!.system).toMatch(
    /"Slug" \(id scol_\w+\) type short-text; formula: .*; inputs: "Company"/,
  );
});

it("builds an HTTP column naming a workspace secret it knows by name only", async () => {
  const secret = await t.app.api("POST", "/api/v1/secrets", { body: { name: "SIZE_API", value: "sk_never_shown_42" } });
  expect(secret.status, secret.text).toBe(201);
  const { baseId } = await createLeadsBase(t);
  const fill = {
    kind: "http",
    request: {
      method: "GET",
      url: "https://api.example.com/size?company={{Company}}",
      headers: { Authorization: "Bearer {{secret:SIZE_API}}" },
    },
    extract: "employees",
  };
  t.llm.enqueue(calls({ args: { columnOperation: "create", name: "Employees", type: "number", fill } }), {
    text: "Added Employees.",
  });
  const res = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Add the company size.")] } });
  expect(res.status, res.text).toBe(200);
  const employees = (await structure(t.app, baseId)).sheetColumns.find((c) => c.name === "Employees")!;
  expect(employees).toMatchObject({ isAiEnabled: false, fill: { kind: "http", extract: "employees" } });
  const system = t.llm.requests.at(-2)!.system;
  expect(system).toContain("Workspace secrets (names only): SIZE_API.");
  expect(JSON.stringify(t.llm.requests)).not.toContain("sk_never_shown_42");
});
