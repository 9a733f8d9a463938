import type { Runtime } from "../runtime.ts";
import { findWorkspaceByName } from "../workspaces.ts";
import { balanceOf, setBalance, topUp } from "../credits/ledger.ts";
import { intOption, stringOption, UsageError, type CliCommand, type CommandInput } from "./command.ts";

// `credits add`, `credits set` and `credits show`: a workspace's balance from the shell.

const describe = (balance: number) => (balance === -1 ? "unlimited credits" : `${balance} credits`);

async function workspace(rt: Runtime, input: CommandInput) {
  return findWorkspaceByName(rt.db.prisma, stringOption(input, "workspace"));
}

function report(input: CommandInput, name: string, balance: number, verb: string) {
  if (input.options.json)
    return input.out(JSON.stringify({ workspace: name, balance: balance === -1 ? null : balance }));
  input.out(`Workspace "${name}" ${verb} ${describe(balance)}.`);
}

export const CREDITS_COMMANDS: CliCommand[] = [
  {
    path: "credits add",
    summary: "Add credits to a workspace's balance.",
    usage: "--workspace <name> --amount <n> [--json]",
    options: {
      workspace: { type: "string", required: true },
      amount: { type: "string", required: true },
      json: { type: "boolean" },
    },
    async run(rt, input) {
      const amount = intOption(input, "amount")!;
      if (amount <= 0) throw new UsageError("--amount must be 1 or more.");
      const ws = await workspace(rt, input);
      const balance = await rt.db.prisma.$transaction(async (tx) => {
        // Adding to an unlimited balance would silently turn it into a limited one.
        if ((await balanceOf(tx, ws.id)) === -1) {
          throw new Error(
            `Workspace "${ws.name}" has unlimited credits; use "credits set --amount <n>" to give it a limited balance.`,
          );
        }
        return topUp(tx, ws.id, amount);
      });
      report(input, ws.name, balance, "now has");
    },
  },
  {
    path: "credits set",
    summary: "Set a workspace's balance, or make it unlimited.",
    usage: "--workspace <name> (--amount <n> | --unlimited) [--json]",
    options: {
      workspace: { type: "string", required: true },
      amount: { type: "string" },
      unlimited: { type: "boolean" },
      json: { type: "boolean" },
    },
    async run(rt, input) {
      const amount = intOption(input, "amount");
      if ((amount === undefined) === !input.options.unlimited)
        throw new UsageError("Give either --amount <n> or --unlimited.");
      const ws = await workspace(rt, input);
      const balance = await rt.db.prisma.$transaction((tx) => setBalance(tx, ws.id, amount ?? null));
      report(input, ws.name, balance, "now has");
    },
  },
  {
    path: "credits show",
    summary: "Show a workspace's balance.",
    usage: "--workspace <name> [--json]",
    options: { workspace: { type: "string", required: true }, json: { type: "boolean" } },
    async run(rt, input) {
      const ws = await workspace(rt, input);
      report(input, ws.name, await balanceOf(rt.db.prisma, ws.id), "has");
    },
  },
];
