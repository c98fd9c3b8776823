import { describe, expect, it } from 'vitest';
import { displayPath, endpointUrl, parseBaseUrl } from '../../../src/seller-api/base-url.js';
import { InvalidBaseUrlError } from '../../../src/seller-api/errors/index.js';

describe('parseBaseUrl', () => {
  it.each([
    ['https://api.example.com/api/v1', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api/v1/', 'https://api.example.com/api/v1'],
    ['  https://api.example.com/market/api/v1//  ', 'https://api.example.com/market/api/v1'],
    ['http://127.0.0.1:8080/api/v1', 'http://127.0.0.1:8080/api/v1'],
    ['http://127.5.6.7/api/v1', 'http://127.5.6.7/api/v1'],
    ['http://localhost:3000/api/v1', 'http://localhost:3000/api/v1'],
    ['http://[::1]:3000/api/v1/', 'http://[::1]:3000/api/v1'],
  ])('accepts %s', (input, expected) => {
    expect(parseBaseUrl(input).href).toBe(expected);
  });

  it('accepts http:// to another host when insecure is allowed', () => {
    expect(parseBaseUrl('http://shop.internal/api/v1', { allowInsecure: true }).href).toBe(
      'http://shop.internal/api/v1',
    );
  });

  it.each([
    ['', 'invalid base URL "": it is empty'],
    ['api.example.com/api/v1', 'invalid base URL "api.example.com/api/v1": not an absolute URL'],
    ['https://api.example.com', 'invalid base URL "https://api.example.com": the path must end in /api/v1'],
    ['https://api.example.com/api/v2', 'the path must end in /api/v1'],
    ['https://api.example.com/api/v1/products', 'the path must end in /api/v1'],
    ['ftp://api.example.com/api/v1', 'ftp:// is not supported'],
    [
      'http://api.example.com/api/v1',
      'http:// is allowed only to a loopback host (use https://, or --allow-insecure)',
    ],
    ['http://127.0.0.1.evil.com/api/v1', 'http:// is allowed only to a loopback host'],
    ['https://api.example.com/api/v1#x', 'a query or fragment is not allowed'],
  ])('refuses "%s"', (input, message) => {
    expect(() => parseBaseUrl(input)).toThrow(InvalidBaseUrlError);
    expect(() => parseBaseUrl(input)).toThrow(message);
  });

  it.each([
    ['https://alice:s3cret@api.example.com/api/v1', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api/v1?key=s3cret', 'https://api.example.com/api/v1'],
    ['alice:s3cret@api.example.com/api/v1', 'api.example.com/api/v1'],
    ['https://alice:s3cret@api.example.com/v2?token=s3cret', 'https://api.example.com/v2'],
  ])('names %s without its credentials or query', (input, shown) => {
    let error: unknown;
    try {
      parseBaseUrl(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidBaseUrlError);
    const message = (error as Error).message;
    expect(message).toContain(`"${shown}"`);
    expect(message).not.toContain('s3cret');
    expect(message).not.toContain('\n');
  });
});

describe('endpointUrl', () => {
  const base = parseBaseUrl('https://api.example.com/api/v1/');

  it('appends the path to the base path', () => {
    expect(endpointUrl(base, '/products').href).toBe('https://api.example.com/api/v1/products');
  });

  it('passes the id as an encoded query parameter', () => {
    expect(endpointUrl(base, '/products', { id: '42' }).href).toBe(
      'https://api.example.com/api/v1/products?id=42',
    );
    expect(endpointUrl(base, '/products', { id: 'a b&c=1' }).search).toBe('?id=a+b%26c%3D1');
  });
});

describe('displayPath', () => {
  const base = parseBaseUrl('https://api.example.com/api/v1');

  it.each([
    ['https://api.example.com/api/v1/products?id=7', '/products?id=7'],
    ['https://api.example.com/api/v1/products?page=2', '/products?page=2'],
    ['https://api.example.com/other/products', '/other/products'],
    ['https://cdn.example.com/api/v1/products', 'https://cdn.example.com/products'],
  ])('shows %s as %s', (url, expected) => {
    expect(displayPath(base, new URL(url))).toBe(expected);
  });
});
