import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Files of a test CA and of a server certificate it signed (PEM). */
export interface TestCertificates {
  ca: string;
  cert: string;
  key: string;
}

/**
 * A CA of the test's own and a certificate for 127.0.0.1 signed by it, written into `dir` with
 * `openssl` (valid one day): a server a client trusts only when given the CA (NODE_EXTRA_CA_CERTS).
 */
export function makeTestCertificates(dir: string): TestCertificates {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const key = ['-newkey', 'rsa:2048', '-nodes', '-keyout'];
  openssl(
    'req',
    '-x509',
    ...key,
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=catalog-sync test CA',
  );
  openssl('req', ...key, 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    ...['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-out', 'server.pem', '-days', '1', '-extfile', 'san.cnf'],
  );
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
}

/**
 * Another server certificate from the CA of `makeTestCertificates(dir)`, for `subjectAltName` (e.g.
 * `DNS:api.example.test`), as `<name>.pem` and `<name>.key` in `dir`. `days` -1: one that has expired
 * (its end a day before its start, which is now).
 */
export function signTestCertificate(
  dir: string,
  name: string,
  subjectAltName: string,
  days = 1,
): { cert: string; key: string } {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  );
  writeFileSync(join(dir, `${name}.cnf`), `subjectAltName=${subjectAltName}\n`);
  openssl(
    ...['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-out', `${name}.pem`, '-days', String(days), '-extfile', `${name}.cnf`],
  );
  return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
}
