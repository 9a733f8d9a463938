import { describe, expect, it } from "vitest";
import { CellCancelled, createWorkerSlots } from "../../lib/jobs/worker-slots.ts";
import type { CellJob, CellWorker } from "../../lib/jobs/types.ts";

// The slots hand a claim's jobs to the worker to read ahead, and a job cancelled while it waits in
// the buffer starts already aborted: what was read ahead for it still says it is running. With a
// call limit, a run whose model call has answered keeps its slot but no longer counts as a call.

const job = (n: number): CellJob => ({
  rowId: `sr_${n}`,
  columnId: "scol_a",
  sheetId: "ss_1",
  generation: 1,
  attempts: 0,
});

function recordingWorker() {
  const started: { job: CellJob; aborted: boolean; reason: unknown }[] = [];
  const prepared: CellJob[][] = [];
  const release: (() => void)[] = [];
  const worker: CellWorker = Object.assign(
    async (j: CellJob, signal: AbortSignal) => {
      started.push({ job: j, aborted: signal.aborted, reason: signal.reason });
      await new Promise<void>((resolve) => release.push(resolve));
    },
    { prepare: (jobs: readonly CellJob[]) => void prepared.push([...jobs]) },
  );
  return { worker, started, prepared, release };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("worker slots", () => {
  it("offers each claim's jobs to the worker's read-ahead, once, as they join the buffer", () => {
    const w = recordingWorker();
    const slots = createWorkerSlots(1, () => undefined);
    slots.start(w.worker);
    slots.enqueue([job(1), job(2)]);
    slots.enqueue([]);
    slots.enqueue([job(3)]);
    expect(w.prepared.map((batch) => batch.map((j) => j.rowId))).toEqual([["sr_1", "sr_2"], ["sr_3"]]);
    expect(w.started.map((s) => s.job.rowId)).toEqual(["sr_1"]);
    expect(slots.buffer.map((j) => j.rowId)).toEqual(["sr_2", "sr_3"]);
  });

  it("starts a job cancelled in the buffer with an aborted signal, and the others as usual", async () => {
    const w = recordingWorker();
    const finished: string[] = [];
    // As the queues do: a finished run makes room for the next.
    const slots = createWorkerSlots(1, (j) => {
      finished.push(j.rowId);
      slots.dispatch();
    });
    slots.start(w.worker);
    slots.enqueue([job(1), job(2), job(3)]);
    slots.abort([{ rowId: "sr_2", columnId: "scol_a" }]);
    // The running one is aborted too, by the same call.
    slots.abort([{ rowId: "sr_1", columnId: "scol_a" }]);
    for (let i = 0; i < 3; i++) {
      w.release.shift()?.();
      await tick();
    }
    expect(w.started.map((s) => [s.job.rowId, s.aborted])).toEqual([
      ["sr_1", false],
      ["sr_2", true],
      ["sr_3", false],
    ]);
    expect(w.started[1].reason).toBeInstanceOf(CellCancelled);
    expect(finished).toEqual(["sr_1", "sr_2", "sr_3"]);
  });

  it("forgets a cancellation once the job has started, so a later claim of the cell runs normally", async () => {
    const w = recordingWorker();
    const slots = createWorkerSlots(1, () => slots.dispatch());
    slots.start(w.worker);
    slots.enqueue([job(1), job(2)]);
    slots.abort([{ rowId: "sr_2", columnId: "scol_a" }]);
    w.release.shift()!();
    await tick();
    w.release.shift()!();
    await tick();
    slots.enqueue([job(2)]);
    expect(w.started.map((s) => [s.job.rowId, s.aborted])).toEqual([
      ["sr_1", false],
      ["sr_2", true],
      ["sr_2", false],
    ]);
  });

  it("with a call limit, starts the next job when a call answers, while the answered attempt keeps its slot", async () => {
    const w = recordingWorker();
    let permits = 1;
    const slots = createWorkerSlots(
      3,
      () => slots.dispatch(),
      () => permits,
    );
    slots.start(w.worker);
    slots.enqueue([job(1), job(2), job(3), job(4)]);
    expect(w.started.map((s) => s.job.rowId)).toEqual(["sr_1"]);
    // sr_1's call answered: its value is being stored, and sr_2 takes the permit.
    slots.answered({ rowId: "sr_1", columnId: "scol_a" });
    expect(w.started.map((s) => s.job.rowId)).toEqual(["sr_1", "sr_2"]);
    expect([slots.running, slots.calling]).toEqual([2, 1]);
    // A second permit: sr_3 starts; three slots are then full, so sr_4 waits though sr_2 answers.
    permits = 2;
    slots.dispatch();
    slots.answered({ rowId: "sr_2", columnId: "scol_a" });
    expect(w.started.map((s) => s.job.rowId)).toEqual(["sr_1", "sr_2", "sr_3"]);
    expect([slots.running, slots.calling]).toEqual([3, 1]);
    // sr_1 is stored: its slot frees and sr_4 starts.
    w.release.shift()!();
    await tick();
    expect(w.started.map((s) => s.job.rowId)).toEqual(["sr_1", "sr_2", "sr_3", "sr_4"]);
    expect([slots.running, slots.calling]).toEqual([3, 2]);
  });
});
