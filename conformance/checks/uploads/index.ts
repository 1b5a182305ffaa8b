// Uploads (spec 4.3, 7, 8.3; contracts/README.md decisions 6-7): every multipart upload operation of the
// contract refuses a file above its size cap with 413 FILE_TOO_LARGE and a file of a type it does not accept
// with 415 INVALID_FILE_FORMAT, the operations documenting 409 DUPLICATE_UPLOAD refuse the same file twice
// naming the first job, and a valid small file is accepted with a receipt whose job reads back with the
// operation's job type. What each operation accepts is read from the contract (`x-max-file-bytes`,
// `x-accepted-file-types`, `x-job-type`, the documented 409 codes, the security requirement's scopes), never
// written here.
//
//   targets.ts           the contract's upload operations and what each accepts
//   files.ts             valid files unique to the run, foreign types, the oversized CSV, the form
//   send.ts              the check's tenant, uploads with 429s waited out, untestable answers
//   for-each-target.ts   the loop of the per-operation checks (tenant, 429 budget, skip reasons)
//   accepted-receipt.ts  uploads.accepted-receipt
//   unsupported-type.ts  uploads.unsupported-type
//   duplicate-upload.ts  uploads.duplicate-upload
//   file-too-large.ts    uploads.file-too-large
//   binary-content.ts    uploads.binary-named-csv (sandbox rule: content sniffed; simulator profile only)
//   run-policy.ts        uploads.run-policy (the screening an upload runs: it needs jobs that end, so it is not
//                        among the acceptance checks above, which stubs without a worker exercise)
import type { Check } from '../../harness/check.js';
import { acceptedReceipt } from './accepted-receipt.js';
import { duplicateUpload } from './duplicate-upload.js';
import { fileTooLarge } from './file-too-large.js';
import { unsupportedType } from './unsupported-type.js';

export { sandboxUploadChecks } from './binary-content.js';

export { uploadRunPolicy } from './run-policy.js';

export const uploadChecks: Check[] = [acceptedReceipt, unsupportedType, duplicateUpload, fileTooLarge];
