/**
 * The sandbox Seller API: the whole of docs/seller-api-v1.md, in memory, on loopback.
 * Used by `npm start`, `run --sandbox`, `catalog-sync sandbox`, integration tests and benchmarks.
 */
export type { ListShape, ResetHeader, SandboxFaults, SandboxKey, SandboxOptions } from './options.js';
export { isLoopbackHost, LIST_SHAPES, parseDuration, RESET_HEADERS } from './options.js';
export type { LoggedRequest, TimedRequest } from './request-log.js';
export type { Sandbox } from './sandbox.js';
export { startSandbox } from './server.js';
export { type SpentDay, spentDays } from './spent-days.js';
export type { SandboxStats } from './stats.js';
