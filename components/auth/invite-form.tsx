"use client";
import { useState } from "react";
import { api } from "../data/api";
import { Button } from "../ui/button";
import { AuthCard, errorMessage, Field, FormError } from "./auth-card";

/**
 * Accepts an invitation: a new account (email, name, password), or an existing one, which proves
 * itself with its own password. Either way the browser is then signed in as the member.
 */
export function InviteForm({ token }: { token: string }) {
  const [existing, setExisting] = useState(false);
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
      const body = existing ? { token, email, password } : { token, email, name, password };
      await api("/api/v1/invitations/accept", { body, noAuthRedirect: true });
      window.location.assign("/");
    } catch (err) {
      setError(errorMessage(err, "The invitation could not be accepted."));
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Join a Cellwright workspace" subtitle="You have been invited">
      <div
        role="radiogroup"
        aria-label="Account"
        className="mb-5 grid grid-cols-2 gap-1 rounded-md bg-zinc-100 p-1 dark:bg-zinc-800"
      >
        {[false, true].map((value) => (
          <button
            key={String(value)}
            type="button"
            role="radio"
            aria-checked={existing === value}
            onClick={() => setExisting(value)}
            className={`h-8 rounded text-sm font-medium ${existing === value ? "bg-white shadow-sm dark:bg-zinc-950" : "text-zinc-600 dark:text-zinc-400"}`}
          >
            {value ? "I have an account" : "New account"}
          </button>
        ))}
      </div>
      <form onSubmit={submit} noValidate>
        <Field id="email" label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} autoFocus />
        {!existing && <Field id="name" label="Name" autoComplete="name" value={name} onChange={setName} />}
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete={existing ? "current-password" : "new-password"}
          value={password}
          onChange={setPassword}
          hint={existing ? "The password of your existing account." : "At least 10 characters."}
        />
        <FormError error={error} />
        <Button
          type="submit"
          variant="primary"
          className="mt-5 w-full"
          disabled={busy || email.trim() === "" || password === ""}
        >
          {busy ? "Joining…" : "Join the workspace"}
        </Button>
      </form>
    </AuthCard>
  );
}
