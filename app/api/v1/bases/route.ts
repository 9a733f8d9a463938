import { route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { inTransaction } from "@/lib/db/work";
import { createBase, createBaseSchema, listBases } from "@/lib/domain/bases";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ rt, auth }) => ({ bases: await listBases(rt.db.prisma, auth.workspaceId) }));

export const POST = route(
  async ({ req, rt, auth }) => {
    const body = await readBody(req, createBaseSchema);
    return inTransaction(rt, (w) => createBase(w, auth.workspaceId, body));
  },
  { status: 201 },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
