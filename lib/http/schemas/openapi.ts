import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";

// The API's own description, generated from this registry (lib/http/openapi.ts).

export const getOpenApi = defineEndpoint({
  method: "GET",
  path: "/api/v1/openapi.json",
  summary: "The OpenAPI document",
  description:
    "This API as an OpenAPI 3.1 document, generated from the endpoint schemas. No key needed; /docs renders it.",
  public: true,
  response: z
    .looseObject({
      openapi: z.literal("3.1.0").describe("The OpenAPI version."),
      info: z.record(z.string(), z.unknown()).describe("Title, version and description of the API."),
      paths: z
        .record(z.string().describe("A path."), z.record(z.string(), z.unknown()).describe("Its operations by method."))
        .describe("Every endpoint."),
      components: z.record(z.string(), z.unknown()).describe("Shared schemas and the security schemes."),
    })
    .describe("An OpenAPI 3.1 document."),
});
