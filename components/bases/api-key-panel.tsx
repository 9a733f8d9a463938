"use client";
import Link from "next/link";
import { useState } from "react";
import { usePermissions } from "../auth/use-permissions";
import { api, errorMessage } from "../data/api";
import { Button } from "../ui/button";

/**
 * Scripts and the MCP server authenticate with an API key. A browser signed in with a one-time
 * link has none to copy, so the bases page makes one through the keys API; it is shown once.
 */
export function ApiKeyPanel() {
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const denied = usePermissions().reason("keys:own", "make API keys");

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const created = await api<{ key: string }>("/api/v1/api-keys", { body: { name: "Script key" } });
      setKey(created.key);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby="api-key-heading"
      className="mt-8 rounded-xl border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="api-key-heading" className="font-medium">
            API key for scripts
          </h2>
          <p className="text-zinc-600 dark:text-zinc-400">
            Send it as the X-API-Key header to the REST API or the MCP server. Scopes, bases, expiry and caps:{" "}
            <Link href="/settings/keys" className="text-indigo-700 underline dark:text-indigo-300">
              API keys settings
            </Link>
            .
          </p>
        </div>
        <Button onClick={create} disabled={busy} deniedReason={denied}>
          {busy ? "Creating…" : "Create an API key"}
        </Button>
      </div>
      {key && (
        <div className="mt-3">
          <label htmlFor="new-api-key" className="block font-medium">
            Your new key. It is shown only this once: store it now.
          </label>
          <input
            id="new-api-key"
            readOnly
            value={key}
            onFocus={(e) => e.currentTarget.select()}
            className="mt-1 w-full rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1.5 font-mono dark:border-zinc-700 dark:bg-zinc-950"
          />
        </div>
      )}
      {error && (
        <p role="alert" className="mt-3 text-red-700 dark:text-red-300">
          Could not create a key: {error}
        </p>
      )}
    </section>
  );
}
