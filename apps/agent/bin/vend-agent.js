#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's ESM loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv);
// Everything is closed by now; don't let a native handle that is still winding down (the serial
// port's poller) hold the exit up.
setTimeout(() => process.exit(), 500).unref();
