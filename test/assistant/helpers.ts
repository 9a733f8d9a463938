import { expect } from "vitest";
import type { TestApp } from "../support/app.ts";
import type { FakeReply } from "../support/fake-llm.ts";
import { useAppWithFakeLlm } from "../support/llm-app.ts";
import type { Env } from "../../lib/config.ts";

export const CONFIGURE = "/api/v1/bases/ai-configure-base";

/** A test app whose assistant talks to a fresh fake LLM; no retries, so a scripted 500 fails at once. */
export function useAssistantApp(env: Env = {}, opts: { credits?: number } = {}) {
  return useAppWithFakeLlm(
    (url) => ({ OPENAI_BASE_URL: url, AI_ASSISTANT_MODEL: "openai:assistant-model", AI_MAX_ATTEMPTS: "1", ...env }),
    opts,
  );
}

export type AssistantApp = ReturnType<typeof useAssistantApp>;

export const user = (content: string) => ({ role: "user" as const, content });

/** One scripted model step that calls manageColumn (and friends) with these args. */
export function calls(...list: { name?: string; args: Record<string, unknown> }[]): FakeReply {
  return { toolCalls: list.map((c) => ({ name: c.name ?? "manageColumn", args: c.args })) };
}

export async function structure(app: TestApp, baseId: string) {
  const res = await app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
  if (res.status !== 200) throw new Error(`base-structure: ${res.status} ${res.text}`);
  return res.body as {
    sheet: { name: string };
    sheetColumns: {
      id: string;
      name: string;
      type: string;
      isPrimary: boolean;
      isAiEnabled: boolean;
      inputColumnIds: string[];
      tools: { name: string }[];
      instructions: string;
      index: number;
      columnOptions: Record<string, unknown>;
      runIf: Record<string, unknown> | null;
    }[];
    primaryColumn: { name: string };
  };
}

/** All tool-result parts of a returned history, in order. */
export function toolResults(messages: any[]): any[] {
  return messages.filter((m) => m.role === "tool").flatMap((m) => m.content);
}

/** Parses an SSE body of `data: {json}` events (the AI SDK's UI message stream). */
export function sseChunks(text: string): any[] {
  return text
    .split("\n\n")
    .map((e) => e.trim())
    .filter((e) => e.startsWith("data: ") && e !== "data: [DONE]")
    .map((e) => JSON.parse(e.slice(6)));
}

export async function balance(app: TestApp): Promise<number | null> {
  return (await app.api("GET", "/api/v1/credits")).body.balance;
}

export const DESCRIPTION =
  "Create a table of companies. The primary column is Company. Website (url) is found with web search from Company. " +
  "Summary scrapes the Website and summarises what the company does.";

/** Configures the Leads base by chat: Company (primary), Website and Summary, scripted. */
export async function createLeadsBase(t: AssistantApp) {
  t.llm.enqueue(
    calls(
      { args: { columnOperation: "create", name: "Company", type: "short-text", isPrimary: true } },
      {
        args: {
          columnOperation: "create",
          name: "Website",
          type: "url",
          isAiEnabled: true,
          inputColumns: ["Company"],
          tools: ["web-search"],
          instructions: "The company's official website.",
        },
      },
      {
        args: {
          columnOperation: "create",
          name: "Summary",
          type: "long-text",
          isAiEnabled: true,
          inputColumns: ["Website"],
          tools: [{ name: "scrape-url" }],
          instructions: "Two sentences on what the company does.",
        },
      },
    ),
    { text: "Created Company (primary), Website and Summary." },
  );
  const res = await t.app.api("POST", CONFIGURE, { body: { baseName: "Leads", messages: [user(DESCRIPTION)] } });
  expect(res.status, res.text).toBe(200);
  return res.body as { baseId: string; messages: any[] };
}
