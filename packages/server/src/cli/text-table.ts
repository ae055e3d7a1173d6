// Rows printed as a plain text table: a heading line, columns padded to their widest cell.

export type Column<T> = readonly [heading: string, cell: (row: T) => string];

export function textTable<T>(columns: readonly Column<T>[], rows: readonly T[]): string[] {
  const cells = [columns.map(([heading]) => heading), ...rows.map((row) => columns.map(([, cell]) => cell(row)))];
  const widths = columns.map((_, column) => Math.max(...cells.map((line) => line[column]!.length)));
  return cells.map((line) =>
    line
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}
