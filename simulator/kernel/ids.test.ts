import { describe, expect, it } from 'vitest';
import { nameUuid, seededIds } from './ids.js';

describe('identifiers', () => {
  it('gives the RFC 9562 version-5 UUID of a name in a namespace', () => {
    // RFC 9562 appendix A.4: the DNS namespace and www.example.com.
    expect(nameUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('repeats a seeded sequence from its seed', () => {
    const a = seededIds(7);
    const b = seededIds(7);
    expect([a.uuid(), a.secret()]).toEqual([b.uuid(), b.secret()]);
  });
});
