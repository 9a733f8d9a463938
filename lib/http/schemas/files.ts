import { z } from "zod";
import { defineEndpoint, pathId } from "../endpoint.ts";
import { baseParams } from "./common.ts";

export const storedFileSchema = z
  .strictObject({
    fileId: z.string().describe("The file's id (file_…)."),
    url: z.string().describe("Its address, /api/v1/files/<fileId>: the value for a file column."),
    name: z.string().max(255).describe("The file name as uploaded."),
    size: z.number().int().min(1).describe("Size in bytes."),
    contentType: z.string().describe("The media type."),
  })
  .describe("A stored file.");

export const uploadFile = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/files",
  scope: "rows:write",
  summary: "Upload a file",
  description:
    "Stores a file for the base's file columns. Empty, encrypted, corrupt or unsupported files are refused now, not when a cell reads them.",
  params: baseParams,
  bodyType: "multipart",
  body: z.object({
    file: z
      .string()
      .meta({ format: "binary" })
      .describe('The file (multipart/form-data field "file"), at most FILE_MAX_BYTES.'),
  }),
  status: 201,
  response: storedFileSchema,
});

export const downloadFile = defineEndpoint({
  method: "GET",
  path: "/api/v1/files/{fileId}",
  scope: "rows:read",
  summary: "Download a file",
  params: z.object({ fileId: pathId("The file's id (file_…).", "file_not_found") }),
  responseContentType: "*/* (the file's own content type)",
  response: z
    .string()
    .meta({ format: "binary" })
    .describe("The file's bytes, as an attachment, with its own content type."),
});
