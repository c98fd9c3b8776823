import { CLAIM_POLL_MS } from '../defaults.js';
import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import { renewWhile } from '../redis/renew-while.js';
import { backoffDelay } from '../seller-api/index.js';
import { compactFields } from './compact-value.js';
import { claimExpiresAt } from './create-claims.js';
import { diffProduct, type IndexedProduct, memoryAfterWrite, memoryOfShown } from './diff.js';
import { errorAction, pauseOf, reasonOf, retriesFor } from './error-policy.js';
import { formerFormNote, formerFormOf } from './former-key-forms.js';
import { formerKeyNote } from './former-keys.js';
import type { KnownProduct } from './id-map.js';
import { onlyFilter } from './only-filter.js';
import type { RowLookup } from './remote-index.js';
import { notesOfOutcome } from './row-notes.js';
import { diffOptionsOf, givenUp, type RowSyncContext } from './row-sync-context.js';
import { recordCreated, remember } from './row-writes.js';
import { writeUpdate } from './write-update.js';

type Outcome = (
  action: RowOutcome['action'],
  productId: string | null,
  status: RowOutcome['status'],
  error?: string,
  notes?: string[],
) => RowOutcome;

/**
 * Brings one row's product in line with the source: nothing, a PUT of the changed fields, or a POST.
 * Resolves to the row's outcome; rejects only with a pause (429, 401, budget, the API out of reach),
 * which leaves the row queued.
 */
export async function syncRow(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  lookup: RowLookup,
): Promise<RowOutcome> {
  const adopted = lookup.former?.adopted ? lookup.former.key : undefined;
  const earlier = formerFormOf(lookup);
  const outcome: Outcome = (action, productId, status, error = '', notes = []) => {
    const own = notesOfOutcome(upsert.notes ?? [], action, status);
    const written = action === 'update' && status === 'ok';
    // Found by its former key, or under its key as an earlier version wrote it (while the product
    // is that one, not one created anew): said, with the key once written.
    const former = adopted ? [formerKeyNote(adopted, written && sendsKey(ctx, upsert))] : [];
    const inForm = earlier?.match.id === productId ? [formerFormNote(earlier, upsert, ctx, written)] : [];
    const note = [...own, ...former, ...inForm, ...notes].join('; ');
    return { row: upsert.row, key: upsert.key, action, productId, status, error, ...(note ? { note } : {}) };
  };
  // Another product has the key its id column would give the product, or another row writes it.
  if (lookup.refused !== undefined) return outcome('invalid', null, 'failed', lookup.refused);
  // Found in the id map under the key's other Unicode form: recorded under that form again, so the
  // map keeps one entry per product (the report still names the row's key, `outcome` above).
  const recorded = lookup.knownAs === undefined ? upsert : { ...upsert, key: lookup.knownAs };
  // A row with a former key, or found under its key as an earlier version sent it: what it records
  // of its product removes the entry under that key, so it is recorded under the row's key alone.
  const moved = lookup.former ?? earlier?.match;
  const rowCtx = moved ? { ...ctx, former: { key: moved.key, id: moved.id } } : ctx;
  const created = lookup.createdByThisRun === true;
  const rekeyed = adopted !== undefined || (moved !== undefined && moved !== lookup.former);
  return syncAgainst(rowCtx, recorded, lookup.remote, lookup.known, created, outcome, rekeyed);
}

/** The row's write sends its match key (`sku`): not when `--create-only-fields` keeps it from a PUT. */
function sendsKey(ctx: RowSyncContext, upsert: ProductUpsert): boolean {
  return upsert.fields.sku !== undefined && !ctx.createOnly.has('sku');
}

