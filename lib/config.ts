import { z } from "zod";

// The only module that reads process.env. Everything else receives a Config.
const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

const schema = z.object({
  PORT: int(3000),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalString,
  API_KEY: optionalString,
  INITIAL_CREDITS: z.coerce.number().int().nonnegative().optional(),
  UI_AUTO_LOGIN: bool,
  WORKER_IN_PROCESS: z.enum(["true", "false"]).optional(),
  BENCH_FLOOR: bool,
  TRUST_PROXY: bool,

  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString,
  AI_MODEL: optionalString,
  AI_ASSISTANT_MODEL: optionalString,
  AI_CONCURRENCY: int(8),
  WORKER_CONCURRENCY: z.coerce.number().int().nonnegative().optional(),
  AI_RPM: int(0),
  AI_MAX_ATTEMPTS: int(4),
  AI_TIMEOUT_MS: int(60_000),
  AI_MAX_STEPS: int(6),
  AI_MAX_OUTPUT_TOKENS: int(2_000),
  AI_RETRY_BASE_MS: int(1_000),
  AI_LEASE_MS: int(30_000),

  SEARCH_PROVIDER: z.enum(["searxng", "brave", "tavily", "exa", "openai"]).optional(),
  SEARCH_BASE_URL: optionalString,
  SEARCH_API_KEY: optionalString,
  SEARCH_MAX_RESULTS: int(5),
  SEARCH_OPENAI_MODEL: z.string().default("gpt-4o-mini-search-preview"),
  SEARCH_CACHE_TTL_SECONDS: int(86_400),
  HUNTER_API_KEY: optionalString,
  HUNTER_BASE_URL: optionalString,

  FETCH_MAX_BYTES: int(5 * 1024 * 1024),
  FETCH_TIMEOUT_MS: int(15_000),
  FETCH_CONNECT_TIMEOUT_MS: int(5_000),
  FETCH_MAX_TOKENS: int(8_000),
  ALLOW_PRIVATE_NETWORK: bool,
  FILE_MAX_BYTES: int(25 * 1024 * 1024),
  FILE_MAX_PAGES: int(200),
  FILE_EXTRACT_TIMEOUT_MS: int(20_000),

  CREDITS_COST_CONFIGURE_CREATE: int(5),
  CREDITS_COST_CONFIGURE_MODIFY: int(2),
  CREDITS_COST_CELL_RUN: int(1),
  DEFAULT_RUN_MAX_CREDITS: z.coerce.number().int().positive().optional(),

  WEBHOOK_RETRY_SCHEDULE: optionalString,
  WEBHOOK_TIMEOUT_MS: int(15_000),
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: int(4),

  CELLWRIGHT_URL: z.string().default("http://localhost:3000"),
  CELLWRIGHT_API_KEY: optionalString,
});

export type Env = Record<string, string | undefined>;

export type Config = ReturnType<typeof buildConfig>;

function buildConfig(e: z.infer<typeof schema>) {
  return {
    port: e.PORT,
    host: e.HOST,
    /** Serves /api/bench-floor, the constant answer bench:rows measures against. */
    benchFloor: e.BENCH_FLOOR,
    /** X-Forwarded-Proto and X-Forwarded-Host are believed only behind a trusted reverse proxy. */
    trustProxy: e.TRUST_PROXY,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    seedApiKey: e.API_KEY,
    initialCredits: e.INITIAL_CREDITS,
    uiAutoLogin: e.UI_AUTO_LOGIN,
    // Embedded mode always works in-process; with PostgreSQL the web process works too unless told not to.
    workerInProcess: e.WORKER_IN_PROCESS !== "false" || !e.DATABASE_URL,
    maxBodyBytes: 20 * 1024 * 1024,
    ai: {
      openaiApiKey: e.OPENAI_API_KEY,
      openaiBaseUrl: e.OPENAI_BASE_URL,
      anthropicApiKey: e.ANTHROPIC_API_KEY,
      anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
      model: e.AI_MODEL,
      assistantModel: e.AI_ASSISTANT_MODEL ?? e.AI_MODEL,
      // With PostgreSQL and the queue engine, AI_CONCURRENCY caps cells running across every
      // worker, and WORKER_CONCURRENCY is what one process runs at most (default: the same).
      concurrency: Math.max(1, e.AI_CONCURRENCY),
      workerConcurrency: Math.max(1, e.WORKER_CONCURRENCY || e.AI_CONCURRENCY),
      rpm: e.AI_RPM,
      maxAttempts: Math.max(1, e.AI_MAX_ATTEMPTS),
      timeoutMs: e.AI_TIMEOUT_MS,
      maxSteps: Math.max(1, e.AI_MAX_STEPS),
      maxOutputTokens: e.AI_MAX_OUTPUT_TOKENS,
      retryBaseMs: e.AI_RETRY_BASE_MS,
      leaseMs: Math.max(1_000, e.AI_LEASE_MS),
    },
    search: {
      provider: e.SEARCH_PROVIDER,
      baseUrl: e.SEARCH_BASE_URL,
      apiKey: e.SEARCH_API_KEY,
      maxResults: Math.max(1, e.SEARCH_MAX_RESULTS),
      openaiModel: e.SEARCH_OPENAI_MODEL,
      cacheTtlSeconds: e.SEARCH_CACHE_TTL_SECONDS,
    },
    hunter: { apiKey: e.HUNTER_API_KEY, baseUrl: e.HUNTER_BASE_URL ?? "https://api.hunter.io" },
    fetch: {
      maxBytes: e.FETCH_MAX_BYTES,
      timeoutMs: e.FETCH_TIMEOUT_MS,
      connectTimeoutMs: e.FETCH_CONNECT_TIMEOUT_MS,
      maxTokens: e.FETCH_MAX_TOKENS,
      allowPrivateNetwork: e.ALLOW_PRIVATE_NETWORK,
    },
    files: { maxBytes: e.FILE_MAX_BYTES, maxPages: e.FILE_MAX_PAGES, extractTimeoutMs: e.FILE_EXTRACT_TIMEOUT_MS },
    credits: {
      configureCreate: e.CREDITS_COST_CONFIGURE_CREATE,
      configureModify: e.CREDITS_COST_CONFIGURE_MODIFY,
      cellRun: e.CREDITS_COST_CELL_RUN,
    },
    // `npm run cli -- mcp`: the running Cellwright a stdio MCP client is forwarded to.
    mcpBridge: { url: e.CELLWRIGHT_URL, apiKey: e.CELLWRIGHT_API_KEY },
    /** What every run starts with: the cost of a cell, and the cap a run gets when none is asked for. */
    runs: { cellCost: e.CREDITS_COST_CELL_RUN, defaultMaxCredits: e.DEFAULT_RUN_MAX_CREDITS ?? null },
    webhooks: {
      retryScheduleMs: parseSchedule(e.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrencyPerEndpoint: Math.max(1, e.WEBHOOK_CONCURRENCY_PER_ENDPOINT),
    },
  };
}

const DEFAULT_WEBHOOK_SCHEDULE_S = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

function parseSchedule(raw: string | undefined): number[] {
  if (!raw) return DEFAULT_WEBHOOK_SCHEDULE_S.map((s) => s * 1000);
  const parts = raw.split(",").map((p) => Number(p.trim()));
  if (parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new Error("WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of milliseconds");
  }
  return parts;
}

/** Builds a validated Config from an environment map; throws with every problem listed. */
export function loadConfig(env: Env = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return buildConfig(parsed.data);
}
