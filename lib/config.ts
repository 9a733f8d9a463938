import ipaddr from "ipaddr.js";
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
  PUBLIC_URL: optionalString,
  ALLOWED_HOSTS: optionalString,
  API_RATE_LIMIT: z.coerce.number().nonnegative().default(50),
  API_RATE_BURST: int(200),

  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString,
  AI_MODEL: optionalString,
  AI_ASSISTANT_MODEL: optionalString,
  AI_CONCURRENCY: int(8),
  COLUMN_INDEX_MIN_ROWS: int(20_000),
  GRID_MAX_SCROLL_PX: z.coerce.number().int().min(100_000).default(15_000_000),
  WORKER_CONCURRENCY: z.coerce.number().int().nonnegative().optional(),
  AI_RPM: int(0),
  AI_MAX_ATTEMPTS: int(4),
  AI_TIMEOUT_MS: int(60_000),
  AI_MAX_STEPS: int(6),
  AI_MAX_CALLS_PER_CELL: int(12),
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
  ALLOWED_PRIVATE_HOSTS: optionalString,
  // Removed: refused at start-up with a pointer to ALLOWED_PRIVATE_HOSTS (see loadConfig).
  ALLOW_PRIVATE_NETWORK: optionalString,
  FILE_MAX_BYTES: int(25 * 1024 * 1024),
  FILE_MAX_PAGES: int(200),
  IMPORT_MAX_BYTES: int(200 * 1024 * 1024),
  FILE_EXTRACT_TIMEOUT_MS: int(20_000),

  CREDITS_COST_CONFIGURE_CREATE: int(5),
  CREDITS_COST_CONFIGURE_MODIFY: int(2),
  CREDITS_COST_CELL_RUN: int(1),
  CREDITS_COST_MATERIALITY: int(1),
  CREDITS_COST_FIND_PLAN: int(1),
  CREDITS_COST_FIND_SEARCH: int(1),
  CREDITS_COST_FIND_SCRAPE: int(1),
  CREDITS_COST_FIND_VERIFY: int(1),
  DEFAULT_RUN_MAX_CREDITS: z.coerce.number().int().positive().optional(),

  RETENTION_WEBHOOK_DAYS: int(30),
  RETENTION_CELL_RUN_DAYS: int(90),
  HISTORY_RETENTION_DAYS: int(90),
  RETENTION_INTERVAL_MINUTES: int(60),

  WEBHOOK_RETRY_SCHEDULE: optionalString,
  WEBHOOK_TIMEOUT_MS: int(15_000),
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: int(4),

  CELLWRIGHT_URL: optionalString,
  CELLWRIGHT_API_KEY: optionalString,

  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_DEFAULT_ROLE: z.enum(["owner", "admin", "editor", "viewer"]).default("viewer"),
  OIDC_WORKSPACE: optionalString,

  SECRETS_KEY: optionalString,
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
    /** The origin browsers reach the server at (a reverse proxy's), when it is not the server's own address. */
    publicUrl: parsePublicUrl(e.PUBLIC_URL),
    /** Host names a request may name besides the defaults (lib/http/allowed-hosts.ts): ALLOWED_HOSTS. */
    allowedHosts: parseAllowedHosts(e.ALLOWED_HOSTS),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    seedApiKey: e.API_KEY,
    initialCredits: e.INITIAL_CREDITS,
    uiAutoLogin: e.UI_AUTO_LOGIN,
    // Embedded mode always works in-process; with PostgreSQL the web process works too unless told not to.
    workerInProcess: e.WORKER_IN_PROCESS !== "false" || !e.DATABASE_URL,
    maxBodyBytes: 20 * 1024 * 1024,
    /** A sheet gets its typed columns' indexes once it holds this many rows (0: every sheet; db/sheet-indexes.ts). */
    columnIndexMinRows: e.COLUMN_INDEX_MIN_ROWS,
    /** The tallest grid body the web app lays out, in px; past it the scroll range is scaled. */
    gridMaxScrollPx: e.GRID_MAX_SCROLL_PX,
    /** Requests per second per API key (0: no limit), with bursts up to `burst`. */
    apiRateLimit: { perSecond: e.API_RATE_LIMIT, burst: Math.max(1, e.API_RATE_BURST) },
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
      /** Model calls one cell generation may cause, across attempts, tool steps and repairs. */
      maxCallsPerCell: Math.max(1, e.AI_MAX_CALLS_PER_CELL),
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
      allowedPrivateHosts: parseHostList(e.ALLOWED_PRIVATE_HOSTS),
    },
    files: { maxBytes: e.FILE_MAX_BYTES, maxPages: e.FILE_MAX_PAGES, extractTimeoutMs: e.FILE_EXTRACT_TIMEOUT_MS },
    /** Imports: the largest file taken in (rows and columns are capped in lib/imports/limits.ts). */
    imports: { maxBytes: Math.max(1, e.IMPORT_MAX_BYTES) },
    credits: {
      configureCreate: e.CREDITS_COST_CONFIGURE_CREATE,
      configureModify: e.CREDITS_COST_CONFIGURE_MODIFY,
      /** Credits one cell generation costs, whatever its attempts; one change judged by the model (materiality "model"). */
      cellCost: e.CREDITS_COST_CELL_RUN,
      materialityCost: e.CREDITS_COST_MATERIALITY,
      /** Find rows, per step: planning the searches, a page of results read for candidates, a page of a candidate read, its verification. */
      // biome-ignore format: four settings of one kind read best on one line
      find: { plan: e.CREDITS_COST_FIND_PLAN, search: e.CREDITS_COST_FIND_SEARCH, scrape: e.CREDITS_COST_FIND_SCRAPE, verify: e.CREDITS_COST_FIND_VERIFY },
    },
    /** The Cellwright the CLI's client commands talk to: CELLWRIGHT_URL, else the one this environment starts. */
    remote: { url: e.CELLWRIGHT_URL ?? `http://127.0.0.1:${e.PORT}`, apiKey: e.CELLWRIGHT_API_KEY },
    /** What every run starts with: the cost of a cell, and the cap a run gets when none is asked for. */
    runs: { cellCost: e.CREDITS_COST_CELL_RUN, defaultMaxCredits: e.DEFAULT_RUN_MAX_CREDITS ?? null },
    /** How long records that only grow are kept (0: forever), and how often they are pruned (0: never). */
    retention: {
      webhookDays: e.RETENTION_WEBHOOK_DAYS,
      cellAttemptDays: e.RETENTION_CELL_RUN_DAYS,
      historyDays: e.HISTORY_RETENTION_DAYS,
      intervalMs: e.RETENTION_INTERVAL_MINUTES * 60_000,
    },
    /**
     * OpenID Connect single sign-on (docs/sso.md): on when the issuer, client id and secret are all
     * set. New people join `workspace` (a name; default the oldest workspace) as `defaultRole`.
     */
    oidc: parseOidc(e),
    /**
     * The key of workspace secrets (lib/secrets/): 32 bytes. Unset, the embedded database keeps a
     * generated one in DATA_DIR; a shared PostgreSQL refuses to start (the worker too).
     */
    secretsKey: e.SECRETS_KEY === undefined ? undefined : parseSecretsKey(e.SECRETS_KEY, "SECRETS_KEY"),
    webhooks: {
      retryScheduleMs: parseSchedule(e.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrencyPerEndpoint: Math.max(1, e.WEBHOOK_CONCURRENCY_PER_ENDPOINT),
    },
  };
}

