import { resolve } from 'node:path';
import { namedFields, readAsLine, TOOL_FIELDS, unknownNames } from '../catalog/field-names.js';
import { CatalogConfigError, createMapper, loadMappingFile, peekRecords } from '../catalog/index.js';
import { readApiConfig } from '../config.js';
import type { MappedRow } from '../interfaces.js';
import { checkOutputFile } from '../output-check.js';
import type { FileSeen } from '../output-file.js';
import { DEFAULT_FIRST } from '../plan/first-order.js';
import { type SellerLookup, sellerOfRun } from '../queue/seller-names.js';
import type { RunSpec } from '../runs/run-store.js';
import { SourceRowCapture, type SourceRows } from '../runs/source-rows.js';
import type { Sandbox } from '../sandbox/index.js';
import { SecretForms } from '../secret-forms.js';
import { loadedKeys } from '../secret-text.js';
import { sellerRef } from '../sellers/seller-ref.js';
import { type OpenedSource, openSource, type RowEstimate, SourceError } from '../sources/index.js';
import { isStoreSource } from '../sources/stores/store-url.js';
import { terminalSafeLine } from '../terminal-safe.js';
import { checkKeyEnv, readTrustRules } from '../trust-config.js';
import { DEFAULT_KEY_ENV } from '../trust-rules.js';
import { openJobFile } from './job-file-open.js';
import { checkOptionsAlone, checkSentFields, missingNamesMatchField } from './option-conflicts.js';
import { OptionNames } from './option-origins.js';
import type { CliIo } from './program.js';
import type { RunFlags } from './run-flags.js';
import { type BeforeRun, interruptible } from './signals.js';
import { displaySource, sourceIdentity } from './source-identity.js';
import { UsageError } from './usage-error.js';

export interface PreparedRun {
  spec: RunSpec;
  rows: AsyncIterable<MappedRow>;
  /** Each row's raw values, kept for `report --failed-only` (handed to enqueueRun). */
  sourceRows: SourceRows;
  /** What was detected (format, encoding, delimiter, preset): said to the user before the run. */
  detections: string[];
  /** The rows the source holds, about, when that can be known before reading it (Redis sizing). */
  rowEstimate: RowEstimate | null;
  /** `run`'s lines on what its `--dry-run` does not apply, to say once it is not refused (option-conflicts.ts). */
  dryRunNotes: string[];
  sandbox: Sandbox | null;
  /** What was at `--report`'s path before the run (output-check.ts): its write says if another's file replaced it. */
  reportSeen?: FileSeen | undefined;
  /** Closes the source and stops the in-process sandbox, if any. */
  close(): Promise<void>;
  /**
   * `clear` runs before a store's line is said while its rows are read (a long wait it asked for):
   * `run` stops its progress bar there, so the line does not land in the bar.
   */
  beforeStoreLines(clear: () => void): void;
}

/**
 * From the command line to a run: the API endpoint (or an in-process sandbox), the opened source,
 * the preset or mapping, and the run's spec. Every user mistake becomes a one-line UsageError.
 * `command`: `run` takes `--sandbox`, and its missing base URL's line says so; `import`'s does not.
 * `before`: the command's interrupt until its run exists, which a store's wait for its file joins.
 */
