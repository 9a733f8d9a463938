"use client";
import { useState } from "react";
import { api } from "../data/api";
import { Button } from "../ui/button";
import { AuthCard, errorMessage, Field, FormError } from "./auth-card";

/** Sets a new password from a reset link; every session of the account ends, so sign in again. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (password !== repeat) return setError("The two passwords differ.");
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/password-resets/redeem", { body: { token, password }, noAuthRedirect: true });
      setDone(true);
    } catch (err) {
      setError(errorMessage(err, "The password could not be set."));
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <AuthCard title="Password set" subtitle="Every session of your account has ended">
        <a href="/sign-in" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          Sign in with your new password
        </a>
      </AuthCard>
    );
  return (
    <AuthCard title="Set a new password" subtitle="Cellwright">
      <form onSubmit={submit} noValidate>
        <Field
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          autoFocus
          hint="At least 10 characters."
        />
        <Field
          id="repeat-password"
          label="Repeat it"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={setRepeat}
        />
        <FormError error={error} />
        <Button type="submit" variant="primary" className="mt-5 w-full" disabled={busy || password === ""}>
          {busy ? "Setting…" : "Set the password"}
        </Button>
      </form>
    </AuthCard>
  );
}
