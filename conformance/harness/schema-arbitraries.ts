// The schema generators live in schema-arbitraries/ (see its index.ts); this path stays for existing imports.
export * from './schema-arbitraries/index.js';
