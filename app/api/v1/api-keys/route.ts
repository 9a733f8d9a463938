import { route } from "@/lib/http/respond";
import { createKeyFor, listKeysFor } from "@/lib/auth/scoped-keys";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/api-keys";

export const GET = route(api.listApiKeys, async ({ rt, auth }) => ({
  apiKeys: await listKeysFor(rt.db.prisma, auth),
}));

export const POST = route(api.createApiKey, async ({ body, rt, auth }) =>
  rt.db.prisma.$transaction((tx) => createKeyFor(tx, auth, body)),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
