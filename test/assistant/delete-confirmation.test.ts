import { describe, expect, it } from "vitest";
import { CONFIGURE, calls, structure, toolResults, useAssistantApp, user } from "./helpers.ts";
import { createBase } from "../support/bases.ts";

// Deleting a column that holds data needs the user's yes, in a message of their own: the
// assistant cannot ask and answer in the same turn.

const t = useAssistantApp();

describe("deleting a column with data", () => {
  it("is refused until a later turn confirms it, and then happens", async () => {
    const { baseId } = await createBase(t.app, {
      columns: [{ name: "Company", isPrimary: true }, { name: "Notes" }, { name: "Empty" }],
    });
    await t.app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "Acme", Notes: "call back" } }, { cells: { Company: "Globex" } }] },
    });

    // Turn 1: the model tries to delete Notes, then tries to confirm on its own; an empty column goes at once.
    t.llm.enqueue(
      calls({ args: { columnOperation: "delete", columnName: "Notes" } }),
      calls(
        { args: { columnOperation: "delete", columnName: "Notes", confirmed: true } },
        { args: { columnOperation: "delete", columnName: "Empty" } },
      ),
      { text: "Notes holds data in 1 row. Delete it anyway?" },
    );
    const first = await t.app.api("POST", CONFIGURE, {
      body: { baseId, messages: [user("Remove the Notes and Empty columns.")] },
    });
    expect(first.status, first.text).toBe(200);
    const asked = toolResults(first.body.messages);
    expect(asked.map((r) => r.result.needsConfirmation === true)).toEqual([true, true, false]);
    expect(asked[0].result).toMatchObject({
      rowsWithData: 1,
      message: expect.stringMatching(/^Not deleted: "Notes" holds data in 1 row/),
    });
    expect((await structure(t.app, baseId)).sheetColumns.map((c) => c.name)).toEqual(["Company", "Notes"]);

    // Turn 2: the user says yes; now the confirmed delete goes through.
    t.llm.enqueue(calls({ args: { columnOperation: "delete", columnName: "Notes", confirmed: true } }), {
      text: "Deleted Notes.",
    });
    const second = await t.app.api("POST", CONFIGURE, {
      body: { baseId, messages: [...first.body.messages, user("Yes, delete it.")] },
    });
    expect(second.status, second.text).toBe(200);
    expect(toolResults(second.body.messages).at(-1).result.message).toMatch(/^Deleted column "Notes"/);
    expect((await structure(t.app, baseId)).sheetColumns.map((c) => c.name)).toEqual(["Company"]);
  });
});
