// The e2e suite's model: test/support/fake-llm.ts over HTTP, with the assistant's side scripted.
// Cell attempts get the fake's default, deterministic answers, except the quality spec's columns
// (see quality-script.ts). An assistant turn whose message asks for a "company research table"
// creates three columns and tries one change that would form a cycle (so the UI shows a failed
// tool call too), then explains. Plain erasable TypeScript: Node runs this file directly.
import { startFakeLlm, type FakeLlmRequest, type FakeReply } from "../../test/support/fake-llm.ts";
import { startPageServer } from "../../test/support/page-server.ts";
import { worldModel } from "../../test/support/world-model.ts";
import { qualityAnswer } from "./quality-script.ts";
import { startFakeWorld } from "../../test/support/fake-world.ts";

// Cells of a column with scrape-url really browse: the model asks for the article page served
// here, the product fetches it through its URL guard, and the answer cites it, so the popover
// shows sources the engine grounded itself.
const pages = await startPageServer();

// A row whose company is "Flaky …" fails its first model call and succeeds when retried, so the
// runs spec has failed cells to retry. One whose company is "Slow …" answers its first call after
// 30 s and any later one at once, so the spec's run is still going whenever it cancels it.
const flakySeen = new Set<string>();
const slowSeen = new Set<string>();
const SLOW_FIRST_CALL_MS = 30_000;
// A row whose company is "Shifting …" moves: its first answer places it in Lyon, every later one
// in Paris, so the history spec sees a re-run really change a value (and its word diff).
const shiftingSeen = new Set<string>();

function cellReply(req: FakeLlmRequest): FakeReply | undefined {
  // The quality spec's columns are right on some rows and wrong on others (see quality-script.ts).
  const scripted = qualityAnswer(`${req.system}\n${req.lastUserText}`);
  if (scripted) return { json: { ...scripted, sources: [], additionalDetails: "Scripted by the quality spec." } };
  const flaky = /"Company": "(Flaky [^"]*)"/.exec(req.lastUserText)?.[1];
  if (flaky && !flakySeen.has(flaky)) {
    flakySeen.add(flaky);
    return { status: 400, message: "The fake model refuses this row once." };
  }
  const slow = /"Company": "(Slow [^"]*)"/.exec(req.lastUserText)?.[1];
  if (slow && !slowSeen.has(slow)) {
    slowSeen.add(slow);
    return { delayMs: SLOW_FIRST_CALL_MS };
  }
  const shifting = /"Company": "(Shifting [^"]*)"/.exec(req.lastUserText)?.[1];
  if (shifting) {
    // It reads the article first when it may, so its answer has a source the engine fetched itself.
    const canScrape = req.tools.some((t) => t.name === "scrape-url");
    if (canScrape && !req.messages.some((m) => m.role === "tool"))
      return { toolCalls: [{ name: "scrape-url", args: { url: `${pages.url}/article` } }] };
    const moved = shiftingSeen.has(shifting);
    shiftingSeen.add(shifting);
    return {
      json: {
        value: moved ? "Headquarters in Paris, 140 staff" : "Headquarters in Lyon, 120 staff",
        sources: [`${pages.url}/article`],
        confidenceScore: moved ? 0.81 : 0.9,
        additionalDetails: "Scripted by the history spec.",
      },
    };
  }
  if (!req.tools.some((t) => t.name === "scrape-url")) return undefined;
  const toolResult = req.messages.find((m) => m.role === "tool");
  if (!toolResult) return { toolCalls: [{ name: "scrape-url", args: { url: `${pages.url}/article` } }] };
  return {
    json: {
      value: "Heat pumps",
      sources: [`${pages.url}/article`],
      confidenceScore: 0.42,
      additionalDetails: "The article is about heat pumps in new homes.",
    },
  };
}

function assistantReply(req: FakeLlmRequest): FakeReply | undefined {
  if (!req.tools.some((t) => t.name === "manageColumn")) return cellReply(req);
  const lastUser = req.messages.map((m) => m.role).lastIndexOf("user");
  const answered = req.messages.slice(lastUser + 1).some((m) => m.role === "tool");
  if (!/company research table/i.test(req.lastUserText)) {
    return answered ? { text: "Done." } : { text: "Tell me which columns you would like." };
  }
  if (answered) {
    return {
      text: "Your table is ready: Company is the primary column, Website holds each company's site, and Summary is written by the AI from both. I did not make Company read Summary, because Summary already reads Company and that would be a cycle.",
    };
  }
  return {
    text: "I'll set up the table with a primary Company column, a Website column and an AI Summary.",
    toolCalls: [
      {
        name: "manageColumn",
        args: {
          columnOperation: "create",
          name: "Company",
          type: "short-text",
          isPrimary: true,
          instructions: "The company's name.",
        },
      },
      {
        name: "manageColumn",
        args: { columnOperation: "create", name: "Website", type: "url", instructions: "The company's website." },
      },
      {
        name: "manageColumn",
        args: {
          columnOperation: "create",
          name: "Summary",
          type: "long-text",
          isAiEnabled: true,
          inputColumns: ["Company", "Website"],
          instructions: "One sentence on what the company does.",
        },
      },
      {
        name: "manageColumn",
        args: { columnOperation: "update", columnName: "Company", isAiEnabled: true, inputColumns: ["Summary"] },
      },
    ],
  };
}

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : 0;
};
// Finds search the fake world of companies and the model verifies them honestly (find-rows.spec.ts).
// Each company at a loopback address of its own: the server process reaches them without a resolver.
const sites = await startFakeWorld({ companies: 120, addressing: "loopback", port: arg("--world-port") });
const world = worldModel();

const llm = await startFakeLlm({
  port: arg("--port"),
  host: "127.0.0.1",
  latencyMs: 300,
  streamChunkDelayMs: 15,
  maxRecorded: 1_000,
  handler: (req) => world(req) ?? assistantReply(req),
});
process.stdout.write(`${JSON.stringify({ baseUrl: llm.baseUrl, searchUrl: sites.searchUrl })}\n`);
const stop = () => void Promise.all([llm.close(), pages.close(), sites.close()]).then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
