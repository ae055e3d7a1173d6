// Profile definitions (contract §9.1) in the SQLite store.
import type Database from 'better-sqlite3';
import type { StoredProfile } from '../../store.js';

export function saveProfiles(db: Database.Database, profiles: readonly StoredProfile[]): void {
  const upsert = db.prepare<[string, string, string]>(
    'INSERT INTO profile (name_key, name, definition) VALUES (?, ?, ?) ' +
      'ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, definition = excluded.definition',
  );
  db.transaction(() => {
    for (const { name, definition } of profiles) upsert.run(name.toLowerCase(), name, definition);
  }).immediate();
}

export function listProfiles(db: Database.Database): StoredProfile[] {
  return db.prepare<[], StoredProfile>('SELECT name, definition FROM profile ORDER BY name_key').all();
}

export function deleteProfile(db: Database.Database, name: string): boolean {
  return db.prepare<[string]>('DELETE FROM profile WHERE name_key = ?').run(name.toLowerCase()).changes > 0;
}
