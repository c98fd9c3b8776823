#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm ci` (the `prepare` script).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv);
