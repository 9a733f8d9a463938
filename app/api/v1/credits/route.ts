import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { listCredits } from "@/lib/credits/entries";
import * as api from "@/lib/http/schemas/credits";

export const GET = route(api.listCredits, async ({ query, rt, auth }) =>
  listCredits(rt.db.prisma, auth.workspaceId, query),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