async function syncAgainst(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  remote: IndexedProduct | undefined,
  known: KnownProduct | undefined,
  createdByThisRun: boolean,
  outcome: Outcome,
  /** Found by its former key or its key as Excel text: recorded under its key even when nothing is written. */
  adopted = false,
): Promise<RowOutcome> {
  const diff = onlyFilter(diffProduct(upsert, remote, known, diffOptionsOf(ctx)), ctx.only);
  switch (diff.action) {
    case 'invalid':
      return outcome('invalid', null, 'failed', diff.reason);
    case 'skipped':
      return outcome('skipped', null, 'ok', diff.reason);
    case 'unchanged': {
      if (createdByThisRun) {
        // A worker died after this run's create was applied: finish recording it, and report it.
        const memory = known ?? memoryAfterWrite(undefined, upsert.fields, remote?.values ?? null);
        await recordCreated(ctx, upsert, { id: diff.id, ...memory }, remote?.values ?? null, '');
        return outcome('create', diff.id, 'ok', '', diff.notes);
      }
      if (!ctx.dryRun) {
        const memory = known && withLearned(known, diff.learned);
        const seen = ctx.recordUnchanged
          ? memoryOfShown(memory, upsert.fields, remote?.values ?? {}, ctx.matchBy)
          : null;
        if (seen) await remember(ctx, upsert.key, { id: diff.id, ...seen });
        else if (memory && (memory !== known || adopted)) await remember(ctx, upsert.key, memory);
        else if (adopted) await remember(ctx, upsert.key, { id: diff.id, sent: {} });
      }
      return outcome('unchanged', diff.id, 'ok', '', diff.notes);
    }
    case 'update': {
      // A guarded run's update, planned so or a create that found the product made meanwhile; a dry
      // run's, weighed as the real run would: planned all the same, its hook's answer the row's note.
      const product = remote ?? { id: diff.id, values: {} };
      const heldFor = await ctx.heldUpdate?.(upsert, product, diff.fields, known);
      if (ctx.dryRun) {
        const notes = heldFor ? [...diff.notes, heldFor] : diff.notes;
        return outcome('update', diff.id, 'planned', '', notes);
      }
      if (heldFor) return outcome('update', diff.id, 'held', heldFor, diff.notes);
      const learned = known && withLearned(known, diff.learned);
      // An --incremental run records, with the write, the fields the product shows as the source says.
      const seen = ctx.recordUnchanged
        ? memoryOfShown(learned, upsert.fields, remote?.values ?? {}, ctx.matchBy)
        : null;
      const before = seen ? { id: diff.id, ...seen } : learned;
      const result = await writeUpdate(ctx, upsert, remote as IndexedProduct, diff.fields, before, true);
      if (result === 'gone') return create({ ...ctx, gone: (remote as IndexedProduct).id }, upsert, outcome);
      return 'failed' in result
        ? outcome('update', diff.id, 'failed', result.failed, diff.notes)
        : outcome('update', diff.id, 'ok', '', [...diff.notes, ...result.notes]);
    }
    case 'create':
      if (ctx.dryRun) return outcome('create', null, 'planned');
      return create(ctx, upsert, outcome);
  }
}

/**
 * Creates the row's product once, whatever else holds its key (create-claims.ts): a key created
 * meanwhile is diffed against the product made; a key another live create holds is waited for; a
 * key whose holder stopped is taken over, then looked for before it is sent again. A product whose
 * PUT or GET answered 404 (`ctx.gone`) stays in the id map until its create is recorded (it is
 * replaced) or fails for good (it is dropped): a create that stops the run (no API at the base URL,
 * a pause) leaves the map as it was.
 */
async function create(ctx: RowSyncContext, upsert: ProductUpsert, outcome: Outcome): Promise<RowOutcome> {
  let takeOver = '';
  for (;;) {
    const claim = await ctx.claims.claim(upsert.key, ctx.runId, takeOver, ctx.gone);
    switch (claim.kind) {
      case 'known': {
        const settled = await againstKnown(ctx, upsert, claim.product, outcome);
        if (settled !== 'gone') return settled;
        // Gone since it was recorded: the key is free to create again, replacing it.
        ctx = { ...ctx, gone: claim.product.id };
        takeOver = '';
        continue;
      }
      case 'held':
        await ctx.sleep(CLAIM_POLL_MS);
        takeOver = '';
        continue;
      case 'stale':
        takeOver = claim.value;
        continue;
      case 'claimed':
        return createClaimed(ctx, upsert, claim.token, takeOver, outcome);
    }
  }
}

/** Another create of this key was recorded since the run's snapshot: diff against that product. */
async function againstKnown(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  known: KnownProduct,
  outcome: Outcome,
): Promise<RowOutcome | 'gone'> {
  let remote: IndexedProduct;
  try {
    remote = ctx.index.indexed(await ctx.client.getProduct(known.id));
  } catch (error) {
    const action = errorAction(error, 'update');
    if (action === 'pause-seller' || action === 'stop') throw error;
    if (action !== 'recreate') return outcome('create', null, 'failed', reasonOf(error));
    return 'gone';
  }
  ctx.logger.info({ row: upsert.row, id: known.id }, 'the key was created meanwhile by another run');
  return syncAgainst(ctx, upsert, remote, known, false, outcome);
}

async function createClaimed(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  token: string,
  /** The stale claim taken over ('' for none): its holder stopped after its POST may have been applied. */
  takenOver: string,
  outcome: Outcome,
): Promise<RowOutcome> {
  return renewWhile(
    () => ctx.claims.renew(upsert.key, token),
    ctx.claims.claimMs / 3,
    async () => {
      if (takenOver !== '') {
        const found = await lookUp(ctx, upsert, takenOver);
        if (found) return await adopt(ctx, upsert, found, token, outcome);
      }
      return await post(ctx, upsert, token, outcome);
    },
  );
}

/**
 * Looks for the product of a stale claim's create. Its holder renews a claim every third of its
 * length while its create is under way, so a claim that expired (a holder killed mid-chunk) saw its
 * last POST before its expiry: any read begun since will do, the one under way included. The holder's
 * other claims expire within a third of a claim's length of this one: a read this row starts waits
 * until half a length past the expiry, so the rows of every chunk the holder had share it (at 100,000
 * products a read is ~1,000 requests of the seller's day). A claim left for a look-up (expiry 0) was
 * given up at an unknown instant before this row saw it: only a read begun from now will do.
 */
