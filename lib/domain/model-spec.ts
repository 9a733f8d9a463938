import { appError } from "../errors.ts";

export const MODEL_PROVIDERS = ["openai", "anthropic"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelSpec {
  provider: ModelProvider;
  modelId: string;
}

// Model ids are free-form because OpenAI-compatible servers (Ollama, vLLM, llama.cpp, LM Studio,
// OpenRouter) name their models freely; the provider prefix and the id's shape are checked.
const MODEL_ID = /^[A-Za-z0-9][\w.:/@+-]{0,199}$/;

export function parseModelSpec(spec: unknown): ModelSpec {
  if (typeof spec !== "string") throw appError("unknown_model", 'A model is written "provider:model", e.g. "openai:gpt-4.1-mini".');
  const i = spec.indexOf(":");
  const provider = i > 0 ? spec.slice(0, i) : "";
  const modelId = i > 0 ? spec.slice(i + 1) : "";
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider)) {
    throw appError("unknown_model", `Unknown model provider in "${spec}". Use one of: ${MODEL_PROVIDERS.join(", ")} (e.g. "openai:gpt-4.1-mini").`);
  }
  if (!MODEL_ID.test(modelId)) throw appError("unknown_model", `"${spec}" does not name a model.`);
  return { provider: provider as ModelProvider, modelId };
}

export const validateModelSpec = (spec: unknown): void => void parseModelSpec(spec);
