import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { addRows } from "@/lib/domain/rows/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/write-rows";

export const POST = route(api.addRows, async ({ params, query, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    addRows(w, auth.workspaceId, params.baseId, body, { ...rt.config.runs, keyId: auth.keyId }, query.expand),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
