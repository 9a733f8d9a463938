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

// Well-known model families, so that a bare id ("gpt-4.1-mini") names its provider.
const FAMILIES: [RegExp, ProviderName][] = [
  [/^(gpt-|chatgpt-|o1|o3|o4)/i, "openai"],
  [/^claude-/i, "anthropic"],
];

/**
 * The one rule for every model spec (AI_MODEL, AI_ASSISTANT_MODEL, a column's columnOptions.model,
 * an evaluation's model and judge): "provider:modelId", or a bare model id whose provider is
 * inferred from its family (gpt-, o1, o3, o4 → openai; claude- → anthropic), else from
 * `configured` (the deployment's configured providers) when exactly one provider is. Throws
 * AppError unknown_model when neither tells.
 */
export function parseModelSpec(spec: string, configured: readonly ProviderName[] = []): ModelSpec {
  const text = typeof spec === "string" ? spec.trim() : "";
  if (!text)
    throw appError("unknown_model", 'The model is empty; name one, e.g. "openai:gpt-4.1-mini".', {
      model: text,
      providers: PROVIDERS,
    });
  const colon = text.indexOf(":");
  const prefix = colon > 0 ? text.slice(0, colon).trim().toLowerCase() : "";
  if (isProvider(prefix)) {
    const modelId = text.slice(colon + 1).trim();
    if (!modelId) throw appError("unknown_model", `Model "${text}" has no model id.`, { model: text });
    return { provider: prefix, modelId };
  }
  const family = FAMILIES.find(([pattern]) => pattern.test(text))?.[1];
  const provider = family ?? (configured.length === 1 ? configured[0] : undefined);
  if (provider) return { provider, modelId: text };
  throw appError(
    "unknown_model",
    `Model "${text}" does not say its provider: write it as provider:model, e.g. "openai:${text}" or "anthropic:${text}" (providers: ${PROVIDERS.join(", ")}).`,
    { model: text, providers: PROVIDERS },
  );
}

/** What says whether a provider can be called: a key, or the base URL of a server that needs none. */
export interface ProviderSettings {
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
}

/** The providers this deployment can call: what a bare model id is resolved against, wherever it is written. */
export function configuredProviders(ai: ProviderSettings): ProviderName[] {
  return PROVIDERS.filter((p) =>
    p === "openai" ? Boolean(ai.openaiApiKey || ai.openaiBaseUrl) : Boolean(ai.anthropicApiKey || ai.anthropicBaseUrl),
  );
}

export const formatModelSpec = (s: ModelSpec) => `${s.provider}:${s.modelId}`;
