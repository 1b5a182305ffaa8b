// The browser the browser tests drive: Debian's chromium (apt-get install chromium), headless, through
// playwright-core with an explicit executablePath, so nothing is downloaded at install or run time.
// Without a chromium, a test skips locally and says why; under CI=true it fails (.ci/run installs it).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian and Ubuntu put it; CHROMIUM_PATH first when set. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export interface ChromiumLookup {
  /** The executable to launch, or null when none was found. */
  executablePath: string | null;
  /** Why the browser tests skip (null: they run; under CI a missing chromium is a failure, not a skip). */
  skipReason: string | null;
}

export function lookupChromium(env: NodeJS.ProcessEnv = process.env, exists: (file: string) => boolean = existsSync): ChromiumLookup {
  const candidates = [env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES].filter((c): c is string => Boolean(c));
  const executablePath = candidates.find((c) => exists(c)) ?? null;
  if (executablePath) return { executablePath, skipReason: null };
  if (env.CI === 'true' || env.CI === '1') return { executablePath: null, skipReason: null };
  return { executablePath: null, skipReason: `no chromium found (looked at ${candidates.join(', ')}): install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH; browser tests skipped` };
}

/** Launches headless chromium; throws a clear error (CI) when there is none. */
export async function launchChromium(lookup: ChromiumLookup = lookupChromium()): Promise<Browser> {
  if (!lookup.executablePath) {
    throw new Error(`chromium is required under CI but was not found (looked at ${[process.env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES].filter(Boolean).join(', ')}); .ci/run installs Debian's chromium`);
  }
  // --no-sandbox: CI containers run as root, where chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: lookup.executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
