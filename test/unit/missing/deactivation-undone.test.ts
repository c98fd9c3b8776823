import { describe, expect, it } from 'vitest';
import type { DeactivatedProduct, DeactivatedStore } from '../../../src/missing/deactivated-store.js';
import { endUndoneDeactivation } from '../../../src/missing/deactivation-undone.js';
import type { ReplacedValues } from '../../../src/sync/replaced-values.js';

/** A store holding `record` (kept by its product's id), telling what was done to it. */
function storeOf(record: DeactivatedProduct | null) {
  const done: string[] = [];
  const store = {
    getMany: async (ids: string[]) => new Map(record && ids.includes(record.id) ? [[record.id, record]] : []),
    clear: async (id: string) => void done.push(`clear ${id}`),
    narrow: async (id: string, fields: readonly string[]) =>
      void done.push(`narrow ${id} ${fields.join(',')}`),
  } as unknown as DeactivatedStore;
  return { store, done };
}

const DEACTIVATED: DeactivatedProduct = {
  id: '9',
  former: { quantity: 21, status: 'publish' },
  set: { quantity: 0, status: 'draft' },
};
/** What the run's deactivating PUT replaced. */
const REPLACED: ReplacedValues = {
  key: 'C3',
  fields: { quantity: { before: 21, sent: 0 }, status: { before: 'publish', sent: 'draft' } },
};
const product = (put: Record<string, unknown>, alreadyBack: string[] = []) => ({
  id: '9',
  key: 'C3',
  put: put as never,
  alreadyBack,
});

describe('endUndoneDeactivation: a revert that put back what --missing set ends the product’s deactivated state', () => {
  it('every --missing field back (put, or back already): the record goes', async () => {
    const { store, done } = storeOf(DEACTIVATED);
    await endUndoneDeactivation(store, product({ quantity: 21 }, ['status']), REPLACED);
    expect(done).toEqual(['clear 9']);
  });

  it('one field left alone (changed since the run): the record keeps that field only', async () => {
    const { store, done } = storeOf(DEACTIVATED);
    await endUndoneDeactivation(store, product({ quantity: 21 }), REPLACED);
    expect(done).toEqual(['narrow 9 status']);
  });

  it('a run whose writes were not the deactivation (another value, other fields): the record stays', async () => {
    const priced: ReplacedValues = { key: 'C3', fields: { quantity: { before: 21, sent: 4 } } };
    const { store, done } = storeOf(DEACTIVATED);
    await endUndoneDeactivation(store, product({ quantity: 21 }), priced);
    await endUndoneDeactivation(store, product({ price: 3 }), {
      key: 'C3',
      fields: { price: { before: 3, sent: 4 } },
    });
    expect(done).toEqual([]);
  });

  it("another product's record, or none: nothing is done", async () => {
    const other = storeOf({ ...DEACTIVATED, id: '10' });
    await endUndoneDeactivation(other.store, product({ quantity: 21, status: 'publish' }), REPLACED);
    const none = storeOf(null);
    await endUndoneDeactivation(none.store, product({ quantity: 21, status: 'publish' }), REPLACED);
    expect([...other.done, ...none.done]).toEqual([]);
  });
});
