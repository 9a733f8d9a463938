import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { resumeRun } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/runs";

export const POST = route(api.resumeRun, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => resumeRun(w, auth.workspaceId, params.runId, body ?? {})),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
