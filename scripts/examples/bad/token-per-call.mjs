// Breaks token.reused (spec 5.2): exchanges the key before every request.
import { runClient } from './base.mjs';

await runClient({ exchangePerCall: true });
