import type { z } from "zod";
import type { Config } from "../config.ts";
import type { AllowedTarget, HostLookup } from "../net/index.ts";

// The contract every AI-column tool implements. The engine looks a tool up by name, checks
// isConfigured before offering it to the model, validates the model's arguments with
// inputSchema, and calls execute with a ToolContext built per attempt.
//
// execute returns two things: `documents`, the sources the cell records (shown as
// `[title](url)` links), and `output`, what the model sees. Text that came from outside
// (pages, files, search snippets) is always fenced with fenceUntrusted before it reaches output.

/** The tool names are declared once, with the column model that names them. */
export type { ToolName } from "../domain/column-model.ts";
import type { ToolName } from "../domain/column-model.ts";

export interface ToolDocument {
  url: string;
  title: string;
  excerpt: string;
  /** ISO 8601 time the tool retrieved the source. */
  retrievedAt: string;
}

export interface ToolLimits {
  /** Cap on any one downloaded body, after decompression. */
  maxBytes: number;
  /** Cap on a stored or downloaded file handed to file-analysis. */
  maxFileBytes: number;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Budget for the text one tool call hands to the model (about 4 characters a token). */
  maxTokens: number;
  maxPdfPages: number;
  /** Time allowed for parsing one file (PDF, DOCX, XLSX). */
  extractTimeoutMs: number;
  /** ALLOWED_PRIVATE_HOSTS: the only non-public hosts and ranges a fetch may reach. */
  allowedPrivateHosts: readonly string[];
  allowedTargets?: AllowedTarget[];
  /** Retries of provider APIs (search, Hunter) on 429/5xx and network errors. */
  retry: { attempts: number; baseMs: number; maxWaitMs: number };
}

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  publishedAt?: string;
  /** When the provider returned this hit (cached hits keep their original time). */
  retrievedAt: string;
}

/** Search results cached per provider and normalised query; a DB-backed one lives elsewhere. */
export interface SearchCache {
  get(key: string): Promise<SearchHit[] | undefined>;
  set(key: string, hits: SearchHit[], ttlSeconds: number): Promise<void>;
}

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** MX look-ups. An existing domain without MX records answers [], not an error. */
export interface DnsResolver {
  resolveMx(domain: string): Promise<MxRecord[]>;
}

export interface StoredFileContent {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** Reads an uploaded file; must throw file_not_found for ids outside the workspace. */
export interface FileStore {
  read(fileId: string, workspaceId: string): Promise<StoredFileContent>;
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface ToolContext {
  config: Config;
  limits: ToolLimits;
  /** The column's instructions, used to rank passages of long documents. */
  instructions: string;
  /** The row's input values by column name. */
  inputs: Record<string, string>;
  signal?: AbortSignal;
  cache?: SearchCache;
  dns?: DnsResolver;
  /** Host resolution for the URL guard; the system resolver when absent. */
  lookup?: HostLookup;
  files?: FileStore;
  workspaceId?: string;
  /** fetch for provider APIs (search, Hunter): operator-configured hosts, so not guarded. */
  fetchImpl?: FetchLike;
  now?: () => Date;
}

/** An image for the model; the engine decides whether the model can see images. */
export interface ImageOutput {
  kind: "image";
  mediaType: string;
  /** Base64-encoded bytes. */
  data: string;
  name: string;
  note: string;
}

export interface ToolResult {
  documents: ToolDocument[];
  output: unknown;
}

export type ConfiguredCheck = { ok: true } | { ok: false; message: string };

export interface CellTool<I = unknown> {
  name: ToolName;
  description: string;
  inputSchema: z.ZodType<I>;
  isConfigured(config: Config): ConfiguredCheck;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
}
