import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { baseIdParam, baseParams } from "./common.ts";
import { baseNameSchema } from "../../domain/bases.ts";
import { chatMessageSchema, MAX_CONFIGURE_BODY_BYTES, MAX_MESSAGES } from "../../assistant/messages.ts";

// AI Configure Base (spec §4.6) and the stored conversation of a base.

const configureFields = {
  baseName: baseNameSchema.optional().describe('Name of a new base, 1 to 200 characters; default "Untitled base".'),
  baseId: z.string().trim().min(1).max(64).optional().describe("The base to modify; without it a new base is created."),
};

const conversationSchema = z
  .strictObject({
    baseId: baseIdParam,
    messages: z
      .array(chatMessageSchema)
      .describe("The conversation: the request's messages and the assistant's answer, with tool calls and results."),
  })
  .describe("The base and its conversation.");

export const configureBase = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/ai-configure-base",
  scope: "schema:write",
  spendsCredits: true,
  allBases: true,
  audit: { action: "base.configure", target: "base" },
  summary: "AI Configure Base",
  description:
    "Creates (5 credits) or modifies (2 credits) a base by chat: the assistant answers and changes columns through tool calls. " +
    "With Accept: text/event-stream the answer is the AI SDK's UI message stream (data-base first, data-result or data-error last).",
  body: z
    .object({
      ...configureFields,
      messages: z
        .array(chatMessageSchema)
        .min(1)
        .max(MAX_MESSAGES)
        .describe("The conversation so far, ending with the user's message; or only the new user message."),
    })
    .strict(),
  // The messages have their own error code (400 invalid_messages) and pairing rules: the
  // assistant checks them (parseMessages).
  parseBody: z.object({ ...configureFields, messages: z.unknown().optional().describe("The conversation.") }).strict(),
  maxBodyBytes: MAX_CONFIGURE_BODY_BYTES,
  responseContentType: "application/json, or text/event-stream when asked for by Accept",
  response: conversationSchema,
});

export const getChat = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/chat",
  scope: "rows:read",
  summary: "Get a base's conversation",
  params: baseParams,
  response: conversationSchema,
});
