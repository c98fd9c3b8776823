export { InvalidCronError, nextRunOf } from './cron.js';
export { planSchedules } from './plan.js';
export { ScheduleRegistry } from './registry.js';
export * from './types.js';
export {
  type RunScheduledImport,
  type ScheduledImportOutcome,
  type ScheduledImportsWorkerDeps,
  serveScheduledImports,
} from './worker.js';
