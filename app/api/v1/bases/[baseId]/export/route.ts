import { route } from "@/lib/http/respond";
import { streamResponse } from "@/lib/http/stream";
import { attachmentDisposition } from "@/lib/http/download";
import { openExport } from "@/lib/domain/export/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/export";

export const GET = route(api.exportRows, async ({ params, query, rt, auth, audit }) => {
  const file = await openExport(rt.db.prisma, auth.workspaceId, params.baseId, query, rt.db.copyOut);
  audit.summary = { format: query.format, ...(query.viewId ? { viewId: query.viewId } : {}) };
  return streamResponse(file.chunks, file.contentType, {
    "content-disposition": attachmentDisposition(file.filename),
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
