// A fake LLM server over real HTTP on 127.0.0.1, speaking OpenAI Chat Completions
// (POST /v1/chat/completions, GET /v1/models) and Anthropic Messages (POST /v1/messages), with and
// without streaming. Product code is pointed at it through OPENAI_BASE_URL / ANTHROPIC_BASE_URL and
// cannot tell it from a real provider.
//
// Per test: `const llm = await startFakeLlm()`, then script replies with `llm.enqueue(...)` (used
// first, in order) or `llm.setHandler(req => reply)`; anything unscripted goes to the default
// responder (see fake-llm-default.ts). Every request is recorded, parsed, in `llm.requests`.
//
// Standalone (benches, e2e): `node test/support/fake-llm.ts --port 0 --latency 200 --rate429 0.1`
// prints one JSON line `{"baseUrl":...,"anthropicBaseUrl":...,"port":...}` and serves until killed.
// Only erasable TypeScript and node: built-ins here, so Node runs this file directly.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { FakeHandler, FakeLlmRequest, FakeReply } from "./fake-llm-types.ts";
import { parseOpenAi, renderOpenAi, renderOpenAiError, sendJson } from "./fake-llm-openai.ts";
import { parseAnthropic, renderAnthropic, renderAnthropicError } from "./fake-llm-anthropic.ts";
import { capabilityRefusal, resolveReply, type FakeCapabilities } from "./fake-llm-reply.ts";
import { seededRandom } from "./prng.ts";

export type * from "./fake-llm-types.ts";
export type { FakeCapabilities } from "./fake-llm-reply.ts";
export { inputSummary, hintedValue } from "./fake-llm-default.ts";

export interface FakeLlmOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Added to every answer (before the reply's own delayMs). */
  latencyMs?: number;
  /** Fraction (0..1) of requests answered 429 before any handler runs. */
  errorRate429?: number;
  /** Retry-After seconds sent with those random 429s (default 1). */
  retryAfterSeconds?: number;
  /** Seed of the PRNG behind errorRate429, so runs are repeatable (default 1). */
  seed?: number;
  /** Emulate a server that lacks a feature: it answers 400 the way real servers do, before any scripted reply is used. */
  capabilities?: FakeCapabilities;
  /** When set, requests without this key (Bearer or x-api-key) get a 401. */
  apiKey?: string;
  models?: string[];
  handler?: FakeHandler;
  /** Pause between SSE chunks, to make streams observable (default 0). */
  streamChunkDelayMs?: number;
  /** Keep at most this many recorded requests, oldest dropped (default: all; the CLI keeps 10,000). */
  maxRecorded?: number;
}

