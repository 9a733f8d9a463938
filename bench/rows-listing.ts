import type { Driver } from "./rows-floor.ts";
import { selectAndStringify } from "./rows-floor.ts";
import { median, timed } from "./rows-measures.ts";

// bench:rows with BENCH_ONLY=list: the listing's figures alone (Get Rows at 10,000 and 100,000,
// gzip, the server's RSS), each beside the driver's floor read after the server stopped.

export interface ListingTimes {
  get10k: number[];
  get100k: number[];
  gzip100k: number;
  growth: number;
  rssBefore: number;
}

const ms = (t: number) => `${t.toFixed(0)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export async function listingFigures(
  store: string,
  driver: Driver,
  bases: { sheet: { id: string } }[],
  t: ListingTimes,
) {
  console.log("   floors through the driver, on the same database");
  const sel10k = [];
  for (let i = 0; i < 3; i++) sel10k.push(await timed(() => selectAndStringify(driver, bases[0].sheet.id)));
  const sel100k = [];
  for (let i = 0; i < 2; i++) sel100k.push(await timed(() => selectAndStringify(driver, bases[3].sheet.id)));
  const [r10, f10, r100, f100] = [median(t.get10k), median(sel10k), Math.min(...t.get100k), Math.min(...sel100k)];
  return [
    {
      store,
      measure: "Get Rows 10,000",
      value: ms(r10),
      floor: ms(f10),
      ratio: ratio(r10, f10),
      target: "≤ 2×",
      ok: r10 / f10 <= 2,
    },
    {
      store,
      measure: "Get Rows 100,000",
      value: ms(r100),
      floor: ms(f100),
      ratio: ratio(r100, f100),
      target: "≤ 2×",
      ok: r100 / f100 <= 2,
    },
    {
      store,
      measure: "Get Rows 100,000, gzip-encoded",
      value: ms(t.gzip100k),
      floor: ms(f100),
      ratio: ratio(t.gzip100k, f100),
      target: "",
      ok: true,
    },
    {
      store,
      measure: "server RSS growth, streaming 100,000",
      value: `${(t.growth / 2 ** 20).toFixed(0)} MB`,
      floor: `${(t.rssBefore / 2 ** 20).toFixed(0)} MB before`,
      ratio: "",
      target: "< 150 MB",
      ok: t.growth < 150 * 2 ** 20,
    },
  ];
}
