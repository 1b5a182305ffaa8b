// Schema-level comparison of the contract change gate: the code is in schemas/ (this module keeps the import
// path of diff.ts, the operation rules, the tests and scripts working).
export { diffSchema, schemaRules } from './schemas/index.js';
