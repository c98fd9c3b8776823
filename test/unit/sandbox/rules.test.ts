// The sandbox's pure rules, as tables. (They live beside the HTTP tests because this folder is the
// sandbox's; they need no server.)
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/sandbox/options.js';
import { resetHeaders, takeFromDailyLimit } from '../../../src/sandbox/quota.js';
import { validateProduct } from '../../../src/sandbox/validate.js';

describe('parseDuration', () => {
  it.each([
    ['24h', 86_400_000],
    ['30s', 30_000],
    ['500ms', 500],
    ['1.5m', 90_000],
    ['2d', 172_800_000],
    ['250', 250],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '0', '0s', '-1s', '10 minutes', 'h', '1.5.5', '0.1ms'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('validateProduct', () => {
  it.each([
    [{ name: 'Lamp', price: 0 }],
    [{ name: 'Lamp', price: 12.5 }],
    [{ name: 'Lamp', price: 12.99, quantity: 0 }],
    [{ name: 'Lamp', price: 1e9 }],
    [{ name: 'x'.repeat(255), price: 1, tags: ['a', 'b'], active: true, weight: 0.125 }],
  ])('accepts %o on create', (body) => {
    expect(validateProduct(body, 'create')).toEqual({ ok: true, fields: body });
  });

  it.each([
    [{ price: 1.001 }, 'price'],
    [{ price: 0.1 + 0.2 }, 'price'],
    [{ price: Number.NaN }, 'price'],
    [{ quantity: 2 ** 53 }, 'quantity'],
    [{ description: 'x'.repeat(10_001) }, 'description'],
  ])('refuses %o on update, naming %s', (body, field) => {
    expect(validateProduct(body, 'update')).toMatchObject({ ok: false, field });
  });

  it('accepts a partial update without name or price', () => {
    expect(validateProduct({ quantity: 3 }, 'update')).toEqual({ ok: true, fields: { quantity: 3 } });
  });

  it('refuses a field outside the accepted ones', () => {
    const result = validateProduct({ name: 'Lamp', price: 1, colour: 'red' }, 'create', {
      acceptFields: ['name', 'price'],
    });
    expect(result).toMatchObject({ ok: false, code: 'unknown_field', field: 'colour' });
  });

  it('refuses an update outside the update fields, naming them all; a create is not concerned', () => {
    const rules = { updateFields: ['price'] };
    expect(validateProduct({ price: 1, name: 'x', sku: 'y' }, 'update', rules)).toEqual({
      ok: false,
      code: 'not_updatable',
      fields: ['name', 'sku'],
      message: 'name, sku: not accepted in an update',
    });
    expect(validateProduct({ id: 1, price: 1 }, 'update', rules)).toMatchObject({ code: 'unknown_field' });
    expect(validateProduct({ name: 'x', price: 1, sku: 'y' }, 'create', rules)).toMatchObject({ ok: true });
  });

  it('takes a price of any decimals when normalizing (it is stored rounded), and only string tags', () => {
    const rules = { normalize: true };
    expect(validateProduct({ price: 1.005, tags: 'a,b' }, 'update', rules)).toMatchObject({ ok: true });
    expect(validateProduct({ price: -0.01 }, 'update', rules)).toMatchObject({ ok: false, field: 'price' });
    expect(validateProduct({ tags: 5 }, 'update', rules)).toMatchObject({ ok: false, field: 'tags' });
    expect(validateProduct({ tags: 5 }, 'update')).toMatchObject({ ok: true });
  });
});

describe('takeFromDailyLimit', () => {
  const day = 1000;
  it.each([
    [
      'a fresh key',
      undefined,
      5_500,
      { allowed: true, usage: { day: 5, used: 1 }, remaining: 1, resetAtMs: 6_000 },
    ],
    [
      'a key with one left',
      { day: 5, used: 1 },
      5_999,
      { allowed: true, usage: { day: 5, used: 2 }, remaining: 0 },
    ],
    [
      'a key at its limit',
      { day: 5, used: 2 },
      5_999,
      { allowed: false, usage: { day: 5, used: 2 }, remaining: 0 },
    ],
    [
      'a key at its limit yesterday',
      { day: 4, used: 2 },
      5_000,
      { allowed: true, usage: { day: 5, used: 1 } },
    ],
  ])('decides for %s', (_case, usage, now, expected) => {
    expect(takeFromDailyLimit(usage, 2, now, day)).toMatchObject(expected);
  });
});

describe('resetHeaders', () => {
  const resetAt = 1_700_000_000_000;
  it.each([
    ['retry-after', { 'Retry-After': '90' }],
    ['ratelimit-reset', { 'RateLimit-Reset': '90' }],
    ['x-ratelimit-reset', { 'X-RateLimit-Reset': '1700000000' }],
    ['x-ratelimit-reset-ms', { 'X-RateLimit-Reset': '1700000000000' }],
    ['none', {}],
  ] as const)('writes %s', (form, headers) => {
    expect(resetHeaders(form, resetAt, resetAt - 89_500)).toEqual(headers);
  });
});
