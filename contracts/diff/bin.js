#!/usr/bin/env node
// `tfas-contract-diff`: the change gate's CLI (contracts/diff/cli.ts) through tsx. BASE, HEAD and --out
// resolve against the current directory.
import { launchTsx } from '../lib/launch-tsx.js';

launchTsx(new URL('./cli.ts', import.meta.url), 'tfas-contract-diff');
