// Small number helpers and a plain-text table, so every benchmark prints the same way.

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

export const max = (values: number[]): number => Math.max(...values);

/** Sizes in kB of 1000 bytes, the unit Vite prints and the target is written in. */
export const kB = (bytes: number): string => (bytes / 1000).toFixed(1);

export const round = (value: number, digits = 0): number => Number(value.toFixed(digits));

/** One line to stdout (the project's scripts write to process.stdout, not console.log). */
export const print = (text = ''): void => {
  process.stdout.write(`${text}\n`);
};

export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  // Labels (first column) align left, figures right.
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!))).join('  ');
  print(`\n${title}`);
  print(line(header));
  print(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells.slice(1)) print(line(row));
}
