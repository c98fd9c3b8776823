import { describe, expect, it } from 'vitest';
import { notifyBody } from '../../../src/notify/payload.js';
import { runRecord } from '../../support/run-record.js';

describe('the notify text of a held run', () => {
  const held = (heldReason: string) =>
    notifyBody(
      'held',
      runRecord({ id: '20261122T020000-abcdef', sellerRef: 'abcdef0123456789', state: 'held', heldReason }),
    ).text;

  it('a whole run’s hold, whose reason says nothing was sent: said once', () => {
    // Before: "…more than --max-missing 20%: nothing was sent; nothing held was sent (…)".
    expect(
      held(
        '3 of 10 managed products would be deactivated (30%), more than --max-missing 20%: nothing was sent',
      ),
    ).toBe(
      'catalog-sync run 20261122T020000-abcdef held: 3 of 10 managed products would be deactivated (30%), ' +
        'more than --max-missing 20%: nothing was sent (catalog-sync approve 20261122T020000-abcdef) (seller abcdef0123456789)',
    );
  });

  it('the row guard’s hold, whose reason does not say it: nothing held was sent', () => {
    expect(held('2 rows held: their prices move more than --max-price-change 50%')).toBe(
      'catalog-sync run 20261122T020000-abcdef held: 2 rows held: their prices move more than --max-price-change 50%; ' +
        'nothing held was sent (catalog-sync approve 20261122T020000-abcdef) (seller abcdef0123456789)',
    );
  });
});
