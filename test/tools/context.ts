import { loadConfig, type Env } from "../../lib/config.ts";
import { toolLimitsFromConfig, type ToolContext, type ToolLimits } from "../../lib/tools/index.ts";

// A ToolContext for tests: config from an env map, fast retries, and loopback allowed (the
// fake servers live on 127.0.0.1). Guard tests set allowedPrivateHosts to [] explicitly.

export function makeContext(
  env: Env = {},
  overrides: Partial<Omit<ToolContext, "limits">> & { limits?: Partial<ToolLimits> } = {},
): ToolContext {
  const config = loadConfig(env);
  const { limits, ...rest } = overrides;
  return {
    config,
    limits: {
      ...toolLimitsFromConfig(config),
      allowedPrivateHosts: ["127.0.0.1", "::1"],
      retry: { attempts: 3, baseMs: 10, maxWaitMs: 2_000 },
      ...limits,
    },
    instructions: "",
    inputs: {},
    ...rest,
  };
}
