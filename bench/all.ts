// npm run bench:all — every benchmark in turn, each in its own process (so that one's memory and
// database never colour the next's figures); a benchmark that misses a goal does not stop the rest.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
);
const benches = scripts.filter((s) => s.startsWith("bench:") && s !== "bench:all");
const outcomes: string[] = [];
let missed = 0;
for (const bench of benches) {
  console.log(`\n######## ${bench}`);
  const t0 = performance.now();
  const r = spawnSync("npm", ["run", "--silent", bench], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) missed++;
  outcomes.push(
    `${bench.padEnd(14)} ${r.status === 0 ? "ok" : `exit ${r.status ?? r.signal}`}  ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
console.log(`\n${outcomes.join("\n")}`);
process.exit(missed === 0 ? 0 : 1);
