import type { Tx } from "../db/database.ts";
import { isKeyScope } from "../auth/permissions.ts";
import type { NewKey } from "../auth/api-keys.ts";
import { type CommandInput, intOption, stringOption, UsageError } from "./command.ts";

// The limits `key create` may put on a workspace key: --scopes, --bases, --expires, --cap. The CLI
// speaks for the workspace (its operator holds the database), so any limit is allowed; only the
// values are checked.

const list = (input: CommandInput, name: string) =>
  input.options[name] === undefined
    ? undefined
    : stringOption(input, name)
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);

export async function keyLimits(tx: Tx, workspaceId: string, input: CommandInput): Promise<Omit<NewKey, "name">> {
  const scopes = list(input, "scopes");
  const bad = scopes?.find((s) => !isKeyScope(s));
  if (bad) throw new UsageError(`--scopes: "${bad}" is not a scope (rows:read, rows:write, schema:write, …).`);
  const baseIds = list(input, "bases");
  if (baseIds?.length) {
    const found = await tx.base.findMany({ where: { workspaceId, id: { in: baseIds } }, select: { id: true } });
    const missing = baseIds.find((id) => !found.some((b) => b.id === id));
    if (missing) throw new UsageError(`--bases: no base "${missing}" in this workspace.`);
  }
  let expiresAt: Date | undefined;
  if (input.options.expires !== undefined) {
    expiresAt = new Date(stringOption(input, "expires"));
    if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now())
      throw new UsageError("--expires must be a future ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z.");
  }
  return { scopes, baseIds, expiresAt, dailyCreditCap: intOption(input, "cap") };
}
