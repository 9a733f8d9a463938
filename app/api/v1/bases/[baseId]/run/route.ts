import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { runCells } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/run";
import { spendingPolicy } from "@/lib/auth/authorize";

export const POST = route(api.runCells, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => runCells(w, auth.workspaceId, params.baseId, body, spendingPolicy(rt.config.runs, auth))),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
