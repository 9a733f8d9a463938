import type { Principal } from "../auth/principal.ts";
import { createSession, deleteSession } from "../auth/session.ts";
import { isSecureRequest, publicOrigin, sessionCookie, sessionTokenOf } from "../auth/session-cookie.ts";
import type { Runtime } from "../runtime.ts";
import { json } from "./respond.ts";

// Answers that start a browser session: sign-in, accepting an invitation, the first owner. The
// cookie replaces the request's own session, which is deleted so an old token cannot linger.

export async function answerWithSession(
  req: Request,
  rt: Runtime,
  principal: Pick<Principal, "workspaceId" | "keyId" | "userId">,
  body: (expiresAt: string) => unknown,
  status = 201,
): Promise<Response> {
  const previous = sessionTokenOf(req);
  if (previous) await deleteSession(rt, previous);
  const session = await createSession(rt, principal);
  return json(body(session.expiresAt.toISOString()), status, {
    "set-cookie": sessionCookie(session.token, session.expiresAt, isSecureRequest(req, rt.config.trustProxy)),
  });
}

/** The origin links are made for: PUBLIC_URL, else the address the request came to. */
export const linkOrigin = (req: Request, rt: Runtime) => rt.config.publicUrl ?? publicOrigin(req, rt.config.trustProxy);
