import { json, route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { authenticate, principalForKey } from "@/lib/auth/authenticate";
import { isAppError } from "@/lib/errors";
import { deleteKeySessions, deleteSession, deleteUserSessions, principalForSessionOrNull } from "@/lib/auth/session";
import { assertSameOrigin, clearedSessionCookie, isSecureRequest, sessionTokenOf } from "@/lib/auth/session-cookie";
import { signInWithPassword, userOf } from "@/lib/auth/people";
import { answerWithSession } from "@/lib/http/session-answer";
import * as api from "@/lib/http/schemas/session";

/**
 * Who is signed in (by cookie or X-API-Key), with what they may do. Answers 200 either way, so
 * the sign-in page can ask without an error (and learn whether single sign-on is offered).
 */
export const GET = route(api.getSession, async ({ req, rt }) => {
  try {
    const auth = await authenticate(rt, req);
    const user = await userOf(rt, auth.userId);
    return {
      authenticated: true as const,
      workspaceId: auth.workspaceId,
      keyId: auth.keyId,
      userId: auth.userId,
      user,
      role: auth.role,
      permissions: [...auth.permissions].sort(),
      baseIds: auth.baseIds ? [...auth.baseIds] : null,
    };
  } catch (e) {
    if (isAppError(e) && e.status === 401)
      return { authenticated: false as const, ssoEnabled: rt.config.oidc !== null };
    throw e;
  }
});

/** Sign in with an API key (the key itself is not kept by the browser) or with email and password. */
export const POST = route(api.signIn, async ({ req, body, rt }) => {
  assertSameOrigin(req, rt.config.trustProxy);
  const principal =
    "apiKey" in body
      ? await principalForKey(rt, body.apiKey)
      : { ...(await signInWithPassword(rt, body)), keyId: null };
  return answerWithSession(req, rt, principal, (expiresAt) => ({
    workspaceId: principal.workspaceId,
    keyId: principal.keyId,
    userId: principal.userId,
    expiresAt,
  }));
});

/** Sign out (everywhere: every session of the user, or of the key): the cookie is cleared either way. */
export const DELETE = route(api.signOut, async ({ req, rt, query }) => {
  assertSameOrigin(req, rt.config.trustProxy);
  const token = sessionTokenOf(req);
  if (token && query.everywhere) {
    const principal = await principalForSessionOrNull(rt, token);
    if (principal?.userId && !principal.keyId) await deleteUserSessions(rt, principal.userId);
    if (principal?.keyId) await deleteKeySessions(rt, principal.keyId);
  }
  if (token) await deleteSession(rt, token);
  return json({ signedOut: true }, 200, {
    "set-cookie": clearedSessionCookie(isSecureRequest(req, rt.config.trustProxy)),
  });
});

export const { PUT, PATCH } = otherMethods("GET", "POST", "DELETE");
