// Names the ODS puts into validation messages: PascalCase member names (collection property names for arrays) and ordinals.
import type { PropertyShape } from '../index.js';

/**
 * The ODS member name of a JSON property: the model's `memberName` where the ODS spells it differently (acronyms,
 * collection and inline-object entity names), otherwise the JSON name capitalised (`entryDate` → `EntryDate`).
 */
export function memberName(jsonName: string, shape?: PropertyShape): string {
  return shape?.memberName ?? jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

/** `1st`, `2nd`, `3rd`, `4th`, …, `11th`, `12th`, `13th`, `21st`. */
export function ordinal(position: number): string {
  const lastTwo = position % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${position}th`;
  switch (position % 10) {
    case 1:
      return `${position}st`;
    case 2:
      return `${position}nd`;
    case 3:
      return `${position}rd`;
    default:
      return `${position}th`;
  }
}
