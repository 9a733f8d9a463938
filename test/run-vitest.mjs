// The vitest suites in two passes: every file in parallel, then the *.alone.test.ts files, which
// measure responsiveness, one at a time on an otherwise idle machine.
//
// A test worker killed by a signal (V8 has aborted on a failed internal check in the embedded
// database's WebAssembly on a loaded machine) is not a test's verdict: when crashes are all that
// went wrong, the crashed files run once more, on their own, and decide the pass.
import { spawn } from "node:child_process";
import path from "node:path";

const CRASH = /Worker exited unexpectedly with signal (SIG[A-Z]+) during \w+ state while running test file (\S+)/;
const SUMMARY = /^\s*Test Files\s+(.*)$/;
const ANSI = /\x1b\[[0-9;]*m/g;

function vitest(env, files = []) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["--no-install", "vitest", "run", "--config", "test/vitest.config.ts", ...files], {
      stdio: ["inherit", "pipe", "pipe"],
      env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    const crashed = new Set();
    let summary = "";
    const scan = (stream, to) => {
      let partial = "";
      stream.on("data", (chunk) => {
        to.write(chunk);
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop() ?? "";
        for (const raw of lines) {
          const line = raw.replace(ANSI, "");
          const crash = CRASH.exec(line);
          if (crash) crashed.add(path.relative(process.cwd(), crash[2]));
          const s = SUMMARY.exec(line);
          if (s) summary = s[1];
        }
      });
    };
    scan(child.stdout, process.stdout);
    scan(child.stderr, process.stderr);
    child.on("close", (code) => resolve({ status: code ?? 1, crashed: [...crashed], summary }));
  });
}

async function pass(env) {
  const first = await vitest(env);
  if (first.status === 0 || first.crashed.length === 0 || /\bfailed\b/.test(first.summary)) return first.status;
  console.log(`\n== test workers crashed (not a test failure): running again ${first.crashed.join(", ")}`);
  return (await vitest(env, first.crashed)).status;
}

export async function runVitest(env) {
  const status = await pass(env);
  if (status !== 0) return status;
  console.log("\n== suites that run alone (*.alone.test.ts)");
  return pass({ ...env, VITEST_ALONE: "1" });
}
