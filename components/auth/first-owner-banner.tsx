"use client";
import { useEffect, useState } from "react";
import { api } from "../data/api";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { errorMessage, Field, FormError } from "./auth-card";

/**
 * Shown while the browser is signed in by the workspace key and the workspace has no owner
 * account: making one turns this session into the owner's, so people can then be invited.
 */
// A single-user install (UI_AUTO_LOGIN) may never want accounts: "Not now" hides the offer in this browser.
const DISMISSED = "cellwright.firstOwnerDismissed";

export function FirstOwnerBanner() {
  const [hidden, setHidden] = useState(true);
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Read after mount: the server cannot see localStorage, and the first render must match its HTML.
  useEffect(() => setHidden(localStorage.getItem(DISMISSED) === "1"), []);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/members/first-owner", { body: { email, name, password } });
      window.location.reload();
    } catch (err) {
      setError(errorMessage(err, "The account could not be created."));
      setBusy(false);
    }
  }

  if (hidden) return null;
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-100">
      <p>
        You are signed in with the workspace key. Create your owner account to sign in with a password and invite
        people.
      </p>
      <div className="flex gap-2">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            localStorage.setItem(DISMISSED, "1");
            setHidden(true);
          }}
        >
          Not now
        </Button>
        <Button variant="primary" size="sm" onClick={() => setOpen(true)}>
          Create your owner account
        </Button>
      </div>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Create your owner account"
        description="You become the workspace's owner; this browser is then signed in as you."
      >
        <form onSubmit={submit} noValidate>
          <div className="px-5 py-4">
            <Field
              id="owner-email"
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={setEmail}
              autoFocus
            />
            <Field id="owner-name" label="Name" autoComplete="name" value={name} onChange={setName} />
            <Field
              id="owner-password"
              label="Password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              hint="At least 10 characters."
            />
            <FormError error={error} />
          </div>
          <DialogFooter>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={busy || email.trim() === "" || password === ""}>
              {busy ? "Creating…" : "Create account"}
            </Button>
          </DialogFooter>
        </form>
      </Dialog>
    </div>
  );
}
