// Vendors (with their namespace prefixes) and applications (claim set, education organizations, profiles).
import type Database from 'better-sqlite3';
import type { ApplicationChanges, ApplicationDefinition, ClientApplication } from '../../store.js';

interface ApplicationRow {
  readonly application_id: number;
  readonly vendor_id: number;
  readonly vendor_name: string;
  readonly application_name: string;
  readonly claim_set_name: string;
}

const SELECT_APPLICATION =
  'SELECT a.application_id, a.vendor_id, v.name AS vendor_name, a.name AS application_name, a.claim_set_name ' +
  'FROM application a JOIN vendor v ON v.vendor_id = a.vendor_id';

export class ApplicationRecords {
  readonly #byName: Database.Statement<[string, string], ApplicationRow>;
  readonly #byId: Database.Statement<[number], ApplicationRow>;
  readonly #all: Database.Statement<[], ApplicationRow>;
  readonly #vendorId: Database.Statement<[string], number>;
  readonly #prefixes: Database.Statement<[number], string>;
  readonly #educationOrganizationIds: Database.Statement<[number], number>;
  readonly #profileNames: Database.Statement<[number], string>;
  readonly #insertVendor: Database.Statement<[string]>;
  readonly #insertPrefix: Database.Statement<[number, string]>;
  readonly #insertApplication: Database.Statement<[number, string, string]>;
  readonly #insertEducationOrganization: Database.Statement<[number, number]>;
  readonly #insertProfile: Database.Statement<[number, string]>;
  readonly #setClaimSet: Database.Statement<[string, number]>;
  readonly #clearEducationOrganizations: Database.Statement<[number]>;

  constructor(db: Database.Database) {
    this.#byName = db.prepare(`${SELECT_APPLICATION} WHERE v.name = ? AND a.name = ?`);
    this.#byId = db.prepare(`${SELECT_APPLICATION} WHERE a.application_id = ?`);
    this.#all = db.prepare(`${SELECT_APPLICATION} ORDER BY a.application_id`);
    this.#vendorId = db.prepare<[string], number>('SELECT vendor_id FROM vendor WHERE name = ?').pluck();
    this.#prefixes = db
      .prepare<[number], string>('SELECT prefix FROM vendor_namespace_prefix WHERE vendor_id = ? ORDER BY prefix')
      .pluck();
    this.#educationOrganizationIds = db
      .prepare<[number], number>(
        'SELECT education_organization_id FROM application_education_organization WHERE application_id = ? ' +
          'ORDER BY education_organization_id',
      )
      .pluck();
    this.#profileNames = db
      .prepare<[number], string>(
        'SELECT profile_name FROM application_profile WHERE application_id = ? ORDER BY profile_name',
      )
      .pluck();
    this.#insertVendor = db.prepare('INSERT INTO vendor (name) VALUES (?)');
    this.#insertPrefix = db.prepare('INSERT OR IGNORE INTO vendor_namespace_prefix (vendor_id, prefix) VALUES (?, ?)');
    this.#insertApplication = db.prepare('INSERT INTO application (vendor_id, name, claim_set_name) VALUES (?, ?, ?)');
    this.#insertEducationOrganization = db.prepare(
      'INSERT OR IGNORE INTO application_education_organization (application_id, education_organization_id) ' +
        'VALUES (?, ?)',
    );
    this.#insertProfile = db.prepare(
      'INSERT OR IGNORE INTO application_profile (application_id, profile_name) VALUES (?, ?)',
    );
    this.#setClaimSet = db.prepare('UPDATE application SET claim_set_name = ? WHERE application_id = ?');
    this.#clearEducationOrganizations = db.prepare(
      'DELETE FROM application_education_organization WHERE application_id = ?',
    );
  }

  /** Inside the caller's transaction. */
  update(applicationId: number, changes: ApplicationChanges): void {
    if (changes.claimSetName !== undefined) this.#setClaimSet.run(changes.claimSetName, applicationId);
    if (changes.educationOrganizationIds !== undefined) {
      this.#clearEducationOrganizations.run(applicationId);
      for (const id of changes.educationOrganizationIds) this.#insertEducationOrganization.run(applicationId, id);
    }
  }

  findVendorNamespacePrefixes(vendorName: string): string[] | undefined {
    const vendorId = this.#vendorId.get(vendorName);
    return vendorId === undefined ? undefined : this.#prefixes.all(vendorId);
  }

  find(vendorName: string, applicationName: string): ClientApplication | undefined {
    const row = this.#byName.get(vendorName, applicationName);
    return row && this.#toApplication(row);
  }

  findById(applicationId: number): ClientApplication | undefined {
    const row = this.#byId.get(applicationId);
    return row && this.#toApplication(row);
  }

  all(): Map<number, ClientApplication> {
    return new Map(this.#all.all().map((row) => [row.application_id, this.#toApplication(row)]));
  }

  /**
   * The id of the named application, creating the vendor and the application from the definition when new (`created`
   * is told the new application's id).
   */
  findOrCreate(definition: ApplicationDefinition, created: (applicationId: number) => void): number {
    const existing = this.#byName.get(definition.vendorName, definition.applicationName);
    if (existing !== undefined) return existing.application_id;
    const vendorId = this.#vendorId.get(definition.vendorName) ?? this.#createVendor(definition);
    const applicationId = Number(
      this.#insertApplication.run(vendorId, definition.applicationName, definition.claimSetName).lastInsertRowid,
    );
    for (const id of definition.educationOrganizationIds) this.#insertEducationOrganization.run(applicationId, id);
    for (const name of definition.profileNames) this.#insertProfile.run(applicationId, name);
    created(applicationId);
    return applicationId;
  }

  #createVendor(definition: ApplicationDefinition): number {
    const vendorId = Number(this.#insertVendor.run(definition.vendorName).lastInsertRowid);
    for (const prefix of definition.namespacePrefixes) this.#insertPrefix.run(vendorId, prefix);
    return vendorId;
  }

  #toApplication(row: ApplicationRow): ClientApplication {
    return {
      applicationId: row.application_id,
      vendorName: row.vendor_name,
      namespacePrefixes: this.#prefixes.all(row.vendor_id),
      applicationName: row.application_name,
      claimSetName: row.claim_set_name,
      educationOrganizationIds: this.#educationOrganizationIds.all(row.application_id),
      profileNames: this.#profileNames.all(row.application_id),
    };
  }
}
