import { param, route } from "@/lib/http/respond";
import { readOptionalBody } from "@/lib/http/body";
import { estimateRun, runRequestSchema } from "@/lib/engine/run-request";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(async ({ req, params, rt, auth }) => {
  const body = await readOptionalBody(req, runRequestSchema);
  return estimateRun(rt.db.prisma, auth.workspaceId, param(params, "baseId"), body, rt.config.credits.cellRun);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
