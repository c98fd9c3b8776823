import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';

const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
  version: string;
};

/** Sent with every request, so the platform can tell this tool's traffic apart. */
export const USER_AGENT = `catalog-sync/${version}`;