/**
 * A secrets key as text: 32 bytes written as 64 hex characters or as base64. Anything else is
 * refused rather than stretched, so a typo never becomes a weak key. `source` names it in the error.
 */
export function parseSecretsKey(raw: string, source: string): Buffer {
  const text = raw.trim();
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text) || /^[A-Za-z0-9_-]{43}$/.test(text)) {
    const key = Buffer.from(text, /[-_]/.test(text) ? "base64url" : "base64");
    if (key.length === 32) return key;
  }
  throw new Error(
    `${source} must be 32 bytes as 64 hex characters or as base64 (make one with: openssl rand -base64 32)`,
  );
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

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?$/i;

/** ALLOWED_PRIVATE_HOSTS: comma-separated host names, IP addresses and CIDR ranges. */
function parseHostList(raw: string | undefined): string[] {
  const entries = (raw ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const ok = entry.includes("/") ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry) || HOST_NAME.test(entry);
    if (!ok) throw new Error(`ALLOWED_PRIVATE_HOSTS: "${entry}" is not a host name, an IP address or a CIDR range`);
  }
  return entries;
}

function parsePublicUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = URL.parse(raw);
  if (!url || !/^https?:$/.test(url.protocol) || !url.hostname)
    throw new Error(`PUBLIC_URL: "${raw}" is not an http:// or https:// URL`);
  return url.origin;
}

/** ALLOWED_HOSTS: comma-separated host names and IP addresses, without ports. */
function parseAllowedHosts(raw: string | undefined): string[] {
  const entries = (raw ?? "")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    if (!ipaddr.isValid(entry.replace(/^\[(.*)\]$/, "$1")) && !HOST_NAME.test(entry))
      throw new Error(`ALLOWED_HOSTS: "${entry}" is not a host name or an IP address (give no port)`);
  }
  return entries;
}

function parseOidc(e: z.infer<typeof schema>) {
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return null;
  const url = URL.parse(e.OIDC_ISSUER);
  if (!url || !/^https?:$/.test(url.protocol)) throw new Error(`OIDC_ISSUER: "${e.OIDC_ISSUER}" is not an http(s) URL`);
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    defaultRole: e.OIDC_DEFAULT_ROLE,
    workspace: e.OIDC_WORKSPACE ?? null,
  };
}

const REMOVED_PRIVATE_NETWORK =
  "ALLOW_PRIVATE_NETWORK was removed: list the private hosts or ranges tools and webhooks may reach in ALLOWED_PRIVATE_HOSTS instead (e.g. ALLOWED_PRIVATE_HOSTS=127.0.0.1,10.0.0.0/8)";

/** Builds a validated Config from an environment map; throws with every problem listed. */
export function loadConfig(env: Env = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  if (parsed.data.ALLOW_PRIVATE_NETWORK && !["false", "0"].includes(parsed.data.ALLOW_PRIVATE_NETWORK))
    throw new Error(REMOVED_PRIVATE_NETWORK);
  return buildConfig(parsed.data);
}
