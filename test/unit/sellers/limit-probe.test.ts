import { describe, expect, it } from 'vitest';
import { LimitProbes } from '../../../src/sellers/limit-probe.js';

const settled = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('LimitProbes: one request at a time past the learned limit (issue 31)', () => {
  it('sends the probe once the requests before it are answered, and only one probe', async () => {
    const probes = new LimitProbes();
    const first = probes.sending('s');
    const second = probes.sending('s');
    let probe: (() => void) | null = null;
    const becoming = probes.probe('s').then((end) => {
      probe = end;
    });
    expect(await probes.probe('s')).toBeNull();
    first();
    await settled();
    expect(probe).toBeNull();
    second();
    await becoming;
    expect(probe).not.toBeNull();
    expect(probes.busy('s')).toBe(true);
  });

  it('holds every other request until the probe is answered', async () => {
    const probes = new LimitProbes();
    const end = await probes.probe('s');
    let waited = false;
    const waiting = probes.whileProbing('s').then(() => {
      waited = true;
    });
    await settled();
    expect(waited).toBe(false);
    end?.();
    await waiting;
    expect(waited).toBe(true);
    expect(probes.busy('s')).toBe(false);
  });

  it('keeps sellers apart', async () => {
    const probes = new LimitProbes();
    probes.sending('a');
    expect(await probes.probe('b')).not.toBeNull();
  });
});
