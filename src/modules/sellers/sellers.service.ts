// Sellers (README.md): the supplier loads them (PUT, batch) and reads them; a seller's
// order for a store that confirms its sellers' orders itself is kept as a proposal until
// one of the store's users accepts it (then placed, priced as that day) or declines it.
// Services without Fastify: the batch worker runs writeSellerRun, the routes the rest.
import type { Kysely, Transaction } from 'kysely';
import type { DB, OrderSeller } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, notFound, type FieldError } from '../../lib/errors.ts';
import { failed, lastPerKey, type ItemOutcome } from '../batch/batch.kinds.ts';
import { normaliseEmail } from '../people/people.service.ts';
import { existingStoreCodes } from '../stores/stores.repository.ts';
import type { StoreAppContext } from '../store-app/store-app.context.ts';
import type { BuyerContext } from '../store-app/store-app.membership.ts';
import { placeOrder, type PlaceOrderInput } from '../store-app/store-app.orders.ts';
import type { StoreContext } from '../store-app/store-app.pricing-context.ts';
import * as repo from './sellers.repository.ts';
import type { Proposal, Seller, SellerBody, SellerInput } from './sellers.schemas.ts';

const unique = <T>(values: T[]) => [...new Set(values)];

type Problem = FieldError & { code: 'REQUIRED' };

/** A seller signs in with a phone or an email: one of them is required (the schema checks each alone). */
function problemsOf(item: SellerBody): Problem[] {
  return item.phone || item.email ? [] : [{ pointer: '/phone', code: 'REQUIRED', message: 'give a phone, an email or both: the seller signs in with them' }];
}

const rejection = (problems: Problem[]) => new AppError(problems[0]!.code, problems[0]!.message, { errors: problems, status: 400 });
export const failedItem = (problems: Problem[]): ItemOutcome => failed(problems[0]!.code, `${problems[0]!.message} (${problems[0]!.pointer})`);

export interface RunResult {
  problems: Problem[][];
  /** Per item: the store codes it names that no store has yet (kept; README). */
  unknownStores: string[][];
}

/**
 * Checks and writes a run of sellers in order, set-based: one lookup of the stores named,
 * one statement for every valid item (the last of a code wins, as if written one after
 * the other). An item breaking a rule is left out and answered its problems.
 */
export async function writeSellerRun(trx: Transaction<DB>, supplierId: number, items: SellerInput[]): Promise<RunResult> {
  const stores = await existingStoreCodes(trx, supplierId, unique(items.flatMap((i) => i.storeInternalCodes ?? [])));
  const problems = items.map(problemsOf);
  const valid = items.filter((_, n) => problems[n]!.length === 0);
  await repo.writeSellers(
    trx,
    supplierId,
    lastPerKey(valid, (i) => i.internalCode).map((i) => ({
      code: i.internalCode,
      name: i.name,
      phone: i.phone ?? null,
      // Emails are matched without regard to case, as a store membership's.
      email: normaliseEmail(i.email) ?? null,
      stores: unique(i.storeInternalCodes ?? []),
    })),
  );
  return { problems, unknownStores: items.map((i) => unique(i.storeInternalCodes ?? []).filter((s) => !stores.has(s))) };
}

