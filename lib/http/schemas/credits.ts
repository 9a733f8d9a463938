import { z } from "zod";
import { defineEndpoint, intQuery } from "../endpoint.ts";
import { cursorQuery, isoDate } from "./common.ts";
import { MAX_PAGE } from "../../credits/entries.ts";

export const creditsPageSchema = z.strictObject({
  balance: z.number().nullable().describe("The workspace's credits; null means unlimited."),
  entries: z
    .array(
      z
        .strictObject({
          id: z.string().describe("The entry's id."),
          amount: z.number().describe("Negative for a charge, positive for a top-up or refund."),
          reason: z.string().describe("Why, e.g. cell_run, configure_create, configure_modify."),
          baseId: z.string().nullable().describe("The base charged for, if any."),
          rowId: z.string().nullable().describe("The row charged for, if any."),
          columnId: z.string().nullable().describe("The column charged for, if any."),
          createdAt: isoDate("When"),
        })
        .describe("One ledger entry."),
    )
    .describe("Ledger entries, newest first."),
  nextCursor: z.string().nullable().describe("The cursor of the next page; null on the last page."),
});

export const listCredits = defineEndpoint({
  method: "GET",
  path: "/api/v1/credits",
  scope: "rows:read",
  allBases: true,
  summary: "Credits",
  description: "The balance and the ledger, newest first, paged.",
  query: z.object({
    limit: intQuery("limit", 1, MAX_PAGE, `Page size, 1 to ${MAX_PAGE}; default 50.`),
    cursor: cursorQuery("entries"),
  }),
  response: creditsPageSchema,
});
