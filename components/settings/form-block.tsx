"use client";
import { useState } from "react";
import { errorMessage } from "../data/api";
import { inputClass } from "./settings-shell";

// The pieces every settings form repeats: a labelled field, the error line, and the submit that
// sets busy, clears the last error and shows the next one.

/** The class of a field's control: full width, under its label. */
export const fieldControlClass = `${inputClass} mt-1 w-full`;

/** A label above its control; the control carries `id`. */
export function FormField({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The form's last error, announced to screen readers; nothing when there is none. */
export function FormError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="text-red-600 dark:text-red-400">
      {error}
    </p>
  ) : null;
}

/**
 * Runs a form's action: busy while it runs, the error's message when it fails. `run` takes the
 * submit event (its default is prevented) or nothing, for a button outside a form.
 */
export function useFormAction(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(e?: React.FormEvent) {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}
