import { parseArgs } from "node:util";
import { loadConfig, type Env } from "../config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../runtime.ts";
import { DataDirBusyError } from "../db/data-dir-lock.ts";
import { isAppError } from "../errors.ts";
import { UsageError, type CliCommand, type CommandInput } from "./command.ts";
import { COMMANDS } from "./commands.ts";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Redraws a progress bar in place; only when stderr is a terminal. */
  progress?: (text: string) => void;
}

/** Exit codes: 0 done, 1 the command failed, 2 the embedded database is busy, 64 wrong usage. */
export const EXIT = { ok: 0, failed: 1, busy: 2, usage: 64 } as const;

const consoleIo: CliIo = {
  out: (l) => console.log(l),
  err: (l) => console.error(l),
  progress: process.stderr.isTTY ? (t) => void process.stderr.write(t) : undefined,
};

function help(io: CliIo, commands: CliCommand[]) {
  io.out("Usage: npm run cli -- <command> [options]");
  io.out("");
  const width = Math.max(...commands.map((c) => c.path.length));
  for (const c of commands) io.out(`  ${c.path.padEnd(width)}  ${c.summary}`);
  io.out("");
  io.out("The database comes from the environment: DATABASE_URL (PostgreSQL), else the embedded");
  io.out("database in DATA_DIR (default ./data), which only one process may open at a time.");
}

const usageLine = (c: CliCommand) => `Usage: npm run cli -- ${c.path} ${c.usage}`;

function parse(command: CliCommand, args: string[]) {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([k, o]) => [k, { type: o.type, multiple: o.multiple ?? false }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split(". ")[0]}.`);
  }
  for (const [name, o] of Object.entries(command.options)) {
    if (o.required && parsed.values[name] === undefined) throw new UsageError(`--${name} is required.`);
  }
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new UsageError(
      max === 0
        ? `Unexpected argument "${parsed.positionals[0]}".`
        : `Expected ${min === max ? min : `${min} to ${max}`} argument(s).`,
    );
  }
  return {
    options: parsed.values as Record<string, string | boolean | string[] | undefined>,
    positionals: parsed.positionals,
  };
}

/**
 * Runs one CLI command against the database the environment names (or, for a client of a running
 * server, with the configuration alone) and returns the exit code.
 * Errors are printed as one clear sentence, never as a stack trace.
 */
export async function runCli(argv: string[], env: Env, io: CliIo = consoleIo, commands = COMMANDS): Promise<number> {
  if (argv.length === 0 || ["help", "--help", "-h"].includes(argv[0])) {
    help(io, commands);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const command = commands
    .filter((c) => c.path.split(" ").every((w, i) => argv[i] === w))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!command) {
    io.err(
      `error: Unknown command "${argv
        .filter((a) => !a.startsWith("-"))
        .slice(0, 2)
        .join(" ")}".`,
    );
    help(io, commands);
    return EXIT.usage;
  }
  const rest = argv.slice(command.path.split(" ").length);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(usageLine(command));
    io.out(command.summary);
    return EXIT.ok;
  }

  let rt: Runtime | undefined;
  let input: CommandInput | undefined;
  try {
    input = { ...parse(command, rest), out: io.out, err: io.err, progress: io.progress };
    if (command.runtime === false) {
      await command.run(loadConfig(env), input);
      return EXIT.ok;
    }
    // Commands run no enrichment: no queue engine to start (pending work waits for a worker).
    rt = await createRuntime(loadConfig(env), { queue: "database" });
    await command.run(rt, input);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof DataDirBusyError && command.runtime !== false && command.whenBusy && input) {
      try {
        await command.whenBusy(loadConfig(env), input);
        return EXIT.ok;
      } catch (busy) {
        return report(busy, io, command);
      }
    }
    return report(e, io, command);
  } finally {
    if (rt) await stopRuntime(rt).catch(() => undefined);
  }
}

function report(e: unknown, io: CliIo, command: CliCommand): number {
  if (e instanceof DataDirBusyError) {
    io.err(`error: ${e.message}`);
    return EXIT.busy;
  }
  if (e instanceof UsageError) {
    io.err(`error: ${e.message}`);
    io.err(usageLine(command));
    return EXIT.usage;
  }
  if (isAppError(e)) {
    io.err(`error: ${e.message} (${e.code})`);
    return EXIT.failed;
  }
  io.err(`error: ${e instanceof Error ? e.message : String(e)}`);
  return EXIT.failed;
}
