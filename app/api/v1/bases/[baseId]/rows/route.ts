import { param, route } from "@/lib/http/respond";
import { booleanParam, intParam } from "@/lib/http/query";
import { streamResponse } from "@/lib/http/stream";
import { openRowsReader } from "@/lib/domain/rows-read";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ req, params, rt, auth }) => {
  const url = new URL(req.url);
  const query = {
    expand: booleanParam(url, "expand"),
    limit: intParam(url, "limit", 1, 10_000),
    cursor: url.searchParams.get("cursor") ?? undefined,
  };
  const reader = await openRowsReader(rt.db.prisma, auth.workspaceId, param(params, "baseId"), query);
  return reader.kind === "page" ? { rows: reader.rows, nextCursor: reader.nextCursor } : streamResponse(reader.chunks);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
