// A child process writing students and their school associations, for the crash and multi-process tests.
// Usage: node --import tsx document-writer-process.ts <database file> <student id prefix> [count]; without a count it
// writes until killed. Prints `ready` once set up and `done` after the last write.
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { documentWrite } from './document-writes.js';
import { resources, school, seedSampleDescriptors, student, studentSchoolAssociation } from './sample-documents.js';

const [file, prefix, count] = process.argv.slice(2);
if (!file || !prefix) throw new Error('Usage: document-writer-process.ts <database file> <prefix> [count]');
const store = new SqliteStore(file);
await store.migrate();
await store.open();
await seedSampleDescriptors(store);
await store.upsert(documentWrite(resources.schools, school(1)));
process.stdout.write('ready\n');
const total = count === undefined ? Infinity : Number(count);
for (let index = 0; index < total; index++) {
  const studentUniqueId = `${prefix}${index}`;
  await store.upsert(documentWrite(resources.students, student(studentUniqueId)));
  await store.upsert(documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation(studentUniqueId, 1)));
}
await store.close();
process.stdout.write('done\n');
