import type { Config } from "../config.ts";
import type { EvaluationPolicy } from "../domain/evaluations/index.ts";
import { configuredProviders, resolveModelTarget } from "./llm/model-target.ts";

/** What evaluations start with, from the deployment's configuration: run costs, the default model, and which models can be called. */
export const evaluationPolicy = (config: Config): EvaluationPolicy => ({
  ...config.runs,
  defaultModel: config.ai.model,
  checkModel: (spec) => void resolveModelTarget(spec, config),
  providers: configuredProviders(config.ai),
});