function lookUp(ctx: RowSyncContext, upsert: ProductUpsert, takenOver: string) {
  const expiresAt = claimExpiresAt(takenOver);
  if (!(expiresAt > 0)) return ctx.finder.find(upsert.key, upsert.fields, ctx.finder.mark());
  const markedAt = ctx.finder.markSince(expiresAt);
  return ctx.finder.find(upsert.key, upsert.fields, markedAt, expiresAt + ctx.claims.claimMs / 2);
}

async function post(ctx: RowSyncContext, upsert: ProductUpsert, token: string, outcome: Outcome) {
  const tries: unknown[] = [];
  for (let attempt = 1; ; attempt++) {
    let markedAt = 0;
    let answered = false;
    try {
      const created = await ctx.client.createProduct(upsert.fields);
      answered = true;
      markedAt = ctx.finder.mark();
      const found = created.id === null ? await ctx.finder.find(upsert.key, upsert.fields, markedAt) : null;
      const id = created.id ?? found?.id ?? null;
      if (id === null) {
        await dropGone(ctx, upsert);
        await ctx.claims.leaveForLookUp(upsert.key, token);
        return outcome(
          'create',
          null,
          'failed',
          'created, but the API answered without an id and it was not found',
        );
      }
      const shown = created.product ? compactFields(created.product.fields) : (found?.values ?? null);
      const memory = memoryAfterWrite(undefined, upsert.fields, shown);
      await recordCreated(ctx, upsert, { id, ...memory }, shown, token);
      return outcome('create', id, 'ok');
    } catch (error) {
      tries.push(error);
      markedAt = ctx.finder.mark();
      const action = errorAction(error, 'create');
      if (action === 'stop') {
        // Redis refused a write or lost the run's state. A POST stopped before it left frees the
        // key; after an answer, the claim stays (it expires), so whoever claims the key next looks
        // for the product first: the create may have been applied but not recorded.
        if (!answered) await ctx.claims.release(upsert.key, token).catch(() => undefined);
        throw error;
      }
      if (action === 'pause-seller') {
        // A 429, a 401 or a request never sent: certainly not applied, so the key is free again.
        await ctx.claims.release(upsert.key, token);
        throw error;
      }
      if (action === 'look-first') {
        const found = await ctx.finder.find(upsert.key, upsert.fields, markedAt);
        if (found) return adopt(ctx, upsert, found, token, outcome);
      }
      if ((action === 'retry' || action === 'look-first') && attempt <= retriesFor(error, ctx.retry)) {
        await ctx.sleep(backoffDelay(attempt, ctx.retry, ctx.random));
        continue;
      }
      // No try reached the API: not applied (the key is free again), and the row stays queued.
      const final = givenUp(ctx, error, tries);
      // Else the API answered: a product whose PUT answered 404 is gone for good. Dropped while the
      // claim holds the key: no other create can record it meanwhile.
      if (!pauseOf(final)) await dropGone(ctx, upsert);
      // An outcome still unknown leaves the key to be looked up by whoever creates it next.
      if (action === 'look-first') await ctx.claims.leaveForLookUp(upsert.key, token);
      else await ctx.claims.release(upsert.key, token);
      if (pauseOf(final)) throw final;
      return outcome('create', null, 'failed', reasonOf(error));
    }
  }
}

/** A product whose PUT answered 404, once a create's failure for good shows the API is there. */
async function dropGone(ctx: RowSyncContext, upsert: ProductUpsert): Promise<void> {
  if (ctx.gone !== undefined) await ctx.idMap.forget(upsert.key, ctx.gone);
}

/** The create had been applied after all: keep that product, and bring it in line if it differs. */
async function adopt(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  found: IndexedProduct,
  token: string,
  outcome: Outcome,
): Promise<RowOutcome> {
  ctx.logger.info({ row: upsert.row, id: found.id }, 'found the product of a create whose answer was lost');
  const memory = memoryAfterWrite(undefined, upsert.fields, found.values);
  // Recorded before the PUT that may follow: not held for the settle.
  await recordCreated(
    { ...ctx, rowWrites: undefined },
    upsert,
    { id: found.id, ...memory },
    found.values,
    token,
  );
  const diff = diffProduct(upsert, found, memory, { createOnly: ctx.createOnly, matchBy: ctx.matchBy });
  if (diff.action === 'update') {
    // Not this run's create after all (a claim taken over from another run): guarded as any update.
    const heldFor = await ctx.heldUpdate?.(upsert, found, diff.fields, { id: found.id, ...memory });
    if (heldFor) return outcome('update', found.id, 'held', heldFor);
    const result = await writeUpdate(ctx, upsert, found, diff.fields, { id: found.id, ...memory });
    if (typeof result === 'object' && 'failed' in result)
      return outcome('create', found.id, 'failed', result.failed);
  }
  return outcome('create', found.id, 'ok');
}

function withLearned(known: KnownProduct, learned: Record<string, string>): KnownProduct {
  if (Object.keys(learned).length === 0) return known;
  return { ...known, echo: { ...known.echo, ...learned } };
}
