import type { Config } from "../../config.ts";
import { appError } from "../../errors.ts";
import { configuredProviders, DEFAULT_MODEL_SPEC, parseModelSpec, type ProviderName } from "../../domain/model-spec.ts";

export { configuredProviders };
import { trimChar } from "../../text.ts";

// Which provider, model, server and key a model spec means, without the provider packages: the
// boot check and the evaluation settings use it, and the AI SDK loads at the first model call
// (resolve-model.ts). Base URLs and keys are always passed explicitly: the provider packages would
// otherwise read process.env themselves, and only lib/config.ts reads the environment.

export type AiConfig = Config["ai"];

export interface ModelTarget {
  provider: ProviderName;
  modelId: string;
  /** "provider:modelId", normalised. */
  spec: string;
  /** The server the model talks to; with the spec it identifies the model's capabilities. */
  baseUrl: string;
  apiKey: string;
}

const OPENAI_DEFAULT_URL = "https://api.openai.com/v1";
const ANTHROPIC_DEFAULT_URL = "https://api.anthropic.com/v1";
// Local OpenAI-compatible servers (Ollama, llama.cpp, ...) ignore the key, but the client insists on one.
const PLACEHOLDER_KEY = "not-needed";

const isProviderConfigured = (ai: AiConfig, provider: ProviderName) => configuredProviders(ai).includes(provider);

/**
 * What is wrong with the AI configuration as a whole, in one line, or null: checked at start so
 * that a model that cannot work is reported before the first cell fails.
 */
export function aiConfigProblem(config: { ai: AiConfig }): string | null {
  if (configuredProviders(config.ai).length === 0)
    return "No AI provider is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server) or ANTHROPIC_API_KEY; AI cells will end in ai_not_configured.";
  try {
    resolveModelTarget(undefined, config);
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
  return appError(
    "ai_not_configured",
    `Model "${spec}" needs the ${provider} provider, which is not configured. ${how}`,
    {
      provider,
      model: spec,
    },
  );
}

/**
 * Resolves `spec` (default: config.ai.model, then "openai:gpt-5-mini") to its provider's settings.
 * Throws unknown_model for a bad spec and ai_not_configured when its provider has no key or URL.
 */
export function resolveModelTarget(spec: string | undefined, config: { ai: AiConfig }): ModelTarget {
  const { provider, modelId } = parseModelSpec(
    spec?.trim() || config.ai.model || DEFAULT_MODEL_SPEC,
    configuredProviders(config.ai),
  );
  const normalized = `${provider}:${modelId}`;
  if (!isProviderConfigured(config.ai, provider)) throw notConfigured(provider, normalized);
  const baseUrl = trimChar(
    provider === "openai"
      ? (config.ai.openaiBaseUrl ?? OPENAI_DEFAULT_URL)
      : (config.ai.anthropicBaseUrl ?? ANTHROPIC_DEFAULT_URL),
    "/",
    "end",
  );
  const apiKey = (provider === "openai" ? config.ai.openaiApiKey : config.ai.anthropicApiKey) ?? PLACEHOLDER_KEY;
  return { provider, modelId, spec: normalized, baseUrl, apiKey };
}
