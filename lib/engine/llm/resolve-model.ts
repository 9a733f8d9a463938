import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { Config } from "../../config.ts";
import { appError } from "../../errors.ts";
import { DEFAULT_MODEL_SPEC, parseModelSpec, PROVIDERS, type ProviderName } from "../../domain/model-spec.ts";
import { trimChar } from "../../text.ts";

// Turns a model spec into an AI SDK model. Shared by the cell engine and the chat assistant.
// Base URLs and keys are always passed explicitly: the provider packages would otherwise read
// process.env themselves, and only lib/config.ts reads the environment.

export type AiConfig = Config["ai"];

export interface ResolvedModel {
  provider: ProviderName;
  modelId: string;
  /** "provider:modelId", normalised. */
  spec: string;
  /** The server the model talks to; with the spec it identifies the model's capabilities. */
  baseUrl: string;
  model: Exclude<LanguageModel, string>;
}

const OPENAI_DEFAULT_URL = "https://api.openai.com/v1";
const ANTHROPIC_DEFAULT_URL = "https://api.anthropic.com/v1";
// Local OpenAI-compatible servers (Ollama, llama.cpp, ...) ignore the key, but the client insists on one.
const PLACEHOLDER_KEY = "not-needed";

/** Whether a provider has enough configuration to be called (a key, or a base URL of a keyless server). */
export function isProviderConfigured(ai: AiConfig, provider: ProviderName): boolean {
  return provider === "openai" ? Boolean(ai.openaiApiKey || ai.openaiBaseUrl) : Boolean(ai.anthropicApiKey || ai.anthropicBaseUrl);
}

export const configuredProviders = (ai: AiConfig): ProviderName[] => PROVIDERS.filter((p) => isProviderConfigured(ai, p));

/**
 * What is wrong with the AI configuration as a whole, in one line, or null: checked at start so
 * that a model that cannot work is reported before the first cell fails.
 */
export function aiConfigProblem(config: { ai: AiConfig }): string | null {
  if (configuredProviders(config.ai).length === 0) return "No AI provider is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server) or ANTHROPIC_API_KEY; AI cells will end in ai_not_configured.";
  try {
    resolveLanguageModel(undefined, config);
    return null;
  } catch (e) {
    return `AI_MODEL cannot work: ${(e as Error).message}`;
  }
}

function notConfigured(provider: ProviderName, spec: string) {
  const how =
    provider === "openai"
      ? "Set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama or vLLM (no key needed)."
      : "Set ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL).";
  return appError("ai_not_configured", `Model "${spec}" needs the ${provider} provider, which is not configured. ${how}`, {
    provider,
    model: spec,
  });
}

// Provider instances are cheap but hold settings; reuse them per (url, key).
const providers = new Map<string, { chat(modelId: string): Exclude<LanguageModel, string> }>();

function provider(kind: ProviderName, baseUrl: string, apiKey: string) {
  const key = `${kind}|${baseUrl}|${apiKey}`;
  let p = providers.get(key);
  if (!p) {
    // OpenAI goes through .chat(): Chat Completions is the protocol every compatible server speaks.
    p = kind === "openai" ? createOpenAI({ baseURL: baseUrl, apiKey }) : createAnthropic({ baseURL: baseUrl, apiKey });
    providers.set(key, p);
  }
  return p;
}

/**
 * Resolves `spec` (default: config.ai.model, then "openai:gpt-5-mini") to a callable model.
 * Throws unknown_model for a bad spec and ai_not_configured when its provider has no key or URL.
 */
export function resolveLanguageModel(spec: string | undefined, config: { ai: AiConfig }): ResolvedModel {
  const { provider: kind, modelId } = parseModelSpec(spec?.trim() || config.ai.model || DEFAULT_MODEL_SPEC, configuredProviders(config.ai));
  const normalized = `${kind}:${modelId}`;
  if (!isProviderConfigured(config.ai, kind)) throw notConfigured(kind, normalized);
  const baseUrl = trimChar(kind === "openai" ? config.ai.openaiBaseUrl ?? OPENAI_DEFAULT_URL : config.ai.anthropicBaseUrl ?? ANTHROPIC_DEFAULT_URL, "/", "end");
  const apiKey = (kind === "openai" ? config.ai.openaiApiKey : config.ai.anthropicApiKey) ?? PLACEHOLDER_KEY;
  return { provider: kind, modelId, spec: normalized, baseUrl, model: provider(kind, baseUrl, apiKey).chat(modelId) };
}
