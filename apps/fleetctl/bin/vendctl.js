#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's ESM loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv);
