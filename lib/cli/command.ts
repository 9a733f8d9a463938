import type { Runtime } from "../runtime.ts";
import type { Config } from "../config.ts";

/** What a command receives: its parsed options, its positional arguments and where to write. */
export interface CommandInput {
  options: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  out: (line: string) => void;
  /** Notes and warnings, apart from the result on `out` (which --json keeps machine-readable). */
  err: (line: string) => void;
  /** A progress bar redrawn in place; absent when stderr is not a terminal. */
  progress?: (text: string) => void;
}

interface CommandShape {
  /** The words that select it, e.g. "workspace create". */
  path: string;
  summary: string;
  /** The arguments after the path, for help, e.g. "--name <name> [--credits <n>]". */
  usage: string;
  /** `multiple`: the option may be given more than once (its value is then a list). */
  options: Record<string, { type: "string" | "boolean"; required?: boolean; multiple?: boolean }>;
  /** Positional arguments allowed after the options (export/import take a file). */
  positionals?: { min: number; max: number };
}

/** A command on the database the environment names: the runner opens the runtime around `run`. */
export interface DatabaseCommand extends CommandShape {
  runtime?: true;
  run(rt: Runtime, input: CommandInput): Promise<void>;
  /** Run instead when the embedded database is held by a running server (see control.ts). */
  whenBusy?(config: Config, input: CommandInput): Promise<void>;
}

/**
 * A client of a running server's REST API (`eval`): the runner opens no database, so it works
 * while the server holds the embedded one, and the work runs in that server's engine.
 */
export interface ServerClientCommand extends CommandShape {
  runtime: false;
  run(config: Config, input: CommandInput): Promise<void>;
}

/** One CLI command. The table in commands.ts lists them all; the runner parses the options each declares. */
export type CliCommand = DatabaseCommand | ServerClientCommand;

/** A mistake in how the CLI was called: printed with the command's usage, exit code 64. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function stringOption(input: CommandInput, name: string): string {
  const v = input.options[name];
  if (typeof v !== "string" || v.trim() === "") throw new UsageError(`--${name} needs a value.`);
  return v.trim();
}

export function intOption(input: CommandInput, name: string): number | undefined {
  const v = input.options[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== "string" || !/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) {
    throw new UsageError(`--${name} must be a whole number of 0 or more.`);
  }
  return n;
}

/** Left-aligned columns for list output. */
export function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd(),
  );
}
