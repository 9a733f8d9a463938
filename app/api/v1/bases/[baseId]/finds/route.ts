import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createFind, listFinds } from "@/lib/domain/finds/index";
import { findPolicy } from "@/lib/engine/find/policy";
import { spendingPolicy } from "@/lib/auth/authorize";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/finds";

export const POST = route(api.createFind, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    createFind(w, auth.workspaceId, params.baseId, body, findPolicy(rt.config, spendingPolicy(rt.config.runs, auth))),
  ),
);

export const GET = route(api.listFinds, async ({ params, query, rt, auth }) => ({
  finds: await listFinds(rt.db.prisma, auth.workspaceId, params.baseId, query.limit ?? 20),
}));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
