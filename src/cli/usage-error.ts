// The error type lives beside config.ts, which throws it too and must not import from src/cli/.
export { UsageError } from '../usage-error.js';
