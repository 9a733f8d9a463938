import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createColumn } from "@/lib/domain/columns/index";
import { otherMethods } from "@/lib/http/methods";
import { configuredProviders } from "@/lib/domain/model-spec";
import * as api from "@/lib/http/schemas/columns";

export const POST = route(api.createColumn, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => createColumn(w, auth.workspaceId, params.baseId, body, configuredProviders(rt.config.ai))),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
