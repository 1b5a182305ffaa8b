// The upload checks live in uploads/ (see its index.ts); this path stays for existing imports.
export * from './uploads/index.js';
