import { appError } from "../errors.ts";

// A model spec names a provider protocol and a model: "openai:gpt-4.1-mini",
// "anthropic:claude-sonnet-4-5". The provider is the wire protocol, not the vendor: "openai" is
// any OpenAI-compatible Chat Completions server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
// OpenRouter, ...), so its model ids are free-form and passed through untouched, e.g.
// "openai:llama3.1:8b" for Ollama. Only the first ":" separates provider from model id.

export const PROVIDERS = ["openai", "anthropic"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ModelSpec {
  provider: ProviderName;
  modelId: string;
}

/** Used when neither the column nor AI_MODEL names a model. */
export const DEFAULT_MODEL_SPEC = "openai:gpt-5-mini";

const isProvider = (p: string): p is ProviderName => (PROVIDERS as readonly string[]).includes(p);

/** Parses "provider:modelId"; throws AppError unknown_model for an unknown provider or a malformed spec. */
export function parseModelSpec(spec: string): ModelSpec {
  const text = typeof spec === "string" ? spec.trim() : "";
  const colon = text.indexOf(":");
  if (colon <= 0 || colon === text.length - 1) {
    throw appError("unknown_model", `Model "${text}" is not of the form provider:model, e.g. "openai:gpt-4.1-mini" or "anthropic:claude-sonnet-4-5".`, {
      model: text,
      providers: PROVIDERS,
    });
  }
  const provider = text.slice(0, colon).trim().toLowerCase();
  const modelId = text.slice(colon + 1).trim();
  if (!isProvider(provider)) {
    throw appError("unknown_model", `Unknown model provider "${provider}"; use one of: ${PROVIDERS.join(", ")}.`, {
      model: text,
      providers: PROVIDERS,
    });
  }
  if (!modelId) throw appError("unknown_model", `Model "${text}" has no model id.`, { model: text });
  return { provider, modelId };
}

export const formatModelSpec = (s: ModelSpec) => `${s.provider}:${s.modelId}`;
