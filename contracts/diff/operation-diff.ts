// Operation and document rules of the contract change gate: the code is in operations/ (this module keeps the
// import path of diff.ts, the tests and scripts working).
export { diffDocuments, operationRules } from './operations/index.js';
