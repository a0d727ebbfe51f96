// Batches drawn at random from a seed, for tests that check a bulk write against a model
// applying items one by one: the same batches every run, so a failure reproduces.
import { expect } from 'vitest';
import { as, type TestApp, type TestSupplier } from './app.ts';

/** Seeded draws (a linear congruential generator). */
export function seeded(seed: number) {
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T,>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  return { random, pick };
}
export type Draw = ReturnType<typeof seeded>;

/**
 * `count` batches of 1 to 8 items: some all new, some all naming codes already written
 * (`written()`, read before each item) or sent earlier in the batch, most mixed. A new code
 * is `R-1`, `R-2`, ...; `item` fills in the rest from the same draws.
 */
export function* drawnBatches<Item extends { internalCode: string }>(
  draw: Draw,
  count: number,
  written: () => Iterable<string>,
  item: (code: string, batch: number, i: number) => Item,
): Generator<Item[]> {
  const { random, pick } = draw;
  let next = 0;
  for (let batch = 0; batch < count; batch++) {
    const newShare = pick([0, 1, 0.5, 0.3, 0.8]);
    const items: Item[] = [];
    for (let i = 0; i < 1 + Math.floor(random() * 8); i++) {
      const known = [...written(), ...items.map((x) => x.internalCode)];
      const code = known.length === 0 || random() < newShare ? `R-${++next}` : pick(known);
      items.push(item(code, batch, i));
    }
    yield items;
  }
}

/** The reference a bulk write is checked against: applies items one after another, and holds the rows it expects. */
export interface ItemModel<Item, Row> {
  readonly rows: Map<string, Row>;
  apply(item: Item): 'completed' | 'failed';
}

/** Sends the items as one batch to `url` and checks every outcome and every row (`stored()`) against the model. */
export async function stepAgainstModel<Item extends { internalCode: string }, Row>(
  t: TestApp,
  s: TestSupplier,
  url: string,
  model: ItemModel<Item, Row>,
  items: Item[],
  stored: () => Promise<Map<string, Row>>,
) {
  const outcomes = items.map((item) => model.apply(item));
  const { ids, statuses } = await t.runBatch(s, url, { upsert: items });
  expect(statuses[0]).toMatchObject({ status: outcomes.includes('completed') ? 'processed' : 'failed', total: items.length, completed: outcomes.filter((o) => o === 'completed').length });
  const detail = (await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  expect(detail.map((d: { code: string; status: string }) => [d.code, d.status])).toEqual(items.map((item, i) => [item.internalCode, outcomes[i]]));
  expect(await stored()).toEqual(model.rows);
}

/**
 * Sends `count` batches drawn from `seed` as `drawnBatches` draws them (`item` fills each
 * in from the same draws), each through `step`, which checks it against the model.
 */
export async function stepDrawnBatches<Item extends { internalCode: string }, Row>(
  seed: number,
  count: number,
  model: ItemModel<Item, Row>,
  item: (code: string, batch: number, i: number, draw: Draw) => Item,
  step: (items: Item[]) => Promise<void>,
) {
  const draw = seeded(seed);
  for (const items of drawnBatches(draw, count, () => model.rows.keys(), (code, batch, i) => item(code, batch, i, draw))) await step(items);
}
