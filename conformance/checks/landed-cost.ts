// The landed-cost checks live in landed-cost/ (see its index.ts); this path stays for existing imports.
export * from './landed-cost/index.js';
