import path from 'node:path';
import { temporaryFolder } from '../load/support/convert-files.js';
import { describeWithEdfiSource } from '../support/edfi-source.js';
import { describeSampleRoundTrip } from './support/round-trip.js';

describeWithEdfiSource('a part of the Grand Bend sample: SQLite, export, load --direct into a new SQLite store', () => {
  describeSampleRoundTrip(`sqlite:${path.join(temporaryFolder(), 'copy.sqlite')}`);
});
