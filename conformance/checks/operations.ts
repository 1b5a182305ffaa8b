// The per-operation checks live in operations/ (see its index.ts); this path stays for existing imports.
export * from './operations/index.js';
