import { route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { createEndpoint, createEndpointSchema, listEndpoints } from "@/lib/webhooks/endpoints";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ rt, auth }) => ({ webhooks: await listEndpoints(rt.db.prisma, auth.workspaceId) }));

export const POST = route(
  async ({ req, rt, auth }) => createEndpoint(rt, auth.workspaceId, await readBody(req, createEndpointSchema)),
  { status: 201 },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
