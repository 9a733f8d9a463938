"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ROLES, type Role } from "@/lib/auth/permissions.ts";
import { ROLE_LABEL } from "../auth/use-permissions";
import { api } from "../data/api";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { CopyField } from "../ui/copy-field";
import { Dialog, DialogFooter } from "../ui/dialog";
import { settingsKeys, useInvitations } from "./queries";
import { fieldControlClass, FormError, FormField, useFormAction } from "./form-block";
import { LoadError, tableClass, tdClass, thClass } from "./settings-shell";
import type { CreatedInvitation, Invitation } from "./types";

const isPending = (i: Invitation, now: number) => !i.usedAt && !i.revokedAt && new Date(i.expiresAt).getTime() > now;

/** Invitations not yet used, revoked or expired, each with Revoke (owners only). */
export function InvitationsSection() {
  const invitations = useInvitations(true);
  const qc = useQueryClient();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const now = Date.now();
  const pending = invitations.data?.filter((i) => isPending(i, now)) ?? [];
  return (
    <section aria-labelledby="invitations-heading" className="mt-8">
      <h2 id="invitations-heading" className="mb-2 text-base font-semibold">
        Pending invitations
      </h2>
      {invitations.isError ? (
        <LoadError what="the invitations" error={invitations.error} />
      ) : invitations.isPending ? null : pending.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No pending invitations.</p>
      ) : (
        <table className={tableClass} aria-label="Pending invitations">
          <thead>
            <tr>
              <th className={thClass}>Email</th>
              <th className={thClass}>Role</th>
              <th className={thClass}>Expires</th>
              <th className={thClass}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pending.map((i) => (
              <tr key={i.id}>
                <td className={tdClass}>{i.email ?? <span className="text-zinc-500">Anyone with the link</span>}</td>
                <td className={tdClass}>{ROLE_LABEL[i.role] ?? i.role}</td>
                <td className={tdClass}>{new Date(i.expiresAt).toLocaleString()}</td>
                <td className={`${tdClass} text-right`}>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-700 dark:text-red-400"
                    aria-label={`Revoke the invitation for ${i.email ?? "anyone with the link"} (${i.role})`}
                    onClick={() => setRevoking(i)}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking ? (
        <ConfirmDialog
          title="Revoke this invitation?"
          description="Its link stops working at once."
          confirmLabel="Revoke invitation"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await api(`/api/v1/invitations/${encodeURIComponent(revoking.id)}`, { method: "DELETE" });
            await qc.invalidateQueries({ queryKey: settingsKeys.invitations });
          }}
        />
      ) : null}
    </section>
  );
}

/** Invite someone: a role and, optionally, the email the invitation is for; the link is shown once. */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const id = useId();
  const [role, setRole] = useState<Role>("editor");
  const [email, setEmail] = useState("");
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const {
    busy,
    error,
    run: submit,
  } = useFormAction(async () => {
    const body = email.trim() ? { role, email: email.trim() } : { role };
    setCreated(await api<CreatedInvitation>("/api/v1/invitations", { body }));
    await qc.invalidateQueries({ queryKey: settingsKeys.invitations });
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title="Invite a member"
      description="The invitation link works once, for 7 days. Send it to them yourself."
    >
      {created ? (
        <>
          <div className="space-y-2 px-5 py-4 text-sm">
            {created.url ? <CopyField label="Invitation link" value={created.url} /> : null}
            <p className="text-zinc-600 dark:text-zinc-400">
              For {created.email ?? "anyone with the link"}, as {ROLE_LABEL[created.role].toLowerCase()}. It is shown
              only this once.
            </p>
          </div>
          <DialogFooter>
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </DialogFooter>
        </>
      ) : (
        <form onSubmit={submit}>
          <div className="space-y-3 px-5 py-4 text-sm">
            <FormField id={`${id}-role`} label="Role">
              <select
                id={`${id}-role`}
                value={role}
                onChange={(e) => setRole(e.target.value as Role)}
                className={fieldControlClass}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABEL[r]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id={`${id}-email`} label="Email (optional)">
              <input
                id={`${id}-email`}
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="Only this address may accept"
                className={fieldControlClass}
              />
            </FormField>
            <FormError error={error} />
          </div>
          <DialogFooter>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={busy}>
              {busy ? "Inviting…" : "Create invitation"}
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
