import { stat } from 'node:fs/promises';
import { fileSignature, type LoadedKeysFile, mergeKeys, readKeysFileAt } from './keys-file.js';
import type { Logger } from './logger.js';
import { holdSecrets } from './secret-forms.js';
import { readTrustRules } from './trust-config.js';

/**
 * A long-running `worker`'s `--keys-file`, read again when it changes: a key fixed in the file (a
 * mistyped one that the API rejected, a rotated one) serves from the worker's next run context on,
 * with no restart. The worker's key environment (`env`, the one object its workers and seller
 * slots read keys from) is changed in place: the file's names get their new keys, a name dropped
 * from the file goes back to what the environment held, if anything.
 *
 * A change that cannot be read (mode no longer 600, a line that is not NAME=KEY, a file removed or
 * emptied) keeps the keys read before and is said once, in one log line naming the file and the
 * line, never a key: a worker serving other sellers must not stop for one edit. A file caught half
 * written whose lines all read is taken as it is (its last key cut short serves no seller): write
 * the new file beside it and rename it into place (docs/operations.md, Keys file).
 */
export class KeysFileReload {
  private loaded: LoadedKeysFile;
  /** The signature of a change that could not be read, said once. */
  private failed: string | null = null;
  private reading: Promise<boolean> | null = null;
  /** The names whose key changed at the last read that changed any (names only, never a key). */
  private changedNames: readonly string[] = [];

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    loaded: LoadedKeysFile,
    private readonly logger: Logger,
  ) {
    this.loaded = loaded;
  }

  /** The names whose key changed at the last read that changed any: what a worker may have lost a seller by. */
  get lastChanged(): readonly string[] {
    return this.changedNames;
  }

  /**
   * Reads the file again if it changed since it was last read (one stat otherwise); resolves to true
   * when a key of the environment changed. Callers at once share one read.
   */
  refresh(): Promise<boolean> {
    this.reading ??= this.readIfChanged().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async readIfChanged(): Promise<boolean> {
    const { file } = this.loaded;
    let signature: string;
    try {
      signature = fileSignature(await stat(file));
    } catch (error) {
      const code = errorCode(error);
      // As the first read says it (keys-file.ts): a file gone is said in words.
      const gone = code === 'ENOENT' || code === 'ENOTDIR';
      this.sayOnce(`unread:${code}`, gone ? 'is gone (no such file)' : `cannot be read (${code})`);
      return false;
    }
    if (signature === this.loaded.signature || signature === this.failed) return false;
    let entries: Map<string, string>;
    let read: string;
    let merged: NodeJS.ProcessEnv;
    try {
      ({ entries, signature: read } = await readKeysFileAt(file, readTrustRules(this.loaded.base).keyEnvs));
      merged = mergeKeys(this.loaded.base, entries, file);
    } catch (error) {
      this.sayOnce(signature, error instanceof Error ? error.message : String(error), false);
      return false;
    }
    // Emptied while a worker serves from it: more likely being written than meant (an editor or a
    // shell truncates before it writes); a worker with no key at all would serve nobody.
    if (entries.size === 0 && this.loaded.names.length > 0) {
      this.sayOnce(signature, 'holds no key now (write it whole beside it, then rename it into place)');
      return false;
    }
    this.failed = null;
    // A key added or rotated in the file is cut from every text kept from now on (secret-forms.ts).
    holdSecrets(entries.values());
    const changed = this.apply(entries, merged);
    this.loaded = { ...this.loaded, names: [...entries.keys()], signature: read };
    if (changed.length > 0) this.changedNames = changed;
    // Names only: which variables changed is what an operator checks; a key is never logged.
    if (changed.length > 0)
      this.logger.info(
        { keysFile: file, changed },
        `--keys-file ${file} read again: ${namesText(changed)} changed`,
      );
    return changed.length > 0;
  }

  /** Sets the file's new keys in the environment, in place; resolves to the names whose key changed. */
  private apply(entries: ReadonlyMap<string, string>, merged: NodeJS.ProcessEnv): string[] {
    const names = new Set([...this.loaded.names, ...entries.keys()]);
    const changed: string[] = [];
    for (const name of [...names].sort()) {
      const next = entries.has(name) ? merged[name] : this.loaded.base[name];
      if (this.env[name] === next) continue;
      changed.push(name);
      if (next === undefined) delete this.env[name];
      else this.env[name] = next;
    }
    return changed;
  }

  /** One log line per change that cannot be read; `prefix`: the message does not name the file yet. */
  private sayOnce(signature: string, reason: string, prefix = true): void {
    if (this.failed === signature) return;
    this.failed = signature;
    const { file } = this.loaded;
    const line = prefix ? `--keys-file ${file} ${reason}` : reason;
    this.logger.error({ keysFile: file }, `${line}: this worker keeps the keys it read before`);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/** The names of the keys that changed, the first 20 of them: a log line stays a line. */
function namesText(names: readonly string[]): string {
  const shown = names.slice(0, 20).join(', ');
  return names.length > 20 ? `${shown} and ${names.length - 20} more` : shown;
}
