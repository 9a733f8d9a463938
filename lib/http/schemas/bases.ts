import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { baseIdParam, baseParams, baseStructureShape, isoDate } from "./common.ts";
import { createBaseSchema, updateBaseSchema } from "../../domain/bases.ts";

// Bases: create, list, read, rename or re-set, delete; and Get Base Structure (spec §4.3).

export const baseSummarySchema = z
  .strictObject({
    baseId: baseIdParam,
    name: z.string().describe("The base's name."),
    rowCount: z.number().int().min(0).describe("How many rows the base has."),
    columnCount: z.number().int().min(0).describe("How many columns the base has."),
    settings: z
      .object({
        lowConfidenceThreshold: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe("AI values below this confidence are flagged."),
      })
      .catchall(z.unknown())
      .describe("The base's settings."),
    createdAt: isoDate("When the base was created"),
    updatedAt: isoDate("When the base last changed"),
  })
  .describe("A base with its counts.");

export const baseStructureSchema = z.strictObject(baseStructureShape).describe("The base's sheet and columns.");

export const listBases = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases",
  scope: "rows:read",
  summary: "List bases",
  description: "The workspace's bases, newest first.",
  response: z.strictObject({ bases: z.array(baseSummarySchema).describe("The bases, newest first.") }),
});

export const createBase = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases",
  scope: "schema:write",
  allBases: true,
  audit: { action: "base.create", target: "base" },
  summary: "Create a base",
  description: "Creates a base with its sheet and columns; answers with its id and structure.",
  body: createBaseSchema.describe("The new base."),
  status: 201,
  response: z.strictObject({ baseId: baseIdParam, ...baseStructureShape }).describe("The new base's id and structure."),
});

export const getBase = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}",
  scope: "rows:read",
  summary: "Get a base",
  description: "One base's name, settings and counts.",
  params: baseParams,
  response: baseSummarySchema,
});

export const updateBase = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/bases/{baseId}",
  scope: "schema:write",
  audit: { action: "base.update", target: "base", fields: ["name", "settings"] },
  summary: "Rename a base or change its settings",
  params: baseParams,
  body: updateBaseSchema.describe("The fields to change."),
  response: baseSummarySchema,
});

export const deleteBase = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/bases/{baseId}",
  scope: "schema:write",
  audit: { action: "base.delete", target: "base", fields: ["name"] },
  summary: "Delete a base",
  description: "Deletes the base and everything in it (columns, rows, cells, chat, files).",
  params: baseParams,
  response: z.strictObject({ baseId: baseIdParam, deleted: z.literal(true).describe("Always true.") }),
});

export const getBaseStructure = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/base-structure",
  scope: "rows:read",
  summary: "Get Base Structure",
  description: "The base's sheet, its columns in order and its primary column.",
  params: baseParams,
  response: baseStructureSchema,
});

export type BaseSummary = z.infer<typeof baseSummarySchema>;
export type BaseStructure = z.infer<typeof baseStructureSchema>;
