"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { KEY_SCOPES, type KeyScope } from "@/lib/auth/permissions.ts";
import { ACTIONS, usePermissions, useSession } from "../auth/use-permissions";
import { api } from "../data/api";
import { useBases } from "../data/queries";
import { Button } from "../ui/button";
import { CopyField } from "../ui/copy-field";
import { Dialog, DialogFooter } from "../ui/dialog";
import { settingsKeys } from "./queries";
import { fieldControlClass, FormError, FormField, useFormAction } from "./form-block";
import type { CreateKeyRequest } from "./types";

/** The end of the chosen day, in the browser's time zone, as the key's expiry. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

/**
 * A new key: name, the scopes the signed-in principal holds (a key never gets more), some bases
 * or all, an expiry and a daily credit cap. The key is shown once.
 */
export function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const qc = useQueryClient();
  const perms = usePermissions();
  const session = useSession();
  const bases = useBases();
  const held = KEY_SCOPES.filter((s) => perms.can(s));
  const limitedTo = session.data?.authenticated ? (session.data.baseIds ?? null) : null;
  const choosable = (bases.data ?? []).filter((b) => !limitedTo || limitedTo.includes(b.baseId));
  const [name, setName] = useState("API key");
  const [scopes, setScopes] = useState<Set<KeyScope>>(() => new Set(held));
  const [allBases, setAllBases] = useState(limitedTo === null);
  const [baseIds, setBaseIds] = useState<Set<string>>(new Set());
  const [expiry, setExpiry] = useState("");
  const [cap, setCap] = useState("");
  const [key, setKey] = useState<string | null>(null);

  const toggle = <T,>(set: Set<T>, v: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(v);
    else next.delete(v);
    return next;
  };

  const {
    busy,
    error,
    run: submit,
  } = useFormAction(async () => {
    const body: CreateKeyRequest = { name: name.trim() || "API key", scopes: [...scopes] };
    if (!allBases) body.baseIds = [...baseIds];
    if (expiry) body.expiresAt = endOfDay(expiry);
    if (cap.trim() !== "") body.dailyCreditCap = Number(cap);
    const created = await api<{ key: string | null }>("/api/v1/api-keys", { body });
    setKey(created.key ?? "");
    await qc.invalidateQueries({ queryKey: settingsKeys.apiKeys });
  });

  if (key !== null)
    return (
      <Dialog open onClose={onClose} title="Your new API key" description="It is shown only this once: store it now.">
        <div className="px-5 py-4">
          <CopyField label="API key" value={key} />
        </div>
        <DialogFooter>
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </DialogFooter>
      </Dialog>
    );

  const noBase = !allBases && baseIds.size === 0;
  return (
    <Dialog open onClose={onClose} title="New API key" description="Send it as the X-API-Key header.">
      <form onSubmit={submit} className="flex min-h-0 flex-col">
        <div className="min-h-0 space-y-4 overflow-y-auto px-5 py-4 text-sm">
          <FormField id={`${id}-name`} label="Name">
            <input
              id={`${id}-name`}
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
              className={fieldControlClass}
            />
          </FormField>
          <fieldset>
            <legend className="font-medium">Scopes</legend>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Only the scopes you hold yourself.</p>
            <div className="mt-1.5 grid grid-cols-2 gap-1">
              {held.map((s) => (
                <label key={s} className="flex items-center gap-2" title={`Lets the key ${ACTIONS[s]}`}>
                  <input
                    type="checkbox"
                    checked={scopes.has(s)}
                    onChange={(e) => setScopes(toggle(scopes, s, e.target.checked))}
                  />
                  <span className="font-mono text-xs">{s}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="font-medium">Bases</legend>
            <label
              className="mt-1 flex items-center gap-2"
              title={limitedTo ? "You are limited to some bases yourself" : undefined}
            >
              <input
                type="checkbox"
                checked={allBases}
                disabled={limitedTo !== null}
                onChange={(e) => setAllBases(e.target.checked)}
              />
              All bases, present and future
            </label>
            {allBases ? null : (
              <div className="mt-1.5 max-h-36 space-y-1 overflow-y-auto rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
                {choosable.map((b) => (
                  <label key={b.baseId} className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      checked={baseIds.has(b.baseId)}
                      onChange={(e) => setBaseIds(toggle(baseIds, b.baseId, e.target.checked))}
                    />
                    {b.name}
                  </label>
                ))}
                {choosable.length === 0 ? <p className="text-zinc-500">No bases yet.</p> : null}
              </div>
            )}
          </fieldset>
          <div className="grid grid-cols-2 gap-3">
            <FormField id={`${id}-expiry`} label="Expires (optional)">
              <input
                id={`${id}-expiry`}
                type="date"
                value={expiry}
                min={new Date().toISOString().slice(0, 10)}
                onChange={(e) => setExpiry(e.target.value)}
                className={fieldControlClass}
              />
            </FormField>
            <FormField id={`${id}-cap`} label="Daily credit cap (optional)">
              <input
                id={`${id}-cap`}
                type="number"
                min={0}
                step={1}
                value={cap}
                onChange={(e) => setCap(e.target.value)}
                className={fieldControlClass}
              />
            </FormField>
          </div>
          <FormError error={error} />
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy || scopes.size === 0 || noBase}>
            {busy ? "Creating…" : "Create key"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
