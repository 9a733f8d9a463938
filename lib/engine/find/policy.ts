import type { Config } from "../../config.ts";
import type { FindPolicy } from "../../domain/finds/index.ts";
import type { RunPolicy } from "../../domain/runs/index.ts";
import { webSearchTool } from "../../tools/web-search.ts";
import { aiConfigProblem, configuredProviders } from "../llm/model-target.ts";

/** What a find starts with: the caller's spending policy, and whether this deployment can find at all. */
export function findPolicy(config: Config, spending: RunPolicy): FindPolicy {
  const ai = aiConfigProblem(config);
  const search = webSearchTool.isConfigured(config);
  return {
    ...spending,
    providers: configuredProviders(config.ai),
    problem: ai
      ? { code: "ai_not_configured", message: `Finding rows needs a model: ${ai}` }
      : search.ok
        ? null
        : { code: "search_not_configured", message: `Finding rows needs web search: ${search.message}` },
  };
}
