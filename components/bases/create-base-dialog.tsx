"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, errorMessage } from "../data/api";
import { keys } from "../data/queries";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";

export function CreateBaseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const router = useRouter();
  const qc = useQueryClient();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const base = await api<{ baseId: string }>("/api/v1/bases", { body: { baseName: name.trim() || undefined } });
      await qc.invalidateQueries({ queryKey: keys.bases });
      router.push(`/bases/${base.baseId}`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title="New base" description="A base is one table. It starts with a primary Name column.">
      <form onSubmit={submit}>
        <div className="px-5 py-4">
          <label htmlFor="base-name" className="block text-sm font-medium">
            Name
          </label>
          <input
            id="base-name"
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Target accounts"
            maxLength={200}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "base-name-error" : undefined}
            className="mt-1.5 block h-9 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950"
          />
          {error ? (
            <p id="base-name-error" role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? "Creating…" : "Create base"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
