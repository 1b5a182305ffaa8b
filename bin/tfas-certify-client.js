#!/usr/bin/env node
// `tfas-certify-client`: the client certification CLI (client-cert/cli.ts), as `tfas certify-client`
// (bin/tfas.js runs its JavaScript bundle). Reports go under the current directory.
import { runSubcommand } from './tfas.js';

await runSubcommand('certify-client', process.argv.slice(2));
