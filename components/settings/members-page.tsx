"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ROLES, type Role } from "@/lib/auth/permissions.ts";
import { ROLE_LABEL, usePermissions, useSession } from "../auth/use-permissions";
import { api, errorMessage } from "../data/api";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { CopyField } from "../ui/copy-field";
import { Dialog, DialogFooter } from "../ui/dialog";
import { PlusIcon } from "../ui/icons";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";
import { FormError, useFormAction } from "./form-block";
import { InvitationsSection, InviteDialog } from "./invitations";
import { settingsKeys, useMembers } from "./queries";
import { inputClass, LoadError, SettingsShell, tableClass, tdClass, thClass } from "./settings-shell";
import type { Member } from "./types";

const memberPath = (userId: string) => `/api/v1/members/${encodeURIComponent(userId)}`;

export function MembersPage() {
  const members = useMembers();
  const perms = usePermissions();
  const [inviting, setInviting] = useState(false);
  const denied = perms.reason("members:manage", "invite members");
  return (
    <SettingsShell
      tab="members"
      title="Members"
      description="The people of this workspace and their roles: owners manage members, admins the schema, keys and audit log, editors the rows and runs; viewers read."
      actions={
        <Button variant="primary" onClick={() => setInviting(true)} deniedReason={denied}>
          <PlusIcon /> Invite member
        </Button>
      }
    >
      {members.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : members.isError ? (
        <LoadError what="the members" error={members.error} />
      ) : members.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No members yet: the workspace is used with its API key. Create your owner account from the bases page, then
          invite people to give them their own sign-in.
        </p>
      ) : (
        <MembersTable members={members.data} />
      )}
      {perms.can("members:manage") ? <InvitationsSection /> : null}
      {inviting ? <InviteDialog onClose={() => setInviting(false)} /> : null}
    </SettingsShell>
  );
}

function MembersTable({ members }: { members: Member[] }) {
  const perms = usePermissions();
  const session = useSession();
  const qc = useQueryClient();
  const toast = useToast();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [resetFor, setResetFor] = useState<Member | null>(null);
  const me = session.data?.authenticated ? session.data.userId : null;
  const changeRole = perms.reason("members:manage", "change roles");
  const remove = perms.reason("members:manage", "remove members");
  const reset = perms.reason("members:manage", "make password reset links");

  async function setRole(m: Member, role: Role) {
    try {
      await api<Member>(memberPath(m.userId), { method: "PATCH", body: { role } });
      toast.success(`${m.email} is now ${ROLE_LABEL[role].toLowerCase()}.`);
    } catch (e) {
      toast.error(errorMessage(e));
    }
    await qc.invalidateQueries({ queryKey: settingsKeys.members });
    if (m.userId === me) await qc.invalidateQueries({ queryKey: ["session"] });
  }

  return (
    <>
      <table className={tableClass} aria-label="Members">
        <thead>
          <tr>
            <th className={thClass}>Name</th>
            <th className={thClass}>Email</th>
            <th className={thClass}>Role</th>
            <th className={thClass}>Member since</th>
            <th className={thClass}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.userId}>
              <td className={tdClass}>
                {m.name || <span className="text-zinc-500">—</span>}
                {m.userId === me ? <span className="ml-1.5 text-xs text-zinc-500">(you)</span> : null}
              </td>
              <td className={tdClass}>{m.email}</td>
              <td className={tdClass}>
                <select
                  aria-label={`Role of ${m.email}`}
                  value={m.role}
                  disabled={Boolean(changeRole)}
                  title={changeRole}
                  onChange={(e) => void setRole(m, e.target.value as Role)}
                  className={`${inputClass} h-8`}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {ROLE_LABEL[r]}
                    </option>
                  ))}
                </select>
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>{new Date(m.createdAt).toLocaleDateString()}</td>
              <td className={`${tdClass} whitespace-nowrap text-right`}>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Reset password link for ${m.email}`}
                  deniedReason={reset}
                  onClick={() => setResetFor(m)}
                >
                  Reset password link
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-red-700 dark:text-red-400"
                  aria-label={`Remove ${m.email}`}
                  deniedReason={remove}
                  onClick={() => setRemoving(m)}
                >
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.email}?`}
          description="They lose access at once: their sessions end and the API keys they made stop working."
          confirmLabel="Remove member"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api(memberPath(removing.userId), { method: "DELETE" });
            await qc.invalidateQueries({ queryKey: settingsKeys.members });
            await qc.invalidateQueries({ queryKey: settingsKeys.apiKeys });
          }}
        />
      ) : null}
      {resetFor ? <ResetLinkDialog member={resetFor} onClose={() => setResetFor(null)} /> : null}
    </>
  );
}

/** Makes a one-time password reset link (valid an hour) for the owner to hand over. */
function ResetLinkDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);
  const {
    busy,
    error,
    run: create,
  } = useFormAction(async () => {
    setLink(
      await api<{ url: string; expiresAt: string }>("/api/v1/password-resets", { body: { userId: member.userId } }),
    );
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Password reset link for ${member.email}`}
      description="The link sets a new password once, within an hour, and signs them out everywhere. Send it to them yourself."
    >
      <div className="space-y-3 px-5 py-4 text-sm">
        {link ? (
          <>
            <CopyField label="Reset link" value={link.url} />
            <p className="text-zinc-600 dark:text-zinc-400">
              Valid until {new Date(link.expiresAt).toLocaleString()}. It is shown only this once.
            </p>
          </>
        ) : (
          <p>Make a one-time link for them to choose a new password?</p>
        )}
        <FormError error={error} />
      </div>
      <DialogFooter>
        <Button onClick={onClose}>{link ? "Done" : "Cancel"}</Button>
        {link ? null : (
          <Button variant="primary" onClick={() => void create()} disabled={busy}>
            {busy ? "Making…" : "Make link"}
          </Button>
        )}
      </DialogFooter>
    </Dialog>
  );
}
