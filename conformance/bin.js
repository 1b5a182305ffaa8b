#!/usr/bin/env node
// `tfas-conform`: the conformance CLI, as `tfas conform` (bin/tfas.js runs its JavaScript bundle). Reports go
// under the current directory.
import { runSubcommand } from '../bin/tfas.js';

await runSubcommand('conform', process.argv.slice(2));
