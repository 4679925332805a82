import { cellText, isEmptyValue } from './cell-value.ts';

// Copy as tab-separated values, the format spreadsheets paste into cells. A tab or line break inside a value would
// split the cell, so such values are quoted the way spreadsheets read them back.

function tsvCell(value: unknown): string {
  if (isEmptyValue(value)) return '';
  const text = cellText(value);
  return /[\t\n\r"]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toTsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.join('\t')];
  for (const row of rows) lines.push(columns.map((column) => tsvCell(row[column])).join('\t'));
  return lines.join('\n');
}
