/** Source readers: a seller's file, standard input or feed URL as a stream of records with row numbers. */
export { openSource } from './open-source.js';
export { SourceError } from './source-error.js';
export type { OpenedSource, OpenSourceOptions, RowEstimate, SourceFormat } from './types.js';
