// `npm run cli -- <command>`: workspaces and API keys from the shell. See lib/cli/commands.ts.
import { runCli } from "./run.ts";

const code = await runCli(process.argv.slice(2), process.env);
process.exit(code);
