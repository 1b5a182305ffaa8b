// The work one uploaded table file may cost (sandbox-defined: the spec caps only the file's size, 50 MB in
// spec 8.3; simulator/README.md "Defaults the spec leaves open"). A file of a few hundred kilobytes can
// inflate to gigabytes (a zip of spaces) or hold a row of a million columns: every upload path reads its
// file within these bounds whatever the file, checked WHILE reading (the bytes inflated so far, the row being
// built), never after, and a job whose file is past one ends FAILED saying which (spec 3.1), at once.
// Excel's own limits are the floor, so no workbook Excel can write is refused for its shape.

export const TABLE_BOUNDS = {
  /** Cells in one row, and the highest column a cell may name: Excel's 16,384 (column XFD). */
  maxColumns: 16_384,
  /** Characters in one cell: Excel's 32,767. */
  maxCellChars: 32_767,
  /** Characters in one CSV record (all its fields): a thousand wide cells, or every column of a wide sheet. */
  maxRowChars: 1024 * 1024,
  /** Bytes a workbook's parts may inflate to in all: a 50 MB workbook of ordinary sheets stays well below. */
  maxInflatedBytes: 1024 * 1024 * 1024,
  /** Inflated bytes per byte of the file: ordinary sheets deflate 5 to 30 times, a zip of spaces 1,000. */
  maxInflateRatio: 100,
  /** What any workbook may inflate to whatever its ratio (a tiny workbook's parts compress well). */
  ratioFloorBytes: 16 * 1024 * 1024,
  /** Bytes of one XML node of a workbook part (text, or a tag with its attributes) between two `<`. */
  maxXmlNodeBytes: 1024 * 1024,
} as const;

export type TableBounds = typeof TABLE_BOUNDS;

/** A file past one of the bounds: the job fails with this message (after the file's name), never retried. */
export class UploadBoundError extends Error {
  constructor(
    readonly bound: keyof TableBounds,
    message: string,
  ) {
    super(message);
    this.name = 'UploadBoundError';
  }
}

/** What a workbook of `fileSize` bytes may inflate to: the ratio bound (above its floor), within the total. */
export function inflateBudget(fileSize: number, bounds: TableBounds = TABLE_BOUNDS): number {
  return Math.min(bounds.maxInflatedBytes, Math.max(bounds.ratioFloorBytes, bounds.maxInflateRatio * fileSize));
}

/** Row checks common to CSV and XLSX: how many cells, how long each. */
export function checkRowCells(cells: readonly string[], line: number, bounds: TableBounds = TABLE_BOUNDS): void {
  if (cells.length > bounds.maxColumns) {
    throw new UploadBoundError('maxColumns', `row ${line} has ${cells.length} columns; at most ${bounds.maxColumns} are read`);
  }
  for (let i = 0; i < cells.length; i++) {
    if (cells[i].length > bounds.maxCellChars) {
      throw new UploadBoundError('maxCellChars', `row ${line}, column ${i + 1} holds ${cells[i].length} characters; a cell may hold at most ${bounds.maxCellChars}`);
    }
  }
}
