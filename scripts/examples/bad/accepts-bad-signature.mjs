// Breaks webhook.rejects-bad-signature (spec 6): does not verify the signature's digest.
import { runClient } from './base.mjs';

await runClient({ verifySignature: false });
