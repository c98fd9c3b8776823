import { describe, expect, it } from 'vitest';
import { insecureRunRefusal } from '../../../src/chunks/insecure-run.js';

describe('insecureRunRefusal: plain http:// off loopback only on this process’s own --allow-insecure', () => {
  it('refuses http:// to a host not loopback, naming the host and what to pass', () => {
    const url = 'http://api.example.test:8080/api/v1';
    expect(insecureRunRefusal(url, { allowInsecure: false })).toContain('host api.example.test:8080');
    expect(insecureRunRefusal(url, { allowInsecure: false })).toContain('`worker --allow-insecure`');
    expect(insecureRunRefusal(url, { allowInsecure: false, command: 'run' })).toContain(
      'give `run` --allow-insecure',
    );
  });

  it('lets https://, loopback and an allowing process through', () => {
    expect(insecureRunRefusal('https://api.example.test/api/v1', { allowInsecure: false })).toBeNull();
    expect(insecureRunRefusal('http://127.0.0.1:4010/api/v1', { allowInsecure: false })).toBeNull();
    expect(insecureRunRefusal('http://localhost:4010/api/v1', { allowInsecure: false })).toBeNull();
    expect(insecureRunRefusal('http://api.example.test/api/v1', { allowInsecure: true })).toBeNull();
  });
});
