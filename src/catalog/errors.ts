/**
 * A mistake in what the user asked for (a wrong `--preset`, a bad mapping file, an unknown field
 * in `--fields`): one line that names the option or key at fault. The CLI prints it and exits 2.
 */
export class CatalogConfigError extends Error {
  override readonly name = 'CatalogConfigError';
}
