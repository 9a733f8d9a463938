"use client";
import { useEffect, useRef, useState } from "react";
import { api, ApiError } from "../data/api";
import { Button } from "../ui/button";
import { AuthCard, errorMessage, Field, FormError } from "./auth-card";

/**
 * Signs in by email and password, by single sign-on when it is configured, or by exchanging an
 * API key for a session cookie. Secrets live only in this form's state for the duration of the
 * request; nothing is written to localStorage.
 */
export function SignInForm({ next, ssoEnabled }: { next: string; ssoEnabled: boolean }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<{ form: "password" | "key"; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submitted = useRef(false);

  // A SameSite=Strict cookie is not sent on a link followed from another site, so the server
  // may have sent us here although a session exists: a same-origin request can tell.
  useEffect(() => {
    fetch("/api/v1/session", { credentials: "same-origin" })
      .then((r) => r.json())
      .then((s: { authenticated?: boolean }) => {
        // Once the form is submitted it navigates by itself; a late answer must not navigate twice.
        if (s.authenticated && !submitted.current) window.location.replace(next);
      })
      .catch(() => undefined);
  }, [next]);

  async function signIn(form: "password" | "key", body: unknown) {
    submitted.current = true;
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/session", { body, noAuthRedirect: true });
      setApiKey("");
      setPassword("");
      window.location.assign(next);
    } catch (err) {
      submitted.current = false;
      const unknown = err instanceof ApiError && err.status === 401;
      const message =
        form === "key" && unknown
          ? "That API key is unknown or has been revoked."
          : unknown
            ? "The email or password is wrong."
            : errorMessage(err, "Sign-in failed.");
      setError({ form, message });
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Sign in to Cellwright" subtitle="AI enrichment tables">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void signIn("password", { email, password });
        }}
        noValidate
      >
        <Field id="email" label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} autoFocus />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <FormError error={error?.form === "password" ? error.message : null} />
        <Button
          type="submit"
          variant="primary"
          className="mt-5 w-full"
          disabled={busy || email.trim() === "" || password === ""}
        >
          {busy && error === null ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      {ssoEnabled && (
        <a
          href={`/api/v1/session/sso?next=${encodeURIComponent(next)}`}
          className="mt-3 inline-flex h-9 w-full items-center justify-center rounded-md border border-zinc-300 bg-white text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
        >
          Sign in with single sign-on
        </a>
      )}
      <div className="my-6 flex items-center gap-3 text-xs text-zinc-500" aria-hidden="true">
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        or with an API key
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void signIn("key", { apiKey });
        }}
        noValidate
      >
        <Field
          id="api-key"
          label="API key"
          type="password"
          autoComplete="off"
          mono
          placeholder="cw_…"
          value={apiKey}
          onChange={setApiKey}
          hint="The key is exchanged for a session cookie and is not stored in the browser."
        />
        <FormError error={error?.form === "key" ? error.message : null} />
        <Button type="submit" className="mt-4 w-full" disabled={busy || apiKey.trim() === ""}>
          Sign in with the key
        </Button>
      </form>
    </AuthCard>
  );
}
