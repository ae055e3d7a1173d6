// Locale-independent ordering helpers, so generated files are byte-identical on every machine.

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortedText(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText);
}

export function sortByPath<T extends { path: string }>(items: T[]): T[] {
  return items.sort((a, b) => compareText(a.path, b.path));
}
