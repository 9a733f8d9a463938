import type { Runtime } from "../runtime.ts";
import { createWorkspace, findWorkspaceByName } from "../workspaces.ts";
import { insertApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys.ts";
import { keyLimits } from "./key-options.ts";
import { intOption, stringOption, table, UsageError, type CliCommand, type CommandInput } from "./command.ts";
import { CREDITS_COMMANDS } from "./credits-command.ts";
import { EXPORT_IMPORT_COMMANDS } from "./export-import-command.ts";
import { EVAL_COMMAND } from "./eval-command.ts";
import { FIND_COMMAND } from "./find-command.ts";
import { SCHEDULE_COMMANDS } from "./schedule-command.ts";
import { createSignInLink } from "../auth/sign-in-link.ts";
import { linkOriginOf, passwordResetLinkFromServer, signInLinkFromServer } from "./control.ts";
import { passwordResetForEmail } from "../auth/people.ts";
import { recordAudit } from "../audit/index.ts";

// The command table. A new command (credits add, export, import, eval, find) is one more entry here.

async function workspaceId(rt: Runtime, input: CommandInput): Promise<{ id: string; name: string }> {
  return findWorkspaceByName(rt.db.prisma, stringOption(input, "workspace"));
}

function printKey(input: CommandInput, key: { id: string; name: string; key: string }) {
  if (input.options.json) return;
  input.out(`API key ${key.id} ("${key.name}"). It is shown only this once; store it now:`);
  input.out("");
  input.out(`  ${key.key}`);
  input.out("");
}

const workspaceOption = (input: CommandInput) =>
  input.options.workspace === undefined ? undefined : stringOption(input, "workspace");

function printLink(input: CommandInput, url: string, expiresAt: string) {
  input.out(input.options.json ? JSON.stringify({ url, expiresAt }) : `Sign in: ${url}`);
}

function emailArgument(input: CommandInput): string {
  const email = input.positionals[0]?.trim();
  if (!email) throw new UsageError("Name the user's email: password-reset-link <email>.");
  return email;
}

function printResetLink(input: CommandInput, url: string, expiresAt: string) {
  input.out(input.options.json ? JSON.stringify({ url, expiresAt }) : `Set a new password: ${url}`);
}

export const COMMANDS: CliCommand[] = [
  {
    path: "workspace create",
    summary: "Create a workspace and print its first API key.",
    usage: "--name <name> [--credits <n>] [--json]",
    options: { name: { type: "string", required: true }, credits: { type: "string" }, json: { type: "boolean" } },
    async run(rt, input) {
      const credits = intOption(input, "credits");
      const created = await rt.db.prisma.$transaction((tx) =>
        createWorkspace(tx, stringOption(input, "name"), credits),
      );
      if (input.options.json) return input.out(JSON.stringify({ workspace: created.workspace, key: created.key }));
      input.out(
        `Workspace "${created.workspace.name}" created (${created.workspace.id}), ${credits === undefined ? "unlimited credits" : `${credits} credits`}.`,
      );
      printKey(input, created.key);
    },
  },
  {
    path: "key create",
    summary: "Create another API key in a workspace and print it.",
    usage:
      "--workspace <name> [--name <key name>] [--scopes rows:read,…] [--bases <id>,…] [--expires <ISO date>] [--cap <credits a day>] [--json]",
    options: {
      workspace: { type: "string", required: true },
      name: { type: "string" },
      scopes: { type: "string" },
      bases: { type: "string" },
      expires: { type: "string" },
      cap: { type: "string" },
      json: { type: "boolean" },
    },
    async run(rt, input) {
      const ws = await workspaceId(rt, input);
      const name = input.options.name === undefined ? "CLI key" : stringOption(input, "name");
      const limits = await keyLimits(rt.db.prisma, ws.id, input);
      const key = await insertApiKey(rt.db.prisma, ws.id, { name: name.slice(0, 100), ...limits });
      await cliAudit(rt, ws.id, "key.create", key);
      if (input.options.json) return input.out(JSON.stringify(key));
      printKey(input, key);
    },
  },
  {
    path: "key list",
    summary: "List a workspace's API keys (never their secrets).",
    usage: "--workspace <name> [--json]",
    options: { workspace: { type: "string", required: true }, json: { type: "boolean" } },
    async run(rt, input) {
      const keys = await listApiKeys(rt.db.prisma, (await workspaceId(rt, input)).id);
      if (input.options.json) return input.out(JSON.stringify(keys));
      if (keys.length === 0) return input.out("No API keys.");
      const rows = keys.map((k) => [
        k.id,
        k.name,
        `${k.prefix}…`,
        k.createdAt,
        k.lastUsedAt ?? "never",
        k.revokedAt ? `revoked ${k.revokedAt}` : "active",
      ]);
      for (const line of table([["ID", "NAME", "PREFIX", "CREATED", "LAST USED", "STATUS"], ...rows])) input.out(line);
    },
  },
  {
    path: "key revoke",
    summary: "Revoke an API key; requests with it get 401 from then on.",
    usage: "--workspace <name> --id <key_…> [--json]",
    options: {
      workspace: { type: "string", required: true },
      id: { type: "string", required: true },
      json: { type: "boolean" },
    },
    async run(rt, input) {
      const ws = await workspaceId(rt, input);
      const key = await revokeApiKey(rt.db.prisma, ws.id, stringOption(input, "id"));
      await cliAudit(rt, ws.id, "key.revoke", key);
      if (input.options.json) return input.out(JSON.stringify(key));
      input.out(`API key ${key.id} ("${key.name}") is revoked.`);
    },
  },
  {
    path: "sign-in-link",
    summary: "Print a one-time link that signs a browser in (valid 15 minutes, once); works while the server runs.",
    usage: "[--workspace <name>] [--json]",
    options: { workspace: { type: "string" }, json: { type: "boolean" } },
    async run(rt, input) {
      const link = await createSignInLink(rt.db.prisma, rt.config, workspaceOption(input));
      printLink(input, link.url, link.expiresAt.toISOString());
    },
    async whenBusy(config, input) {
      const link = await signInLinkFromServer(config, workspaceOption(input));
      printLink(input, link.url, link.expiresAt);
    },
  },
  {
    path: "password-reset-link",
    summary: "Print a link that sets a new password for the user with this email (valid 1 hour, once).",
    usage: "<email> [--json]",
    options: { json: { type: "boolean" } },
    positionals: { min: 1, max: 1 },
    async run(rt, input) {
      const link = await passwordResetForEmail(rt, emailArgument(input), linkOriginOf(rt.config));
      printResetLink(input, link.url, link.expiresAt.toISOString());
    },
    async whenBusy(config, input) {
      const link = await passwordResetLinkFromServer(config, emailArgument(input));
      printResetLink(input, link.url, link.expiresAt);
    },
  },
  ...CREDITS_COMMANDS,
  ...EXPORT_IMPORT_COMMANDS,
  EVAL_COMMAND,
  FIND_COMMAND,
  ...SCHEDULE_COMMANDS,
];

/**
 * The audit log's entry for a key made or revoked on the server's own machine: no person or key
 * asked over HTTP, so the key itself is named as the actor, with source "cli" and no address.
 */
async function cliAudit(rt: Runtime, workspaceId: string, action: string, key: { id: string; name: string }) {
  await recordAudit(
    rt.db.prisma,
    { workspaceId, actor: { type: "key", id: key.id }, ip: null },
    { action, targetType: "key", targetId: key.id, baseId: null, summary: { name: key.name, source: "cli" } },
  );
}
