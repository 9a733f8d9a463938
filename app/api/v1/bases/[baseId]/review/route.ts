import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { reviewCells, reviewHistory } from "@/lib/domain/review/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/review";

export const POST = route(api.reviewCells, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => reviewCells(w, auth, params.baseId, body, { ...rt.config.runs, keyId: auth.keyId })),
);

export const GET = route(api.reviewHistory, async ({ params, query, rt, auth }) =>
  reviewHistory(rt.db.prisma, auth.workspaceId, params.baseId, query.limit ?? 100),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
