import { describe, expect, it } from 'vitest';
import { type KeyEnvAsked, missingKeyLine } from '../../src/trust-rules.js';

/**
 * The line for a key variable with no key, when a --keys-file was read. The hint in it is followed
 * as typed: a name it suggests that is another seller's key writes this seller's catalog into that
 * seller's account. So a name the user gave is never swapped for an unrelated one.
 */
const file = (...names: string[]) => ({ file: 'keys.env', names });
const cli = (named: boolean, seller?: string): KeyEnvAsked => ({
  named,
  option: (name) => `--key-env ${name}`,
  ...(seller ? { seller } : {}),
});
const job = (named: boolean, seller?: string): KeyEnvAsked => ({
  named,
  option: (name) => `keyEnv: ${name} in shop-b.yml`,
  ...(seller ? { seller } : {}),
});

describe('missingKeyLine: a variable the user named (--key-env, keyEnv:)', () => {
  it("not in the file, which holds another seller's name: says so and lists it, suggests no name of it", () => {
    const line = missingKeyLine('SELLER_API_KEY_SHOP_B', file('SELLER_API_KEY_ACME'), cli(true));

    expect(line).toBe(
      "SELLER_API_KEY_SHOP_B is not set, and --keys-file keys.env does not hold it (it holds SELLER_API_KEY_ACME): add this seller's key to it as SELLER_API_KEY_SHOP_B=KEY",
    );
  });

  it('with no word of how it was asked: a name other than SELLER_API_KEY was named', () => {
    expect(missingKeyLine('SELLER_API_KEY_SHOP_B', file('SELLER_API_KEY_ACME'))).toBe(
      missingKeyLine('SELLER_API_KEY_SHOP_B', file('SELLER_API_KEY_ACME'), cli(true)),
    );
  });

  it.each<[string, string, string[]]>([
    ['an underscore left out', 'SELLER_API_KEY_SHOPB', ['SELLER_API_KEY_ACME', 'SELLER_API_KEY_SHOP_B']],
    ['an underscore too many', 'SELLER_API_KEY_SHO_P_B', ['SELLER_API_KEY_ACME', 'SELLER_API_KEY_SHOP_B']],
    ['another case', 'SELLER_API_KEY_shop_b', ['SELLER_API_KEY_ACME', 'SELLER_API_KEY_SHOP_B']],
    ['two letters swapped', 'SELLER_API_KEY_SHPO_B', ['SELLER_API_KEY_ACME', 'SELLER_API_KEY_SHOP_B']],
  ])('the same name mistyped (%s): the one an edit away, as a replacement', (_, asked, names) => {
    const line = missingKeyLine(asked, file(...names), cli(true));

    expect(line).toBe(
      `${asked} is not set, and --keys-file keys.env does not hold it (it holds ${names.join(', ')}): use --key-env SELLER_API_KEY_SHOP_B instead`,
    );
  });

  it.each<[string, string, string]>([
    ['one letter other (another seller)', 'SELLER_API_KEY_SHOP_A', 'SELLER_API_KEY_SHOP_B'],
    ['a digit other', 'SELLER_API_KEY_STORE1', 'SELLER_API_KEY_STORE2'],
    ['a digit more', 'SELLER_API_KEY_STORE12', 'SELLER_API_KEY_STORE1'],
    ['a letter more', 'SELLER_API_KEY_SHOPS', 'SELLER_API_KEY_SHOP'],
    ['digits swapped', 'SELLER_API_KEY_STORE21', 'SELLER_API_KEY_STORE12'],
    ['the first name in the file', 'SELLER_API_KEY_SHOPB', 'SELLER_API_KEY_ACME'],
  ])("a name only near another seller's (%s): no suggestion", (_, asked, held) => {
    const line = missingKeyLine(asked, file(held), cli(true));

    expect(line).toBe(
      `${asked} is not set, and --keys-file keys.env does not hold it (it holds ${held}): add this seller's key to it as ${asked}=KEY`,
    );
    expect(line).not.toContain(`--key-env ${held}`);
  });

  it('two names the same mistyped name could be: neither is suggested', () => {
    const line = missingKeyLine(
      'SELLER_API_KEY_SHOPB',
      file('SELLER_API_KEY_SHOP_B', 'SELLER_API_KEY_SHO_PB'),
      cli(true),
    );

    expect(line).not.toContain('--key-env');
    expect(line).toContain('it holds SELLER_API_KEY_SHOP_B, SELLER_API_KEY_SHO_PB');
  });

  it('lists at most five names', () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F'].map((letter) => `SELLER_API_KEY_${letter}`);

    expect(missingKeyLine('SELLER_API_KEY_SHOP_B', file(...names), cli(true))).toContain(
      '(it holds SELLER_API_KEY_A, SELLER_API_KEY_B, SELLER_API_KEY_C, SELLER_API_KEY_D, SELLER_API_KEY_E, …)',
    );
  });

  it("a job file's keyEnv: the replacement is said as the job file's key, never as --key-env", () => {
    const typo = missingKeyLine(
      'SELLER_API_KEY_SHOPB',
      file('SELLER_API_KEY_ACME', 'SELLER_API_KEY_SHOP_B'),
      job(true, 'shop-b'),
    );
    const other = missingKeyLine('SELLER_API_KEY_SHOPB', file('SELLER_API_KEY_ACME'), job(true, 'shop-b'));

    expect(typo).toBe(
      'SELLER_API_KEY_SHOPB is not set, and --keys-file keys.env does not hold it (it holds SELLER_API_KEY_ACME, SELLER_API_KEY_SHOP_B): use keyEnv: SELLER_API_KEY_SHOP_B in shop-b.yml instead',
    );
    expect(other).toBe(
      "SELLER_API_KEY_SHOPB is not set, and --keys-file keys.env does not hold it (it holds SELLER_API_KEY_ACME): add this seller's key to it as SELLER_API_KEY_SHOPB=KEY",
    );
    expect(typo + other).not.toContain('--key-env');
  });
});

