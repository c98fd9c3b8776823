export { displayPath, endpointUrl, isLoopback, parseBaseUrl, plainHttpHost } from './base-url.js';
export {
  type CreateResult,
  MAX_LIST_PAGES,
  SellerApiClient,
  type SellerApiClientOptions,
} from './client.js';
export * from './errors/index.js';
export type { HttpRequester } from './http-exchange.js';
export { type ClosableRequester, createHttpRequester } from './http-requester.js';
export { type ListPageReading, readListPage } from './list-page.js';
export { rateFigures } from './remaining-requests.js';
export type { RemoteOrder, RemoteProduct } from './remote-record.js';
export { nextDailyReset, parseDailyReset, resetInstant } from './reset-instant.js';
export { backoffDelay, type GetRetry, type RetryPolicy } from './retry-policy.js';
export type { RequestEvent } from './transport.js';
export { USER_AGENT } from './user-agent.js';
