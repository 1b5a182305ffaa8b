// Small table files built in memory for upload tests: CSV text from lines, and XLSX workbooks from rows.
import ExcelJS from 'exceljs';

/** CSV text from lines. */
export const csv = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

/** An XLSX workbook with these sheets (name -> rows), in order. */
export async function xlsx(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
