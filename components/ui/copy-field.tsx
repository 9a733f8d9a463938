"use client";
import { useId, useState } from "react";
import { Button } from "./button";

/** A secret shown once (a key, an invitation link): read-only, selected on focus, with a copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Without clipboard permission the field stays selected for a manual copy.
      document.getElementById(id)?.focus();
    }
  }
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="h-9 min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-950"
        />
        <Button onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <p aria-live="polite" className="sr-only">
        {copied ? "Copied to the clipboard" : ""}
      </p>
    </div>
  );
}
