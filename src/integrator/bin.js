#!/usr/bin/env node
// The `surtido` bin: the integrator CLI is TypeScript run through tsx (a dependency), as
// every entry point of this package is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr });
