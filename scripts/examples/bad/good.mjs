// Keeps every rule: the self-test's control (client-cert/self-test.test.ts).
import { runClient } from './base.mjs';

await runClient({});
