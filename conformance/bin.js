#!/usr/bin/env node
// `tfas-conform`: the conformance CLI (conformance/cli.ts) through tsx. Reports go under the current directory.
import { launchTsx } from '../contracts/lib/launch-tsx.js';

launchTsx(new URL('./cli.ts', import.meta.url), 'tfas-conform');
