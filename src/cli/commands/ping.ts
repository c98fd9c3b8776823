import { STATUS_CODES } from 'node:http';
import type { Command } from 'commander';
import { readApiConfig } from '../../config.js';
import { PING_TIMEOUT_MS } from '../../defaults.js';
import {
  DailyLimitError,
  EndpointNotFoundError,
  SellerApiClient,
  SellerApiError,
  UnauthorizedError,
} from '../../seller-api/index.js';
import { outOfReachText } from '../../sync/seller-pause.js';
import { outOfReachCause } from '../../sync/unreached.js';
import { terminalSafeLine } from '../../terminal-safe.js';
import { addConnectionOptions, type ConnectionFlags } from '../connection-options.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../program.js';
import { spentLimitLine } from '../spent-limit-line.js';

export function registerPing(program: Command, io: CliIo): void {
  addConnectionOptions(program.command('ping'), { redis: false })
    .description(
      'checks the key (GET /ping); exit 0 valid, 3 rejected, 4 valid but the daily limit is spent (429), ' +
        '6 API out of reach or answering 5xx (the key not checked), 2 no API under the base URL (404)',
    )
    .action(async (flags: ConnectionFlags) => {
      const api = readApiConfig(io.env, flags, false, io.keysFile);
      const client = new SellerApiClient({ ...api, timeoutMs: PING_TIMEOUT_MS });
      try {
        await client.ping();
        io.stdout.write(`key in ${api.keyEnv} is valid for ${api.baseUrl}\n`);
        io.exitCode = ExitCode.ok;
      } catch (error) {
        const unreached = outOfReachCause([error], api.baseUrl);
        if (error instanceof UnauthorizedError) {
          io.stderr.write(`catalog-sync: the key in ${api.keyEnv} was rejected by ${api.baseUrl} (401)\n`);
          io.exitCode = ExitCode.unauthorized;
        } else if (unreached !== null) {
          // As `run`: the API is out of reach (its one try got no answer), which is no verdict on the key.
          io.stderr.write(`catalog-sync: ${outOfReachText(api.baseUrl, unreached, false)}\n`);
          io.exitCode = ExitCode.apiUnreachable;
        } else if (error instanceof DailyLimitError) {
          io.stderr.write(`catalog-sync: ${spentLimitLine(api, error)}\n`);
          io.exitCode = ExitCode.pausedDailyLimit;
        } else if (error instanceof SellerApiError && error.status !== null && error.status >= 500) {
          // No verdict on the key, as when the API is out of reach (ping sends one request, never retried).
          const answer = `${error.status}${STATUS_CODES[error.status] ? ` (${STATUS_CODES[error.status]})` : ''}`;
          io.stderr.write(
            `catalog-sync: ${api.baseUrl} answers ${answer}: the key in ${api.keyEnv} could not be checked; try again later\n`,
          );
          io.exitCode = ExitCode.apiUnreachable;
        } else if (error instanceof EndpointNotFoundError) {
          // A 404 of /ping itself: no API under the base URL (a 404 for one id would be a record's).
          io.stderr.write(
            `catalog-sync: ${terminalSafeLine(outOfReachText(api.baseUrl, error.message, true))}\n`,
          );
          io.exitCode = ExitCode.usage;
        } else if (error instanceof SellerApiError) {
          io.stderr.write(`catalog-sync: ${terminalSafeLine(error.message)}\n`);
          io.exitCode = ExitCode.usage;
        } else {
          throw error;
        }
      }
    });
}
