import { param, route } from "@/lib/http/respond";
import { readJson } from "@/lib/http/body";
import { inTransaction } from "@/lib/db/work";
import { updateRows } from "@/lib/domain/rows-write";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(async ({ req, params, rt, auth }) => {
  const body = await readJson(req, rt.config.maxBodyBytes);
  return inTransaction(rt, (w) => updateRows(w, auth.workspaceId, param(params, "baseId"), body));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
