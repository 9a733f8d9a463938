import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { cancelRun } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/runs";

export const POST = route(api.cancelRun, async ({ params, rt, auth }) =>
  inTransaction(rt, (w) => cancelRun(w, auth.workspaceId, params.runId)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
