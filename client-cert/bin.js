#!/usr/bin/env node
// `tfas-certify-client`: the client certification CLI (client-cert/cli.ts) through tsx. Reports go under the current directory.
import { launchTsx } from '../contracts/lib/launch-tsx.js';

launchTsx(new URL('./cli.ts', import.meta.url), 'tfas-certify-client');
