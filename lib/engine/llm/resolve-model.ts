import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { ProviderName } from "../../domain/model-spec.ts";
import { resolveModelTarget, type AiConfig } from "./model-target.ts";

// Turns a model spec into an AI SDK model. Shared by the cell engine and the chat assistant.

export interface ResolvedModel {
  provider: ProviderName;
  modelId: string;
  /** "provider:modelId", normalised. */
  spec: string;
  /** The server the model talks to; with the spec it identifies the model's capabilities. */
  baseUrl: string;
  model: Exclude<LanguageModel, string>;
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
  const { apiKey, ...target } = resolveModelTarget(spec, config);
  return { ...target, model: provider(target.provider, target.baseUrl, apiKey).chat(target.modelId) };
}
