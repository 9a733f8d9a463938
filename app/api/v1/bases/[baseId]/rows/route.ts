import { route } from "@/lib/http/respond";
import { streamResponse } from "@/lib/http/stream";
import { openRowsReader } from "@/lib/domain/rows-read";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/rows";

export const GET = route(api.getRows, async ({ params, query, rt, auth }) => {
  const reader = await openRowsReader(rt.db.prisma, auth.workspaceId, params.baseId, query);
  return reader.kind === "page" ? { rows: reader.rows, nextCursor: reader.nextCursor } : streamResponse(reader.chunks);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
