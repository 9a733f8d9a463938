import type { Config } from "../config.ts";
import { apiClient, type ApiClient } from "./api-client.ts";
import { stringOption, UsageError, type CommandInput } from "./command.ts";

/** The options of every client command: the server, its key, and answers as JSON. */
export const REMOTE_OPTIONS = {
  url: { type: "string" },
  "api-key": { type: "string" },
  json: { type: "boolean" },
} as const;

/** The API of the running server a client command talks to: --url and --api-key, else the environment's. */
export function remoteApi(config: Config, input: CommandInput): ApiClient {
  const apiKey = input.options["api-key"] === undefined ? config.remote.apiKey : stringOption(input, "api-key");
  if (!apiKey) throw new UsageError("An API key is needed: pass --api-key <key> or set CELLWRIGHT_API_KEY.");
  return apiClient({ url: input.options.url === undefined ? config.remote.url : stringOption(input, "url"), apiKey });
}
