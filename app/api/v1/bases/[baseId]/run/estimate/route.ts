import { param, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { estimateRun, runRequestSchema } from "@/lib/engine/run-request";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(async ({ req, params, rt, auth }) => {
  const body = await readBody(req, runRequestSchema);
  return estimateRun(rt.db.prisma, auth.workspaceId, param(params, "baseId"), body, rt.config.credits.cellRun);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
