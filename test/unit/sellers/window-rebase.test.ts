import { describe, expect, it } from 'vitest';
import { rebaseOf } from '../../../src/sellers/window-rebase.js';

describe("rebaseOf: the API's figure over the tool's count (a request sent alone)", () => {
  it('keeps the count while the figure agrees with the learned limit', () => {
    // Request 21 of a window whose limit is 20 would have met the 429; 20 + 0 is the limit.
    expect(rebaseOf(20, 0, 20, null)).toBeNull();
    expect(rebaseOf(1, 19, 20, null)).toBeNull();
    // Less left than the count allows: the cap holds already (limit-window.ts), nothing begins anew.
    expect(rebaseOf(12, 3, 20, 20)).toBeNull();
    // No limit learned: the headers' cap alone holds the requests back.
    expect(rebaseOf(300, 80, null, 100)).toBeNull();
  });

  it('takes a day turned unseen for what happened: the limit stands, the API used it less what is left', () => {
    // Request 602 of the tool's window, and the API's day has 95 left of 100: 5 used.
    expect(rebaseOf(602, 95, 100, null)).toEqual({ used: 5, limit: null });
    // A killed process's 14 numbers were never sent: request 41 is the API's 27th.
    expect(rebaseOf(41, 13, 40, null)).toEqual({ used: 27, limit: null });
  });

  it('takes the limit the headers say, and what the API used of it', () => {
    expect(rebaseOf(21, 19, 20, 40)).toEqual({ used: 21, limit: 40 });
    expect(rebaseOf(602, 95, 100, 100)).toEqual({ used: 5, limit: null });
  });

  it('raises the limit when more is left than it allows, to at least this request and what is left', () => {
    expect(rebaseOf(1, 149, 100, null)).toEqual({ used: 1, limit: 150 });
  });
});
