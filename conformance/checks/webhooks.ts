// The webhook checks live in webhooks/ (see its index.ts); this path stays for existing imports.
export * from './webhooks/index.js';
