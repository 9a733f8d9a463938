import { route } from "@/lib/http/respond";
import { intParam } from "@/lib/http/query";
import { otherMethods } from "@/lib/http/methods";
import { listCredits, MAX_PAGE } from "@/lib/credits/entries";

export const GET = route(async ({ req, rt, auth }) => {
  const url = new URL(req.url);
  const limit = intParam(url, "limit", 1, MAX_PAGE);
  return listCredits(rt.db.prisma, auth.workspaceId, { limit, cursor: url.searchParams.get("cursor") ?? undefined });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