export interface FakeLlm {
  /** e.g. http://127.0.0.1:PORT/v1: OPENAI_BASE_URL. */
  baseUrl: string;
  /** The same server: ANTHROPIC_BASE_URL (the Anthropic client appends /messages). */
  anthropicBaseUrl: string;
  port: number;
  requests: FakeLlmRequest[];
  setHandler(fn: FakeHandler | undefined): void;
  enqueue(...replies: FakeReply[]): void;
  /** Requests received since start (or reset), including ones dropped from `requests`. */
  readonly totalRequests: number;
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** The most requests that arrived within any window of `windowMs` (default 1000). */
  maxRequestsPerWindow(windowMs?: number): number;
  /** Clears recorded requests, the queue and the concurrency peak. */
  reset(): void;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

export async function startFakeLlm(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const requests: FakeLlmRequest[] = [];
  const queue: FakeReply[] = [];
  const flaky = new Map<string, number>();
  const random = seededRandom(opts.seed ?? 1);
  let handler = opts.handler;
  let inFlight = 0;
  let maxInFlight = 0;
  let ids = 0;
  let received = 0;
  const nextId = (prefix: string) => `${prefix}_${(++ids).toString(36).padStart(6, "0")}`;
  const models = opts.models ?? ["gpt-5-mini", "gpt-4.1-mini", "claude-sonnet-4-5", "fake-model"];

  async function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = (req.url ?? "/").split("?")[0].replace(/^\/v1(?=\/)/, "");
    if (req.method === "GET" && path === "/models") {
      sendJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 1700000000, owned_by: "fake-llm" })),
      });
      return;
    }
    const protocol = path === "/chat/completions" ? "openai" : path === "/messages" ? "anthropic" : undefined;
    if (req.method !== "POST" || !protocol) {
      sendJson(res, 404, {
        error: { message: `No route for ${req.method} ${req.url}`, type: "invalid_request_error" },
      });
      return;
    }
    let body: Record<string, any>;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      sendJson(res, 400, { error: { message: "The request body is not valid JSON.", type: "invalid_request_error" } });
      return;
    }
    const parsed = protocol === "openai" ? parseOpenAi(body) : parseAnthropic(body);
    const lastUser = [...parsed.messages].reverse().find((m) => m.role === "user");
    const record: FakeLlmRequest = {
      index: received++,
      at: Date.now(),
      protocol,
      path,
      ...parsed,
      lastUserText: lastUser?.content ?? "",
      headers: req.headers as Record<string, string | undefined>,
      body,
    };
    requests.push(record);
    if (requests.length > (opts.maxRecorded ?? Infinity)) requests.shift();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    res.on("close", () => {
      if (counted) inFlight--;
      counted = false;
      record.doneAt = Date.now();
    });

    const renderError = protocol === "openai" ? renderOpenAiError : renderAnthropicError;
    const key = req.headers["x-api-key"] ?? req.headers.authorization?.replace(/^Bearer\s+/i, "");
    if (opts.apiKey !== undefined && key !== opts.apiKey) {
      await sleep(opts.latencyMs ?? 0);
      record.status = 401;
      renderError(res, { kind: "error", status: 401, message: "Incorrect API key provided.", headers: {} });
      return;
    }
    const refusal = capabilityRefusal(record, opts.capabilities ?? {});
    if (refusal?.kind === "error") {
      record.status = refusal.status;
      renderError(res, refusal);
      return;
    }
    let scripted: FakeReply | undefined;
    if (opts.errorRate429 && random() < opts.errorRate429) {
      scripted = { status: 429, retryAfterSeconds: opts.retryAfterSeconds ?? 1 };
    } else {
      scripted = queue.shift() ?? (handler ? await handler(record) : undefined);
    }
    const { answer, delayMs } = resolveReply(record, scripted, { nextId, flaky });
    await sleep((opts.latencyMs ?? 0) + delayMs);
    if (answer.kind === "hang" || res.destroyed) return; // the client's timeout or close() ends it
    if (answer.kind === "error") {
      record.status = answer.status;
      renderError(res, answer);
      return;
    }
    record.status = 200;
    const ctx = {
      id: nextId(protocol === "openai" ? "chatcmpl" : "msg"),
      model: record.model,
      stream: record.stream,
      includeUsage: record.includeUsage,
      chunkDelayMs: opts.streamChunkDelayMs ?? 0,
    };
    if (protocol === "openai") await renderOpenAi(res, answer, ctx);
    else await renderAnthropic(res, answer, ctx);
  }

  const server = http.createServer((req, res) => {
    serve(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `fake-llm handler failed: ${String(e)}`, type: "server_error" } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${opts.host ?? "127.0.0.1"}:${port}`;

  return {
    baseUrl: `${origin}/v1`,
    anthropicBaseUrl: `${origin}/v1`,
    port,
    requests,
    setHandler: (fn) => {
      handler = fn;
    },
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    get totalRequests() {
      return received;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    maxRequestsPerWindow(windowMs = 1000) {
      const times = requests.map((r) => r.at).sort((a, b) => a - b);
      let best = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i] - times[j] >= windowMs) j++;
        best = Math.max(best, i - j + 1);
      }
      return best;
    },
    reset() {
      requests.length = 0;
      received = 0;
      queue.length = 0;
      flaky.clear();
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]) {
  const num = (name: string) => (flag(args, name) === undefined ? undefined : Number(flag(args, name)));
  const llm = await startFakeLlm({
    port: num("--port") ?? 0,
    host: flag(args, "--host"),
    latencyMs: num("--latency"),
    errorRate429: num("--rate429"),
    retryAfterSeconds: num("--retry-after"),
    seed: num("--seed"),
    apiKey: flag(args, "--api-key"),
    streamChunkDelayMs: num("--chunk-delay"),
    maxRecorded: 10_000,
    capabilities: {
      jsonSchema: !args.includes("--no-json-schema"),
      forcedToolChoice: !args.includes("--no-forced-tool-choice"),
      tools: !args.includes("--no-tools"),
      strictSchemaValidation: !args.includes("--no-strict-schema-check"),
    },
  });
  process.stdout.write(
    `${JSON.stringify({ baseUrl: llm.baseUrl, anthropicBaseUrl: llm.anthropicBaseUrl, port: llm.port })}\n`,
  );
  const stop = () => {
    process.stderr.write(`${JSON.stringify({ requests: llm.totalRequests, maxInFlight: llm.maxInFlight })}\n`);
    llm.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`closing the fake model server failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const isMain = (import.meta as any).main === true || process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`fake-llm: ${String(e)}\n`);
    process.exit(1);
  });
}
