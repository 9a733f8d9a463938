import { describe, expect, it } from "vitest";
import { createTestApp } from "../support/app.ts";
import { CONFIGURE, balance, calls, useAssistantApp, user } from "../assistant/helpers.ts";
import { waitFor } from "../support/wait.ts";

// Spec §8: configuring a new base costs 5 credits, changing one costs 2. A refused or failed call
// changes nothing and costs nothing, and concurrent calls cannot spend the same credits twice.

const t = useAssistantApp({}, { credits: 7 });

const countBases = async (key?: string) =>
  (await t.app.api("GET", "/api/v1/bases", { key })).body.bases.length as number;
const entries = async () => (await t.app.api("GET", "/api/v1/credits")).body.entries as any[];

async function topUpTo(amount: number) {
  await t.app.rt.db.prisma.workspace.update({ where: { id: t.app.workspaceA }, data: { credits: BigInt(amount) } });
}

describe("configure costs", () => {
  it("charges 5 to create and 2 to modify, and 402s without enough, changing nothing", async () => {
    await topUpTo(7);
    t.llm.enqueue(calls({ args: { columnOperation: "create", name: "Company", isPrimary: true } }), {
      text: "Created.",
    });
    const created = await t.app.api("POST", CONFIGURE, { body: { baseName: "Paid", messages: [user("Companies.")] } });
    expect(created.status, created.text).toBe(200);
    const baseId = created.body.baseId;
    expect(await balance(t.app)).toBe(2);
    expect((await entries())[0]).toMatchObject({ amount: -5, reason: "configure_create", baseId });

    t.llm.enqueue({ text: "Nothing to do." });
    const modified = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Looks good.")] } });
    expect(modified.status).toBe(200);
    expect(await balance(t.app)).toBe(0);
    expect((await entries())[0]).toMatchObject({ amount: -2, reason: "configure_modify", baseId });

    // Out of credits: 402, the model is never called, the base and its chat stay as they were.
    t.llm.reset();
    const chatBefore = (await t.app.api("GET", `/api/v1/bases/${baseId}/chat`)).body.messages;
    const bases = await countBases();
    const refusedModify = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Add a column.")] } });
    expect(refusedModify.status).toBe(402);
    expect(refusedModify.body.error).toMatchObject({
      code: "insufficient_credits",
      details: { required: 2, balance: 0 },
    });
    const refusedCreate = await t.app.api("POST", CONFIGURE, {
      body: { baseName: "Nope", messages: [user("Another table.")] },
    });
    expect(refusedCreate.status).toBe(402);
    expect(refusedCreate.body.error.details).toEqual({ required: 5, balance: 0 });
    expect(await countBases()).toBe(bases);
    expect((await t.app.api("GET", `/api/v1/bases/${baseId}/chat`)).body.messages).toEqual(chatBefore);
    expect(t.llm.requests).toHaveLength(0);
    expect(await balance(t.app)).toBe(0);
  });

  it("charges nothing and leaves no base when the provider fails (502)", async () => {
    await topUpTo(10);
    const bases = await countBases();
    const ledger = (await entries()).length;
    t.llm.enqueue({ status: 500, message: "provider down" });
    const res = await t.app.api("POST", CONFIGURE, { body: { baseName: "Doomed", messages: [user("Companies.")] } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("ai_provider_error");
    expect(await balance(t.app)).toBe(10);
    expect(await countBases()).toBe(bases);
    // The ledger shows the charge and its refund.
    const [refund, charge] = await entries();
    expect([charge.amount, charge.reason, refund.amount, refund.reason]).toEqual([
      -5,
      "configure_create",
      5,
      "refund:configure_create",
    ]);
    expect((await entries()).length).toBe(ledger + 2);
  });

  it("refunds a modify whose provider fails after a committed change, and keeps the change", async () => {
    await topUpTo(10);
    t.llm.enqueue({ text: "ok" });
    const { baseId } = (await t.app.api("POST", CONFIGURE, { body: { messages: [user("Start.")] } })).body;
    expect(await balance(t.app)).toBe(5);
    t.llm.enqueue(calls({ args: { columnOperation: "create", name: "Notes", type: "long-text" } }), { status: 503 });
    const res = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Add Notes.")] } });
    expect(res.status).toBe(502);
    expect(res.body.error.details).toMatchObject({ baseId });
    expect(await balance(t.app)).toBe(5);
    const columns = (await t.app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body.sheetColumns;
    expect(columns.map((c: any) => c.name)).toContain("Notes");
  });

  it("charges nothing when the turn cannot be stored because its base was deleted meanwhile", async () => {
    await topUpTo(10);
    const base = await t.app.api("POST", "/api/v1/bases", { body: { baseName: "Short-lived" } });
    t.llm.reset();
    t.llm.enqueue({ text: "Thinking it over.", delayMs: 400 });
    const pending = t.app.api("POST", CONFIGURE, { body: { baseId: base.body.baseId, messages: [user("Anything?")] } });
    await waitFor(() => t.llm.requests.length === 1, "the model to be asked");
    expect((await t.app.api("DELETE", `/api/v1/bases/${base.body.baseId}`)).status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("base_not_found");
    expect(await balance(t.app)).toBe(10);
  });

  it("lets exactly one of three concurrent creates spend the last 5 credits", async () => {
    await topUpTo(5);
    const bases = await countBases();
    t.llm.setHandler(() => ({ text: "Created.", delayMs: 50 }));
    const results = await Promise.all(
      [1, 2, 3].map((i) => t.app.api("POST", CONFIGURE, { body: { baseName: `Race ${i}`, messages: [user("Go.")] } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    expect(await balance(t.app)).toBe(0);
    expect(await countBases()).toBe(bases + 1);
  });

  it("charges each workspace its own balance; an unlimited one is not charged but its usage is recorded", async () => {
    t.llm.enqueue({ text: "Created." });
    const res = await t.app.api("POST", CONFIGURE, { key: t.app.keyB, body: { messages: [user("Go.")] } });
    expect(res.status).toBe(200);
    const page = (await t.app.api("GET", "/api/v1/credits", { key: t.app.keyB })).body;
    // Workspace B was created with 7 credits by the test app; make it unlimited to check this case.
    expect(page.balance).toBe(2);
    await t.app.rt.db.prisma.workspace.update({ where: { id: t.app.workspaceB }, data: { credits: null } });
    t.llm.enqueue({ text: "Created." });
    expect((await t.app.api("POST", CONFIGURE, { key: t.app.keyB, body: { messages: [user("Again.")] } })).status).toBe(
      200,
    );
    const after = (await t.app.api("GET", "/api/v1/credits", { key: t.app.keyB })).body;
    expect(after.balance).toBeNull();
    expect(after.entries[0]).toMatchObject({ amount: -5, reason: "configure_create" });
  });
});

describe("no provider configured", () => {
  it("503s ai_not_configured without charging or creating anything", async () => {
    const app = await createTestApp({}, { credits: 10 });
    try {
      const res = await app.api("POST", CONFIGURE, { body: { messages: [user("Companies.")] } });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("ai_not_configured");
      expect((await app.api("GET", "/api/v1/credits")).body).toEqual({ balance: 10, entries: [], nextCursor: null });
      expect((await app.api("GET", "/api/v1/bases")).body.bases).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