export async function prepareRun(
  io: CliIo,
  source: string,
  flags: RunFlags,
  sellers: SellerLookup,
  command: 'run' | 'import' = 'import',
  before?: BeforeRun,
): Promise<PreparedRun> {
  let sandbox: Sandbox | null = null;
  let opened: OpenedSource | null = null;
  let clearForLine = () => {};
  try {
    // Options that would do nothing in this run are refused before anything is opened or asked.
    const names = new OptionNames(flags, flags.origins);
    const dryRunLines = checkOptionsAlone(source, flags, names);
    // Before the sandbox writes its key into the variable: a variable that may not hold a key is left alone.
    checkKeyEnv(flags.keyEnv, readTrustRules(io.env));
    if (flags.sandbox) {
      // Loaded only for --sandbox: its ~20 modules are CPU at every start of a run that never uses them.
      const { startSandbox } = await import('../sandbox/index.js');
      sandbox = await startSandbox({ port: 0 });
      // The sandbox key lives only in this process's environment, where this process's workers read it.
      io.env[flags.keyEnv] = sandbox.defaultKey.key;
    }
    const api = readApiConfig(
      io.env,
      {
        ...(sandbox ? { baseUrl: sandbox.baseUrl } : flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        keyEnv: flags.keyEnv,
        allowInsecure: flags.allowInsecure,
      },
      command === 'run',
      io.keysFile,
      {
        // A caller that keeps no origins (a test) cannot tell `--key-env SELLER_API_KEY` from the default.
        named: names.given('keyEnv') || flags.keyEnv !== DEFAULT_KEY_ENV,
        option: (name) => names.toGive('keyEnv', name),
        ...(flags.seller ? { seller: flags.seller } : {}),
      },
    );
    // A store option on a file or feed would be silently unused: the user meant another source.
    if (!isStoreSource(source) && (flags.sourceCredentials || flags.sourceApiVersion))
      throw new UsageError(
        `${flags.sourceCredentials ? '--source-credentials' : '--source-api-version'} is for a store source (shopify://, woocommerce://), not ${displaySource(source)}`,
      );
    // Before the store is asked anything: its rows are its platform's export, read by that preset.
    const platform = isStoreSource(source)
      ? /^(shopify|woocommerce)/i.exec(source)?.[1]?.toLowerCase()
      : undefined;
    if (platform && flags.preset && flags.preset !== platform)
      throw new UsageError(
        `--preset ${flags.preset}: a ${platform} store is read with the ${platform} preset; drop --preset`,
      );
    // Before the source is opened (a store is asked for its products): the file alone can be wrong.
    // A job file's own source and mapping are judged on the descriptor they are read from.
    const reads = flags.jobReads;
    const keysFile = io.keysFile?.file;
    const mapping = flags.mapping
      ? await loadMappingFile(
          flags.mapping,
          reads?.mapping ? (path) => openJobFile(path, reads.mapping!, keysFile) : undefined,
          flags.mappingAsWritten,
        )
      : undefined;
    opened = await openSource(source, {
      ...(reads?.source ? { openFile: (path: string) => openJobFile(path, reads.source!, keysFile) } : {}),
      ...(flags.format ? { format: flags.format } : {}),
      ...(flags.delimiter ? { delimiter: flags.delimiter } : {}),
      ...(flags.encoding ? { encoding: flags.encoding } : {}),
      stdin: io.stdin,
      sourceTimeoutMs: flags.sourceTimeout,
      allowPrivateSource: flags.allowPrivateSource === true,
      sourceNamedByJob: flags.sourceFromJob === true,
      maxRecordBytes: flags.maxRecordBytes,
      ...(io.network ? { network: io.network } : {}),
      store: {
        env: io.env,
        allowInsecure: flags.allowInsecure,
        ...(flags.sourceCredentials ? { credentials: flags.sourceCredentials } : {}),
        ...(flags.sourceApiVersion ? { apiVersion: flags.sourceApiVersion } : {}),
        ...(io.storeSeams ?? {}),
        onProgress: io.storeSeams?.onProgress ?? ((line) => tellProgress(io, line)),
        // A long wait the store asked for: said on any stderr, a terminal's or a cron mail's.
        onWait:
          io.storeSeams?.onWait ??
          ((line) => {
            clearForLine();
            io.stderr.write(`catalog-sync: ${terminalSafeLine(line)}\n`);
          }),
        // Ctrl-C or a cron `timeout` while the shop prepares its file: one line, 130/143.
        whilePreparing: (wait, what) =>
          before ? before.during(wait, { what }) : interruptible(wait, what, io.signals),
      },
    });
    const preset = opened.preset ?? flags.preset;
    // The first records, read ahead: a header in the store's language is known by its values.
    const peeked = await peekRecords(opened.records);
    const mapper = createMapper({
      columns: opened.columns,
      sample: peeked.sample,
      ...(flags.matchBy
        ? { matchBy: flags.matchBy, matchByOption: names.withValue('matchBy', flags.matchBy) }
        : {}),
      ...(preset ? { preset: preset as never } : {}),
      // Where the preset was named, for the summary: `--preset`, or `preset in nightly.yml`.
      presetOrigin: opened.preset ? "the store's platform" : names.name('preset'),
      ...(mapping ? { mapping } : {}),
      ...(flags.fields ? { fields: flags.fields, fieldsOption: names.name('fields') } : {}),
      ...(opened.delimiter ? { delimiter: opened.delimiter } : {}),
      ...(platform ? { fromStoreApi: true } : {}),
      openColumns: opened.openColumns,
      ...(flags.onlyPublished ? { onlyPublished: true } : {}),
      ...(flags.missing ? { missing: true } : {}),
      ...(flags.includeExternal ? { includeExternal: true } : {}),
      ...(flags.priceIncludesTax ? { priceIncludesTax: true } : {}),
      ...(flags.taxRate !== undefined ? { taxRate: flags.taxRate } : {}),
      ...(flags.priceDecimals !== undefined ? { priceDecimals: flags.priceDecimals } : {}),
    });
    // The field the source's columns and the mapping made the match field (`--match-by ean` is barcode).
    const keyLine = missingNamesMatchField(flags, names, mapper.matchBy);
    if (keyLine !== null) throw new UsageError(keyLine);
    // Before the other checks of these names: `stock` is refused for what it is, whatever the
    // listed products show (an older run's `stock` text field) or this run sends.
    // Each named where the user wrote it: a flag, or a job file's key (`missing in nightly.yml`).
    const named = namedFields(flags, (option) => names.name(option));
    const readLine = readAsLine(named, mapper.readAs, mapper.sourceFields);
    if (readLine !== null) throw new UsageError(readLine);
    checkSentFields(flags, names, {
      fields: mapper.fields,
      given: mapper.sourceFields,
      closed: flags.fields !== undefined || !opened.openColumns,
      preset: mapper.preset,
      format: opened.format,
    });
    // A field name neither the tool nor this source knows may still be the marketplace's own: the
    // run's read of the seller's products decides, before any write (listed-fields.ts).
    const unknownFields = unknownNames(named, [...TOOL_FIELDS, ...mapper.sourceFields]);
    // Before any write, after the source and mapping were found fit: the report is written when the
    // run is done, too late to say that its path is wrong.
    const reportSeen = flags.report
      ? await checkOutputFile(flags.report, '--report', source, flags.reportWithin)
      : undefined;
    const seller = await sellerOfRun(
      sellers,
      { ...api, keyFingerprint: sellerRef(api.baseUrl, api.apiKey) },
      flags.seller,
    );
    const spec: RunSpec = {
      source: displaySource(source),
      ...(await sourceIdentity(source, flags, mapper.matchBy, opened)),
      sellerRef: seller.ref,
      ...(seller.name ? { sellerName: seller.name } : {}),
      baseUrl: api.baseUrl,
      keyEnv: api.keyEnv,
      ...(io.keysFile ? { keysFile: resolve(io.keysFile.file) } : {}),
      matchBy: mapper.matchBy,
      ...(mapper.matchColumnNames.length > 0 ? { matchColumnNames: mapper.matchColumnNames } : {}),
      dryRun: flags.dryRun,
      dailyReset: flags.dailyReset,
      dailyBudget: flags.dailyBudget ?? null,
      allowInsecure: api.allowInsecure,
      preset: mapper.preset,
      fields: flags.fields ?? null,
      sentFields: mapper.fields,
      createOnlyFields: flags.createOnlyFields ?? null,
      keepRemoteEdits: flags.keepRemoteEdits ?? null,
      incremental: flags.incremental === true,
      onlyPublished: flags.onlyPublished === true,
      includeExternal: flags.includeExternal === true,
      priceIncludesTax: flags.priceIncludesTax === true || flags.taxRate !== undefined,
      taxRate: flags.taxRate ?? null,
      fullReadAfterMs: flags.fullReadAfter,
      maxInvalid: flags.maxInvalid ?? null,
      maxUpdates: flags.maxUpdates ?? null,
      maxPriceChange: flags.maxPriceChange ?? null,
      only: flags.only ?? null,
      notify: flags.notify ?? null,
      ...(flags.notify && flags.notifyFromJob ? { notifyFromJob: true } : {}),
      missing: flags.missing ?? null,
      maxMissing: flags.missing ? (flags.maxMissing ?? null) : null,
      rowEstimate: opened.rowEstimate?.rows ?? null,
      ...(opened.rowEstimate?.overcounts ? { rowEstimateOvercounts: opened.rowEstimate.overcounts } : {}),
      first: flags.first ?? [...DEFAULT_FIRST],
      ...(unknownFields.length > 0 ? { unknownFields } : {}),
    };
    // Said once the run is sure to go on: a refused run says only why it was refused. `run` says
    // them with its summary (run-outcome.ts): the read of the products may refuse its run yet.
    const notes = dryRunLines.map((line) => `catalog-sync: ${terminalSafeLine(line)}\n`);
    if (command !== 'run') for (const note of notes) io.stderr.write(note);
    const openedSource = opened;
    const sourceRows = new SourceRowCapture(opened.columns, opened.header, opened.delimiter);
    return {
      spec,
      rows: mapper.map(sourceRows.tap(peeked.records), sourceRows),
      sourceRows,
      // Read when the summary is written: a JSON source's keys are said as its records brought them.
      get detections() {
        return [...openedSource.detections, ...mapper.detections];
      },
      rowEstimate: openedSource.rowEstimate,
      dryRunNotes: command === 'run' ? notes : [],
      sandbox,
      reportSeen,
      async close() {
        await openedSource.close();
        await sandbox?.close();
      },
      beforeStoreLines(clear) {
        clearForLine = clear;
      },
    };
  } catch (error) {
    await opened?.close();
    await sandbox?.close();
    // A source's header is quoted in these lines: whatever the file turned out to be, no key shows.
    throw withoutKeys(asUsageError(error), loadedKeys(io.env));
  }
}

/**
 * `error` with every loaded key redacted from its line (in every form, secret-forms.ts), when it is a
 * UsageError that holds one: the last guard of a line that quotes a source (its header's names).
 */
function withoutKeys(error: unknown, keys: readonly string[]): unknown {
  if (!(error instanceof UsageError)) return error;
  const message = new SecretForms(keys).redact(error.message);
  return message === error.message ? error : new UsageError(message, error.exitCode);
}

/** Source and mapping mistakes are the user's: one line, exit 2. */
export function asUsageError(error: unknown): unknown {
  if (error instanceof SourceError || error instanceof CatalogConfigError)
    return new UsageError(error.message);
  return error;
}

/** Told while a store prepares its catalog (Shopify's bulk operation), on a terminal only. */
function tellProgress(io: CliIo, line: string): void {
  if ((io.stderr as { isTTY?: boolean }).isTTY) io.stderr.write(`${line}\n`);
}
