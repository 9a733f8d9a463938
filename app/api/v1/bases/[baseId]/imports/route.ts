import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { receiveUpload } from "@/lib/http/stream-upload";
import { createImport } from "@/lib/imports/create";
import { listImports } from "@/lib/imports/store";
import * as api from "@/lib/http/schemas/imports";
import { maySpend } from "@/lib/auth/authorize";

export const POST = route(api.createImport, async ({ req, params, query, rt, auth }) =>
  createImport(
    rt,
    auth.workspaceId,
    params.baseId,
    query,
    (target) => receiveUpload(req, target, { maxBytes: rt.config.imports.maxBytes, setting: "IMPORT_MAX_BYTES" }),
    { mayQueue: maySpend(auth), keyId: auth.keyId },
  ),
);

export const GET = route(api.listImports, async ({ params, query, rt, auth }) => ({
  imports: await listImports(rt.db.prisma, auth.workspaceId, params.baseId, query.limit ?? 20),
}));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
