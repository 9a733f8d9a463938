import { route } from "@/lib/http/respond";
import { streamResponse } from "@/lib/http/stream";
import { readRows } from "@/lib/domain/rows/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/rows";

export const GET = route(api.getRows, async ({ params, query, rt, auth }) => {
  const reader = await readRows(rt.db.prisma, auth.workspaceId, params.baseId, query);
  if (reader.kind === "stream") return streamResponse(reader.chunks);
  const { kind: _, ...page } = reader;
  return page;
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
