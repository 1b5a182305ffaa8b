// At the door (spec 4.3-4.5 uploads: 413; spec 7 FILE_TOO_LARGE): what an XLSX upload's central directory
// declares its parts inflate to, read from the end of the stored file without inflating anything. When the
// declared total is past the workbook's inflate budget (table-bounds.ts: 100 times the file, 16 MiB at
// least, 1 GiB at most), the upload is refused with 413 before a job exists. A directory that lies, or
// none at all, is no proof either way: the job's reading counts the bytes actually inflated
// (inflate-guard.ts) and fails it there.
import { open } from 'node:fs/promises';
import { inflateBudget } from './table-bounds.js';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const TAIL = 22 + 0xffff;

/** The sum of the uncompressed sizes the central directory declares (Infinity for a ZIP64 size), or null when the file has no readable directory. */
export async function declaredInflatedBytes(path: string, fileSize: number): Promise<number | null> {
  const handle = await open(path, 'r');
  try {
    const tailLength = Math.min(fileSize, TAIL);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, fileSize - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === END_OF_DIRECTORY) {
        end = i;
        break;
      }
    }
    if (end === -1) return null;
    const entries = tail.readUInt16LE(end + 10);
    const size = tail.readUInt32LE(end + 12);
    const offset = tail.readUInt32LE(end + 16);
    if (offset === 0xffffffff || size === 0xffffffff || offset + size > fileSize) return null; // ZIP64 or broken: the job decides
    const directory = Buffer.alloc(size);
    await handle.read(directory, 0, size, offset);
    let total = 0;
    let at = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
      const uncompressed = directory.readUInt32LE(at + 24);
      total += uncompressed === 0xffffffff ? Infinity : uncompressed;
      at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    return total;
  } finally {
    await handle.close();
  }
}

/** Why an XLSX upload is refused at the door for what it declares, or null. */
export async function declaredPastBudget(path: string, fileSize: number): Promise<string | null> {
  const declared = await declaredInflatedBytes(path, fileSize);
  const budget = inflateBudget(fileSize);
  if (declared === null || declared <= budget) return null;
  return `its parts declare ${Number.isFinite(declared) ? declared : 'over 4 GiB of'} bytes once inflated; the sandbox inflates at most ${budget} bytes for a file of ${fileSize} bytes`;
}
