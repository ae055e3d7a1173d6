// Resource ids are GUIDs: accepted in the .NET spellings (N, D, B, P) and rendered as 32 lowercase hex digits.

const GUID_SPELLINGS = [
  /^([0-9a-f]{32})$/i,
  /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i,
  /^\{([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}$/i,
  /^\(([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\)$/i,
];

export const EMPTY_RESOURCE_ID = '0'.repeat(32);

/** The id in its canonical form, or undefined when the text is not a GUID. Surrounding whitespace is ignored, as in .NET. */
export function parseResourceId(text: string): string | undefined {
  const trimmed = text.trim();
  for (const spelling of GUID_SPELLINGS) {
    const match = spelling.exec(trimmed);
    if (match !== null) return match.slice(1).join('').toLowerCase();
  }
  return undefined;
}
