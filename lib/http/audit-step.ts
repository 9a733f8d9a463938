import { draftEntry, recordAuditAfter } from "../audit/index.ts";
import type { Endpoint } from "./endpoint.ts";
import { clientIpOf } from "./client-ip.ts";
import type { AuditNote } from "../audit/index.ts";
import type { Principal } from "../auth/principal.ts";
import type { Runtime } from "../runtime.ts";

interface AuditedContext {
  req: Request;
  rt: Runtime;
  auth: Principal;
  audit: AuditNote;
  params: unknown;
}

/**
 * route()'s last step for an endpoint that declares `audit`: after the handler succeeded (its
 * change committed), one entry naming the caller, the target, the base and the client's address.
 */
export async function auditSuccess(endpoint: Endpoint, ctx: AuditedContext, result: unknown) {
  const spec = endpoint.audit;
  // A handler that answers with a Response of its own may answer a refusal: that records nothing.
  if (!spec || (result instanceof Response && !result.ok)) return;
  const answer = result instanceof Response ? undefined : result;
  const draft = draftEntry(spec, ctx.params as Record<string, unknown>, answer, ctx.audit);
  if (!draft) return;
  const auth = ctx.auth;
  const workspaceId = ctx.audit.workspaceId ?? auth.workspaceId;
  const workspaceIds = ctx.audit.workspaceIds ?? (workspaceId ? [workspaceId] : []);
  const actor = ctx.audit.actor ?? (auth.actorId ? { type: auth.keyId ? "key" : "user", id: auth.actorId } : undefined);
  if (!actor) return;
  const ip = clientIpOf(ctx.req);
  for (const id of workspaceIds)
    await recordAuditAfter(
      ctx.rt.db.prisma,
      { workspaceId: id, actor: actor as { type: "user" | "key"; id: string }, ip },
      draft,
    );
}
