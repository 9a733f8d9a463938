// Runs `prisma generate` without letting the CLI fetch a schema engine: generate does not
// need one, and these machines may be offline.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY && existsSync("/bin/true")) env.PRISMA_SCHEMA_ENGINE_BINARY = "/bin/true";
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
