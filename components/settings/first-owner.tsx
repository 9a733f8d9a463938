"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { sessionKey } from "../auth/use-permissions";
import { api, errorMessage } from "../data/api";
import { Button } from "../ui/button";
import { settingsKeys } from "./queries";
import { inputClass } from "./settings-shell";

/**
 * While a workspace has no owner member, whoever holds its key (the first-start sign-in link)
 * makes the owner's account here; the session then becomes that user's.
 */
export function FirstOwnerForm() {
  const id = useId();
  const qc = useQueryClient();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/members/first-owner", {
        body: { email: email.trim(), password, ...(name.trim() ? { name: name.trim() } : {}) },
      });
      await Promise.all([
        qc.invalidateQueries({ queryKey: sessionKey }),
        qc.invalidateQueries({ queryKey: settingsKeys.members }),
      ]);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const field = (key: string, label: string, input: React.ReactNode) => (
    <div className="flex flex-col">
      <label htmlFor={`${id}-${key}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
        {label}
      </label>
      {input}
    </div>
  );
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="mb-6 rounded-xl border border-indigo-200 bg-indigo-50/60 p-4 text-sm dark:border-indigo-900 dark:bg-indigo-950/40"
    >
      <h2 id={`${id}-heading`} className="font-semibold">
        Create your owner account
      </h2>
      <p className="mt-0.5 text-zinc-600 dark:text-zinc-400">
        You are signed in with the workspace key. Make your own account to sign in with email and password, and to
        invite others.
      </p>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3">
        {field(
          "email",
          "Email",
          <input
            id={`${id}-email`}
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={`${inputClass} w-56`}
          />,
        )}
        {field(
          "name",
          "Name (optional)",
          <input
            id={`${id}-name`}
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={`${inputClass} w-44`}
          />,
        )}
        {field(
          "password",
          "Password (10 characters or more)",
          <input
            id={`${id}-password`}
            type="password"
            required
            minLength={10}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className={`${inputClass} w-56`}
          />,
        )}
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? "Creating…" : "Create owner account"}
        </Button>
      </form>
      {error ? (
        <p role="alert" className="mt-2 text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
