import path from 'node:path';
import { describe } from 'vitest';
import { temporaryFolder } from '../load/support/convert-files.js';
import { describeSampleRoundTrip } from './support/round-trip.js';

describe('a part of the Grand Bend sample: SQLite, export, load --direct into a new SQLite store', () => {
  describeSampleRoundTrip(`sqlite:${path.join(temporaryFolder(), 'copy.sqlite')}`);
});
