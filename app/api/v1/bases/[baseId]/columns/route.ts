import { param, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { inTransaction } from "@/lib/db/work";
import { createColumn } from "@/lib/domain/columns";
import { columnInputSchema } from "@/lib/domain/column-input";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(
  async ({ req, params, rt, auth }) => {
    const body = await readBody(req, columnInputSchema);
    return inTransaction(rt, (w) => createColumn(w, auth.workspaceId, param(params, "baseId"), body));
  },
  { status: 201 },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
