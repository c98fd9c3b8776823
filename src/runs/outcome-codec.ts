import type { RowAction, RowOutcome, RowStatus } from '../interfaces.js';

// A row's outcome as Redis keeps it: a compact JSON array, the note only when there is one.

type StoredOutcome = [
  key: string,
  action: RowAction,
  productId: string | null,
  status: RowStatus,
  error: string,
  note?: string,
];

export function encodeOutcome(outcome: RowOutcome): string {
  const stored: StoredOutcome = [
    outcome.key,
    outcome.action,
    outcome.productId,
    outcome.status,
    outcome.error,
  ];
  if (outcome.note) stored.push(outcome.note);
  return JSON.stringify(stored);
}

export function decodeOutcome(row: number | null, json: string): RowOutcome {
  const [key, action, productId, status, error, note] = JSON.parse(json) as StoredOutcome;
  return { row, key, action, productId, status, error, ...(note ? { note } : {}) };
}
