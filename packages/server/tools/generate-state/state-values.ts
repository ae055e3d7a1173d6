// Values of a synthetic state that do not depend on its shape: unique identifiers from indexes, descriptor URIs
// checked against the model's default descriptors (which a new store is seeded with), names, and school days.
import type { ModelRegistry } from '../../src/model/index.js';
import { seededNumber } from '../../src/testing/seeded-random.js';

/** A bijection of 32-bit indexes (odd multiplier, then a salt): distinct indexes give distinct numbers. */
export function scrambled(index: number, salt: number): number {
  return (Math.imul(index + 1, 2654435761) ^ salt) >>> 0;
}

export function uniqueIdOf(prefix: string, index: number, salt: number): string {
  return `${prefix}${String(scrambled(index, salt)).padStart(10, '0')}`;
}

export type DescriptorUri = (descriptor: string, codeValue: string) => string;

/** Descriptor URIs of the Ed-Fi defaults; an unknown code value fails at once rather than on every write. */
export function descriptorUris(registry: ModelRegistry): DescriptorUri {
  return (descriptor, codeValue) => {
    const known = registry.descriptorValuesOf(descriptor).some((value) => value.codeValue === codeValue);
    if (!known) throw new Error(`${descriptor} has no default value '${codeValue}'`);
    return `uri://ed-fi.org/${descriptor}#${codeValue}`;
  };
}

const FIRST_NAMES = ['Ava', 'Liam', 'Mia', 'Noah', 'Zoe', 'Ethan', 'Lena', 'Omar', 'Ines', 'Kai', 'Ruth', 'Jon'];
const LAST_NAMES = ['Garcia', 'Smith', 'Nguyen', 'Johnson', 'Brown', 'Patel', 'Lopez', 'Kim', 'Davis', 'Miller'];

export function pick<T>(values: readonly T[], seed: number, key: string): T {
  return values[seededNumber(seed, key) % values.length] as T;
}

export function personName(seed: number, key: string): { firstName: string; lastSurname: string } {
  return { firstName: pick(FIRST_NAMES, seed, `${key}.first`), lastSurname: pick(LAST_NAMES, seed, `${key}.last`) };
}

/** Weekdays from `from` to `to` inclusive, as `yyyy-MM-dd`. */
export function weekdays(from: string, to: string): string[] {
  const days: string[] = [];
  for (
    let day = new Date(`${from}T00:00:00Z`);
    day <= new Date(`${to}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + 1)
  ) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day.toISOString().slice(0, 10));
  }
  return days;
}

export function isoDate(year: number, dayOfYear: number): string {
  return new Date(Date.UTC(year, 0, 1 + dayOfYear)).toISOString().slice(0, 10);
}
