/**
 * The bulk query operations of the Shopify double's shop, after Shopify's documentation: an app
 * runs one bulk query operation at a time per shop (API versions before 2026-01), and
 * `bulkOperationRunQuery` refuses another while one is CREATED, RUNNING or CANCELING;
 * `currentBulkOperation(type: QUERY)` is the app's most recent one, whatever its status;
 * `bulkOperationCancel` turns a CREATED or RUNNING one CANCELING, and a while later CANCELED.
 *
 * The double has no clock: an operation moves on each time it is looked at (`node(id:)`,
 * `currentBulkOperation`), as a real one moves on while its client waits between looks.
 */

export type OperationStatus = 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELING' | 'CANCELED';

export interface DoubleOperation {
  id: string;
  /** The bulk query as the client sent it: Shopify gives it back in the operation's `query` field. */
  query: string;
  createdAt: string;
  /** How many times it was looked at: the double's clock. */
  looks: number;
  /** `looks` when bulkOperationCancel reached it. */
  canceledAt?: number;
  /** Whether its file is grouped (`groupObjects` and the API version: double-result-file.ts). */
  grouped: boolean;
}

/** What moves an operation on: the double's seams, read live (a test may change them meanwhile). */
export interface OperationPace {
  /** Looks that find the operation RUNNING before it is done. */
  pollsBeforeDone?: number;
  /** How it ends when nobody cancels it. */
  ending?: 'COMPLETED' | 'FAILED' | 'CANCELED';
  /** Looks that still find a canceled operation CANCELING (1 unless set). */
  looksWhileCanceling?: number;
}

export function statusOf(operation: DoubleOperation, pace: OperationPace): OperationStatus {
  if (operation.canceledAt !== undefined)
    return operation.looks - operation.canceledAt <= (pace.looksWhileCanceling ?? 1)
      ? 'CANCELING'
      : 'CANCELED';
  if (operation.looks === 0) return 'CREATED';
  if (operation.looks <= (pace.pollsBeforeDone ?? 0)) return 'RUNNING';
  return pace.ending ?? 'COMPLETED';
}

export function inProgress(status: OperationStatus): boolean {
  return status === 'CREATED' || status === 'RUNNING' || status === 'CANCELING';
}

/** The operation's fields as the Admin API gives them (those catalog-sync asks for, and `query`). */
export function operationNode(
  operation: DoubleOperation,
  pace: OperationPace,
  total: number,
  /** The bytes of its file (`fileSize`, given with the `url`). */
  fileSize: number,
  resultUrl: (id: string) => string | null,
): Record<string, unknown> {
  const status = statusOf(operation, pace);
  const running = status === 'CREATED' || status === 'RUNNING';
  const share = Math.min(operation.looks, operation.canceledAt ?? operation.looks);
  return {
    id: operation.id,
    type: 'QUERY',
    status,
    query: operation.query,
    createdAt: operation.createdAt,
    errorCode: status === 'FAILED' ? 'INTERNAL_SERVER_ERROR' : null,
    objectCount: String(
      running || operation.canceledAt !== undefined
        ? Math.floor((total * share) / ((pace.pollsBeforeDone ?? 0) + 1))
        : total,
    ),
    // Shopify gives no file for an operation that found nothing.
    url: status === 'COMPLETED' && total > 0 ? resultUrl(operation.id) : null,
    fileSize: status === 'COMPLETED' && total > 0 ? String(fileSize) : null,
    partialDataUrl: null,
  };
}

/** The userErrors of a cancel Shopify refuses: an unknown operation, or one no longer running. */
export function cancelRefusal(operation: DoubleOperation | undefined, pace: OperationPace): string | null {
  if (!operation) return 'Bulk operation does not exist';
  const status = statusOf(operation, pace);
  if (status === 'CREATED' || status === 'RUNNING') return null;
  return `A bulk operation cannot be canceled when it is ${status.toLowerCase()}`;
}
