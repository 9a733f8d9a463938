"use client";
import { useEffect, useRef, useState } from "react";
import { api, ApiError } from "../data/api";
import { Button } from "../ui/button";
import { TableIcon } from "../ui/icons";

/**
 * Exchanges an API key for a session cookie. The key lives only in this form's state for the
 * duration of the request; nothing is written to localStorage.
 */
export function SignInForm({ next }: { next: string }) {
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<string | null>(null);
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

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    submitted.current = true;
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/session", { body: { apiKey }, noAuthRedirect: true });
      setApiKey("");
      window.location.assign(next);
    } catch (err) {
      submitted.current = false;
      setError(
        err instanceof ApiError && err.status === 401
          ? "That API key is unknown or has been revoked."
          : err instanceof Error
            ? err.message
            : "Sign-in failed.",
      );
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      className="w-full max-w-sm rounded-2xl border border-zinc-200 bg-white p-7 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
      noValidate
    >
      <div className="mb-6 flex items-center gap-2.5">
        <span className="grid size-9 place-items-center rounded-lg bg-indigo-600 text-lg text-white">
          <TableIcon />
        </span>
        <div>
          <h1 className="text-lg leading-tight font-semibold">Sign in to Cellwright</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">AI enrichment tables</p>
        </div>
      </div>
      <label htmlFor="api-key" className="block text-sm font-medium">
        API key
      </label>
      <input
        id="api-key"
        name="api-key"
        type="password"
        autoComplete="off"
        spellCheck={false}
        required
        autoFocus
        value={apiKey}
        onChange={(e) => setApiKey(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "api-key-error" : "api-key-hint"}
        placeholder="cw_…"
        className="mt-1.5 block h-10 w-full rounded-md border border-zinc-300 bg-white px-3 font-mono text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950"
      />
      {error ? (
        <p id="api-key-error" role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : (
        <p id="api-key-hint" className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          The key is exchanged for a session cookie and is not stored in the browser.
        </p>
      )}
      <Button type="submit" variant="primary" className="mt-5 w-full" disabled={busy || apiKey.trim() === ""}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
