import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { acquireDataDirLock, DataDirBusyError } from "../../lib/db/data-dir-lock.ts";

const dir = () => mkdtempSync(path.join(tmpdir(), "cw-lock-"));

describe("the embedded data directory lock", () => {
  it("refuses a directory held by a live process, and takes over one whose holder is gone", async () => {
    const d = dir();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    writeFileSync(path.join(d, "cellwright.lock"), `${child.pid}:${start}`);
    expect(() => acquireDataDirLock(d)).toThrow(DataDirBusyError);
    // A recorded start time that is not the process's own means the pid was reused.
    writeFileSync(path.join(d, "cellwright.lock"), `${child.pid}:1`);
    acquireDataDirLock(d).release();
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    writeFileSync(path.join(d, "cellwright.lock"), `${child.pid}:${start}`);
    const lock = acquireDataDirLock(d);
    expect(readFileSync(path.join(d, "cellwright.lock"), "utf8")).toMatch(new RegExp(`^${process.pid}:\\d+$`));
    lock.release();
    rmSync(d, { recursive: true, force: true });
  });
});
