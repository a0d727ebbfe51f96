import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * A list's page by offset and how many rows the whole list has (docs/conventions.md,
 * "Lists"): `base` is the list's rows (FROM, JOIN and WHERE), `select` picks and orders a
 * page of them; the page and the count are two statements sent side by side.
 */
export async function offsetPage<D, T extends keyof D, O>(
  base: SelectQueryBuilder<D, T, {}>,
  select: (base: SelectQueryBuilder<D, T, {}>) => SelectQueryBuilder<any, any, O>, // any: the page may join more tables
  f: { take: number; page: number },
) {
  const [rows, count] = await Promise.all([
    select(base)
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    // Typed by hand: Kysely cannot resolve a selection's type over a generic table.
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow() as Promise<{ n: number }>,
  ]);
  return { rows, total: count.n };
}
