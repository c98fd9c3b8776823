import { afterAll, describe, expect, it } from 'vitest';
import { openSource } from '../../../src/sources/index.js';
import { readCsvText, tempFolder } from './helpers.js';

const folder = tempFolder();
afterAll(() => folder.remove());

const COMMA_FILE = 'sku,name,price,quantity\nA-1,Thing one,12.50,3\n';

// A header read as one column that holds another delimiter: the run was refused for a key field
// "no column gives", with a mapping file to write, where the delimiter was what was wrong.
describe('a CSV header read as one column holding another delimiter', () => {
  it('names the delimiter the file looks separated by, under a --delimiter that splits nothing', async () => {
    await expect(readCsvText(COMMA_FILE, { delimiter: ';' })).rejects.toThrow(
      `standard input: the header was read as one column "sku,name,price,quantity": the file looks ','-separated, not ';': check --delimiter (or leave it out: it is detected)`,
    );
    await expect(readCsvText(COMMA_FILE.replaceAll(',', '\t'), { delimiter: '|' })).rejects.toThrow(
      `the file looks tab-separated, not '|': check --delimiter`,
    );
  });

  it('under a sep= line or a .tsv extension, names where the delimiter came from', async () => {
    await expect(readCsvText(`sep=;\n${COMMA_FILE}`)).rejects.toThrow(
      `standard input: the header was read as one column "sku,name,price,quantity": the file looks ','-separated, not ';' (the sep= line): correct the sep= line (or remove it: the delimiter is detected)`,
    );
    const tsv = folder.write('comma.tsv', COMMA_FILE);
    await expect(openSource(tsv)).rejects.toThrow(
      `${tsv}: the header was read as one column "sku,name,price,quantity": the file looks ','-separated, not tab (the .tsv extension): give --delimiter ','`,
    );
  });

  it('detected: the header line is quoted whole, so no delimiter in it splits it', async () => {
    await expect(readCsvText('"sku;name;price"\n"A-1;Mug;9.50"\n')).rejects.toThrow(
      `standard input: the header was read as one column "sku;name;price": its ';' stand inside quotes, which split nothing: remove the quotes around the header's cells`,
    );
  });

  it('a one-column file whose header holds no other delimiter is read as it is', async () => {
    const { opened, records } = await readCsvText('sku\nA-1\nB-2\n');
    expect(opened.columns).toEqual(['sku']);
    expect(records).toHaveLength(2);
  });
});
