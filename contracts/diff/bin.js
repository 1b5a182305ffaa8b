#!/usr/bin/env node
// `tfas-contract-diff`: the change gate's CLI, as `tfas diff` (bin/tfas.js runs its JavaScript bundle). BASE,
// HEAD and --out resolve against the current directory.
import { runSubcommand } from '../../bin/tfas.js';

await runSubcommand('diff', process.argv.slice(2));
