import { rmSync } from "node:fs";

export default function teardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && !process.env.E2E_BASE_URL) rmSync(dir, { recursive: true, force: true });
}
