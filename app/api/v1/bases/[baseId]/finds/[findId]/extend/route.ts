import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { extendFind } from "@/lib/domain/finds/index";
import { findPolicy } from "@/lib/engine/find/policy";
import { spendingPolicy } from "@/lib/auth/authorize";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/finds";

export const POST = route(api.extendFind, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    extendFind(
      w,
      auth.workspaceId,
      params.baseId,
      params.findId,
      body,
      findPolicy(rt.config, spendingPolicy(rt.config.runs, auth)),
    ),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