function view(row: repo.SellerRow): Seller {
  return {
    internalCode: row.internal_code,
    name: row.name,
    phone: row.phone,
    email: row.email,
    storeInternalCodes: row.stores,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function getSeller(db: Kysely<DB>, supplierId: number, code: string): Promise<Seller> {
  const row = await repo.sellerByCode(db, supplierId, code);
  if (!row) throw notFound('seller', code);
  return view(row);
}

/** PUT /seller/{internalCode}: creates or replaces the seller whole (a store left out is no longer served). */
export async function putSeller(db: Kysely<DB>, supplierId: number, code: string, body: SellerBody): Promise<Seller> {
  return inTransaction(db, async (trx) => {
    const { problems } = await writeSellerRun(trx, supplierId, [{ internalCode: code, ...body }]);
    if (problems[0]!.length > 0) throw rejection(problems[0]!);
    return view((await repo.sellerByCode(trx, supplierId, code))!);
  });
}

export async function listSellers(db: Kysely<DB>, supplierId: number, query: { search?: string; storeInternalCode?: string; take: number; page: number }) {
  const { rows, total } = await repo.listSellers(db, supplierId, query);
  return { data: rows.map(view), page: query.page, take: query.take, total, totalPages: Math.ceil(total / query.take) };
}

// The store's confirmation of its sellers' orders.

export async function storeSettings(db: Kysely<DB>, { store }: StoreContext) {
  return { confirmSellerOrders: await repo.confirmSellerOrders(db, store.id) };
}

export async function setStoreSettings(db: Kysely<DB>, { store }: StoreContext, body: { confirmSellerOrders: boolean }) {
  await repo.setConfirmSellerOrders(db, store.id, body.confirmSellerOrders);
  return { confirmSellerOrders: body.confirmSellerOrders };
}

/** Whether this order must wait for the store: placed by a seller, for a store that confirms its sellers' orders. */
export async function waitsForStore(db: Kysely<DB>, context: BuyerContext): Promise<boolean> {
  return context.seller !== undefined && (await repo.confirmSellerOrders(db, context.store.id));
}

function proposalView(row: repo.ProposalRow): Proposal {
  const seller = row.seller as OrderSeller;
  return {
    id: row.id,
    status: row.status,
    placedBy: seller,
    order: row.body as Proposal['order'],
    orderId: row.order_id,
    createdAt: new Date(row.created_at).toISOString(),
    decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
  };
}

/** Keeps a seller's order for the store's confirmation: nothing is priced for the supplier, nothing reaches it. */
export async function propose(db: Kysely<DB>, context: BuyerContext, input: PlaceOrderInput): Promise<Proposal> {
  const seller = context.seller!;
  const body = { lines: input.lines, ...(input.address ? { address: input.address } : {}), ...(input.notes ? { notes: input.notes } : {}), ...(input.deliveryDate ? { deliveryDate: input.deliveryDate } : {}) };
  const row = await repo.insertProposal(db, {
    supplierId: context.store.supplier_id,
    storeId: context.store.id,
    sellerId: seller.id,
    seller: { sellerInternalCode: seller.internalCode, name: seller.name },
    body,
  });
  return proposalView(row);
}

export async function listProposals(db: Kysely<DB>, { store }: StoreContext) {
  return { data: (await repo.proposalsOf(db, store.id)).map(proposalView) };
}

const proposalNotFound = (id: number) => notFound('proposal', String(id), '/params/proposalId');

/**
 * A store user accepts a seller's proposal: it is placed now as the store's order placed
 * by that seller (priced as today, refused whole as any order would be; the proposal
 * then awaits again). Whoever moves a proposal first wins; a second answer is a 409.
 */
export async function acceptProposal(ctx: StoreAppContext, personId: number, context: StoreContext, id: number, at: string) {
  const found = await repo.proposalById(ctx.db, context.store.id, id);
  if (!found) throw proposalNotFound(id);
  const claimed = await repo.decideProposal(ctx.db, context.store.id, id, 'ACCEPTED');
  if (!claimed) throw new AppError('PROPOSAL_DECIDED', `proposal ${id} was already ${found.status === 'AWAITING_STORE' ? 'decided' : found.status.toLowerCase()}`);
  const seller = claimed.seller as OrderSeller;
  try {
    const order = await placeOrder(ctx, personId, { ...context, seller: { id: 0, internalCode: seller.sellerInternalCode, name: seller.name } }, claimed.body as PlaceOrderInput, at);
    return { proposal: proposalView(await repo.recordProposalOrder(ctx.db, id, order.id)), order };
  } catch (error) {
    await repo.reopenProposal(ctx.db, id);
    throw error;
  }
}

export async function declineProposal(db: Kysely<DB>, context: StoreContext, id: number) {
  const found = await repo.proposalById(db, context.store.id, id);
  if (!found) throw proposalNotFound(id);
  const declined = await repo.decideProposal(db, context.store.id, id, 'DECLINED');
  if (!declined) throw new AppError('PROPOSAL_DECIDED', `proposal ${id} was already ${found.status.toLowerCase()}`);
  return proposalView(declined);
}