describe('missingKeyLine: no variable named (the default SELLER_API_KEY)', () => {
  it('the file holds one other name: add --key-env with it (the case the hint was made for)', () => {
    expect(missingKeyLine('SELLER_API_KEY', file('SELLER_API_KEY_SHOP'), cli(false))).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_SHOP only: add --key-env SELLER_API_KEY_SHOP',
    );
    expect(missingKeyLine('SELLER_API_KEY', file('SELLER_API_KEY_SHOP'))).toBe(
      missingKeyLine('SELLER_API_KEY', file('SELLER_API_KEY_SHOP'), cli(false)),
    );
  });

  it('the same, with a seller of that name (--seller, seller:): still suggested', () => {
    expect(missingKeyLine('SELLER_API_KEY', file('SELLER_API_KEY_SHOP_B'), cli(false, 'shop-b'))).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_SHOP_B only: add --key-env SELLER_API_KEY_SHOP_B',
    );
    expect(missingKeyLine('SELLER_API_KEY', file('SELLER_API_KEY_SHOP_B'), job(false, 'shop-b'))).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_SHOP_B only: add keyEnv: SELLER_API_KEY_SHOP_B in shop-b.yml',
    );
  });

  it("a seller clearly not the one name's: that name is not suggested", () => {
    const line = missingKeyLine('SELLER_API_KEY', file('SELLER_API_KEY_ACME'), cli(false, 'shop-b'));

    expect(line).toBe(
      "SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_ACME only, not named for seller shop-b: add this seller's key to it as SELLER_API_KEY_<NAME>=KEY and give --key-env SELLER_API_KEY_<NAME>",
    );
  });

  it("several names: the seller's when one is plainly its, else none of them", () => {
    const names = file('SELLER_API_KEY_ACME', 'SELLER_API_KEY_SHOP_B');

    expect(missingKeyLine('SELLER_API_KEY', names, cli(false, 'shop-b'))).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_ACME, SELLER_API_KEY_SHOP_B: add --key-env SELLER_API_KEY_SHOP_B',
    );
    for (const asked of [cli(false), cli(false, 'globex')])
      expect(missingKeyLine('SELLER_API_KEY', names, asked)).toBe(
        "SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_ACME, SELLER_API_KEY_SHOP_B: name this seller's with --key-env NAME",
      );
  });

  it('an empty file, and no file: as before', () => {
    expect(missingKeyLine('SELLER_API_KEY', file(), cli(false))).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds no key: add a line SELLER_API_KEY=KEY to it',
    );
    expect(missingKeyLine('SELLER_API_KEY')).toBe(
      "SELLER_API_KEY is not set: it must hold the seller's API key (set it, give it in --keys-file, or name another variable with --key-env)",
    );
  });
});
