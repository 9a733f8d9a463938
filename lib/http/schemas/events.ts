import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { baseParams } from "./common.ts";

export const baseEvents = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/events",
  scope: "rows:read",
  summary: "Live changes of a base",
  description:
    "Server-Sent Events: cell.updated, rows.changed, structure.changed, row.sheet.processed, run.updated, import.updated and find.updated, each with a JSON data line; " +
    "a ready event carries the current position. Reconnects resume after Last-Event-ID.",
  params: baseParams,
  query: z.object({
    lastEventId: z
      .string()
      .max(200)
      .optional()
      .describe("Resume after this event id (for clients that cannot send the Last-Event-ID header)."),
  }),
  responseContentType: "text/event-stream",
  response: z.string().describe("An event stream (text/event-stream) of `event: <type>` and `data: <JSON>` lines."),
});
