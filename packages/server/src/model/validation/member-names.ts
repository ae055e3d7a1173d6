// Names the ODS puts into validation messages: PascalCase member names, collection class names and ordinals.

/** The ODS member name for a JSON property (`entryDate` → `EntryDate`). */
export function memberName(jsonName: string): string {
  return jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

/**
 * The ODS collection display name: the plural of the child entity class name (`AssessmentScore` + `scores` →
 * `AssessmentScores`). The plural ending is taken from the JSON collection name, which the model already pluralised;
 * without an entity name (TPDM) the class is the parent entity name followed by the collection name.
 */
export function collectionDisplayName(jsonName: string, parentEntityName: string, entityName?: string): string {
  const plural = memberName(jsonName);
  const singular = entityName ?? parentEntityName + plural;
  for (let shared = Math.min(plural.length, singular.length); shared > 0; shared--) {
    if (singular.endsWith(plural.slice(0, shared))) return singular.slice(0, singular.length - shared) + plural;
  }
  return singular + plural;
}

/** The singular of an English plural as the model's collection names form them (`Addresses` → `Address`). */
export function singularOf(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(plural)) return plural.slice(0, -2);
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
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
