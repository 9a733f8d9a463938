import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { runCells } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/run";

export const POST = route(api.runCells, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    runCells(w, auth.workspaceId, params.baseId, body, { ...rt.config.runs, keyId: auth.keyId }),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
