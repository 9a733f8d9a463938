"use client";
import { useId, useState } from "react";
import { errorMessage } from "../data/api";
import { Button } from "./button";
import { Dialog, DialogFooter } from "./dialog";

/** Asks for one name (a new base, a view, a rename); the server's refusal shows under the field. */
export function NameDialog({
  title,
  description,
  initial = "",
  placeholder,
  maxLength,
  submitLabel = "Save",
  busyLabel = "Saving…",
  allowEmpty = false,
  onSubmit,
  onClose,
}: {
  title: string;
  description?: string;
  initial?: string;
  placeholder?: string;
  maxLength: number;
  submitLabel?: string;
  busyLabel?: string;
  allowEmpty?: boolean;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <Dialog open onClose={onClose} title={title} description={description}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          onSubmit(name.trim()).catch((err) => {
            setError(errorMessage(err));
            setBusy(false);
          });
        }}
      >
        <div className="px-5 py-4">
          <label htmlFor={id} className="block text-sm font-medium">
            Name
          </label>
          <input
            id={id}
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={placeholder}
            maxLength={maxLength}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="mt-1.5 block h-9 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950"
          />
          {error ? (
            <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy || (!allowEmpty && name.trim() === "")}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
