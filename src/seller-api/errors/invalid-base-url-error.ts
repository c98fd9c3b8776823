/** A configuration error (not a SellerApiError): the base URL breaks a rule of base-url.ts. */
export class InvalidBaseUrlError extends Error {
  override name = 'InvalidBaseUrlError';
  /** What was given, with any `user:pass@` credentials and query removed. */
  readonly given: string;

  constructor(given: string, problem: string) {
    super(`invalid base URL "${given}": ${problem}`);
    this.given = given;
  }
}
