import { z } from "zod";
import { route } from "@/lib/http/respond";
import { readOptionalBody } from "@/lib/http/body";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { otherMethods } from "@/lib/http/methods";

const createKeySchema = z.object({ name: z.string().trim().min(1).max(100).default("API key") }).strict();

export const GET = route(async ({ rt, auth }) => ({ apiKeys: await listApiKeys(rt.db.prisma, auth.workspaceId) }));

export const POST = route(
  async ({ req, rt, auth }) => {
    const { name } = await readOptionalBody(req, createKeySchema);
    return createApiKey(rt.db.prisma, auth.workspaceId, name);
  },
  { status: 201 },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
