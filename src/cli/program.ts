import type { Command } from 'commander';
import type { LoadedKeysFile } from '../keys-file.js';
import type { AnswerCaps } from '../seller-api/answer-caps.js';
import type { StoreReadOptions } from '../sources/stores/types.js';
import type { SourceNetwork } from '../sources/url-connect.js';
import type { SignalSource } from './signals.js';

/** What every command needs from the outside world; tests pass their own. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Set by a command's action: the process exit code. */
  exitCode: number;
  /**
   * A store source's waits, progress and longest answer; real ones when absent (tests pass a sleep
   * that returns at once, and scale the answers down).
   */
  storeSeams?: Pick<StoreReadOptions, 'sleep' | 'now' | 'onProgress' | 'onWait' | 'maxAnswerBytes'>;
  /** The resolver and connector of source URLs; the system's when absent (tests inject their own). */
  network?: SourceNetwork;
  /** The caps of the API's answers (answer-caps.ts); ANSWER_CAPS when absent (tests scale them down). */
  answerCaps?: Partial<AnswerCaps>;
  /** The `--keys-file` whose keys joined `env` (main.ts): `worker` reads it again when it changes. */
  keysFile?: LoadedKeysFile;
  /**
   * A test seam: runs once the run is over, between the report's check and its write (a folder on
   * the report's way swapped for a link meanwhile). Nothing when absent.
   */
  beforeReportWrite?: () => Promise<void>;
  /**
   * Where the commands hear SIGINT and SIGTERM: the process when absent. A test that runs the CLI
   * in its own process passes an emitter per run, and stops that run by emitting 'SIGINT' on it.
   */
  signals?: SignalSource;
}

/** Each command lives in its own file under commands/ and registers itself with this signature. */
export type RegisterCommand = (program: Command, io: CliIo) => void;
