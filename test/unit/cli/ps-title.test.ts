import { describe, expect, it } from 'vitest';
import { maskedCommandLine } from '../../../src/cli/ps-title.js';

describe('maskedCommandLine: what ps shows of a command line that holds a password', () => {
  it.each([
    [
      [
        'node',
        'catalog-sync.js',
        'worker',
        '--redis-url',
        'rediss://fleet:s3cr%2Ft@redis-a.example.test:6380/2',
      ],
      'node catalog-sync.js worker --redis-url rediss://fleet:***@redis-a.example.test:6380/2',
    ],
    [
      ['node', 'catalog-sync.js', 'worker', '--redis-url=redis://:s3cret@h:6379'],
      'node catalog-sync.js worker --redis-url=redis://:***@h:6379',
    ],
    [
      ['node', 'catalog-sync.js', 'run', 'https://feeds:s3cret@shop.example/feed.csv'],
      'node catalog-sync.js run https://feeds:***@shop.example/feed.csv',
    ],
  ])('masks every URL password: %j', (argv, shown) => {
    expect(maskedCommandLine(argv)).toBe(shown);
  });

  it('leaves a command line with no password alone (null: the title is not set)', () => {
    expect(
      maskedCommandLine(['node', 'catalog-sync.js', 'worker', '--redis-url', 'redis://fleet@h:6379']),
    ).toBeNull();
    expect(maskedCommandLine(['node', 'catalog-sync.js', 'run', 'https://shop.example/a:b@c'])).toBeNull();
  });
});
