import { json, route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { authenticate, principalForKey } from "@/lib/auth/authenticate";
import { isAppError } from "@/lib/errors";
import { createSession, deleteSession } from "@/lib/auth/session";
import {
  assertSameOrigin,
  clearedSessionCookie,
  isSecureRequest,
  sessionCookie,
  sessionTokenOf,
} from "@/lib/auth/session-cookie";
import * as api from "@/lib/http/schemas/session";

/**
 * Who is signed in (by cookie or X-API-Key). Answers 200 either way, so the sign-in page can
 * ask without an error.
 */
export const GET = route(api.getSession, async ({ req, rt }) => {
  try {
    const auth = await authenticate(rt, req);
    return { authenticated: true, workspaceId: auth.workspaceId, keyId: auth.keyId };
  } catch (e) {
    if (isAppError(e) && e.status === 401) return { authenticated: false };
    throw e;
  }
});

/** Sign in: exchanges an API key for a session cookie. The key itself is not kept by the browser. */
export const POST = route(api.signIn, async ({ req, body, rt }) => {
  assertSameOrigin(req, rt.config.trustProxy);
  const principal = await principalForKey(rt, body.apiKey);
  const session = await createSession(rt, principal);
  const answer = {
    workspaceId: principal.workspaceId,
    keyId: principal.keyId,
    expiresAt: session.expiresAt.toISOString(),
  };
  return json(answer, 201, {
    "set-cookie": sessionCookie(session.token, session.expiresAt, isSecureRequest(req, rt.config.trustProxy)),
  });
});

/** Sign out: ends the session server-side and clears the cookie, even if it had already expired. */
export const DELETE = route(api.signOut, async ({ req, rt }) => {
  assertSameOrigin(req, rt.config.trustProxy);
  const token = sessionTokenOf(req);
  if (token) await deleteSession(rt, token);
  return json({ signedOut: true }, 200, {
    "set-cookie": clearedSessionCookie(isSecureRequest(req, rt.config.trustProxy)),
  });
});

export const { PUT, PATCH } = otherMethods("GET", "POST", "DELETE");
