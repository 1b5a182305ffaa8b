import { describe, expect, it } from 'vitest';
import { CHROMIUM_CANDIDATES, launchChromium, lookupChromium } from './chromium.js';

const only = (file: string) => (candidate: string) => candidate === file;

describe('the chromium launcher of the browser tests', () => {
  it('uses CHROMIUM_PATH before the Debian locations when it exists', () => {
    expect(lookupChromium({ CHROMIUM_PATH: '/opt/chrome/chrome' }, only('/opt/chrome/chrome'))).toEqual({ executablePath: '/opt/chrome/chrome', skipReason: null });
    expect(lookupChromium({}, only(CHROMIUM_CANDIDATES[0]))).toEqual({ executablePath: '/usr/bin/chromium', skipReason: null });
  });

  it('skips locally when no chromium is found, naming every path it looked at and how to install one', () => {
    const lookup = lookupChromium({ CHROMIUM_PATH: '/nowhere/chromium' }, () => false);
    expect(lookup.executablePath).toBeNull();
    expect(lookup.skipReason).toContain('/nowhere/chromium, /usr/bin/chromium, /usr/bin/chromium-browser');
    expect(lookup.skipReason).toContain('apt-get install chromium');
  });

  it('does not skip under CI=true when chromium is missing: launching fails with the reason instead', async () => {
    const lookup = lookupChromium({ CI: 'true' }, () => false);
    expect(lookup).toEqual({ executablePath: null, skipReason: null });
    await expect(launchChromium(lookup)).rejects.toThrow(/chromium is required under CI/);
  });
});
