// Which order of a waterfall's steps spends the fewest credits per value found, estimated from the
// column's history. A step only runs when every step before it missed, so a row's trace says what
// the steps that ran returned and nothing about the ones skipped after a winner. We therefore model
// each step by what it did whenever it ran (its hit rate and mean credits per call) and assume the
// steps hit independently of one another; under that model every order finds a value on the same
// share of rows, and only the credits spent on the way differ.

/** One step as observed: how often it ran, how often it gave a valid value and what it charged. */
export interface ObservedStep {
  calls: number;
  found: number;
  credits: number;
  /** Stays where it is: the model (its "found" is a confident guess, not a provider's record). */
  pinned?: boolean;
}

export interface OrderEstimate {
  /** The step indexes in the suggested order (the current order when nothing is cheaper). */
  order: number[];
  current: number | null;
  suggested: number | null;
  /** 1 − suggested / current; 0 when the current order is already the cheapest; null unknown. */
  saving: number | null;
  /** exhaustive: every order compared; ratio: sorted by credits per hit (more than 8 movable steps). */
  method: "exhaustive" | "ratio";
}

export const MAX_EXHAUSTIVE_STEPS = 8;

const hitRate = (s: ObservedStep) => (s.calls > 0 ? s.found / s.calls : 0);
const costPerCall = (s: ObservedStep) => (s.calls > 0 ? s.credits / s.calls : 0);

/**
 * Expected credits per value found for the steps in this order: Σ cost × P(every earlier step
 * missed), over P(some step hit). A step that never ran counts as free and never hitting: nothing
 * is known of it. null when no step ever found anything.
 */
export function creditsPerFound(steps: readonly ObservedStep[], order: readonly number[]): number | null {
  let reach = 1;
  let credits = 0;
  for (const i of order) {
    credits += reach * costPerCall(steps[i]);
    reach *= 1 - hitRate(steps[i]);
  }
  const found = 1 - reach;
  return found > 1e-12 ? credits / found : null;
}

/** The cheapest order per value found; pinned steps keep their positions, the others move around them. */
export function suggestOrder(steps: readonly ObservedStep[]): OrderEstimate {
  const current = steps.map((_, i) => i);
  const movable = current.filter((i) => !steps[i].pinned);
  const place = (arranged: readonly number[]) => {
    let k = 0;
    return current.map((i) => (steps[i].pinned ? i : arranged[k++]));
  };
  const currentCost = creditsPerFound(steps, current);
  let best = current;
  let bestCost = currentCost;
  let method: OrderEstimate["method"] = "exhaustive";
  if (movable.length > MAX_EXHAUSTIVE_STEPS) {
    method = "ratio";
    best = place(byRatio(steps, movable));
    bestCost = creditsPerFound(steps, best);
  } else {
    for (const arranged of permutations(movable)) {
      const order = place(arranged);
      const cost = creditsPerFound(steps, order);
      // Strictly cheaper only (beyond rounding), so a tie keeps the order the column already has.
      if (cost !== null && (bestCost === null || cost < bestCost - 1e-9)) {
        best = order;
        bestCost = cost;
      }
    }
  }
  if (currentCost !== null && bestCost !== null && bestCost > currentCost - 1e-9) {
    best = current;
    bestCost = currentCost;
  }
  const saving = currentCost === null || bestCost === null || currentCost === 0 ? null : 1 - bestCost / currentCost;
  return { order: best, current: currentCost, suggested: bestCost, saving, method };
}

/**
 * Ascending credits per hit: under independence this is the optimal order (swapping two adjacent
 * steps a, b saves credits exactly when cost(b)/hit(b) < cost(a)/hit(a)); a step that never hits
 * goes last, a free one first. Stable, so equal steps keep their order.
 */
function byRatio(steps: readonly ObservedStep[], indexes: readonly number[]): number[] {
  const ratio = (i: number) => {
    const p = hitRate(steps[i]);
    const c = costPerCall(steps[i]);
    if (p === 0) return Number.POSITIVE_INFINITY;
    return c / p;
  };
  return [...indexes].sort((a, b) => (ratio(a) === ratio(b) ? 0 : ratio(a) < ratio(b) ? -1 : 1));
}

function* permutations(items: readonly number[]): Generator<number[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (const [k, first] of items.entries()) {
    const rest = [...items.slice(0, k), ...items.slice(k + 1)];
    for (const tail of permutations(rest)) yield [first, ...tail];
  }
}
