import { describe, expect, it } from 'vitest';
import { heldKeys, unusableKeyLines } from '../../../src/sellers/servable-sellers.js';
import { readCheckedKey, readKey, readTrustRules } from '../../../src/trust-config.js';
import { UsageError } from '../../../src/usage-error.js';

/**
 * A key variable holding what no key has (a copy-paste's typographic quote, a line break): `run`
 * and `import` refused it (config.ts), but `approve`, `cancel` and `resume` called it "another
 * seller's key", and a worker served nothing with it without a word.
 */
const PASTED = { SELLER_API_KEY: 'sk_live_x\u201d', SELLER_API_KEY_SHOP2: 'sk_live_y\nz' };
const rules = readTrustRules({});

describe('a key variable whose text no key has', () => {
  it('approve, cancel and resume read it as one line naming the variable, never the value', () => {
    let error: unknown;
    try {
      readCheckedKey(PASTED, 'SELLER_API_KEY', rules);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).toMatch(/^SELLER_API_KEY holds a typographic quote .*: set it again/);
    expect(message).not.toContain('sk_live_x');
    expect(message).not.toContain('\n');
  });

  it('a plain key, or none, reads as readKey reads it', () => {
    expect(readCheckedKey({ SELLER_API_KEY: ' sk_live_x ' }, 'SELLER_API_KEY', rules)).toBe('sk_live_x');
    expect(readCheckedKey({}, 'SELLER_API_KEY', rules)).toBeUndefined();
    expect(readKey(PASTED, 'SELLER_API_KEY', rules)).toBe('sk_live_x\u201d');
  });

  it('a worker holds only the usable keys and names each unusable variable at its start', () => {
    const env = { ...PASTED, SELLER_API_KEY_SHOP3: 'sk_live_ok', OTHER: 'x\u201d' };
    expect(heldKeys(env, rules)).toEqual(['sk_live_ok']);
    const lines = unusableKeyLines(env, rules);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^SELLER_API_KEY holds a typographic quote.*; this worker does not use it$/);
    expect(lines[1]).toMatch(/^SELLER_API_KEY_SHOP2 holds a line break.*; this worker does not use it$/);
    expect(lines.join(' ')).not.toContain('sk_live');
  });
});
