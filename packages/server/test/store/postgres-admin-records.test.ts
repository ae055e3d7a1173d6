// The administrative records on PostgreSQL: the suite every store runs.
import { describeAdminRecords } from './admin/admin-records-suite.js';
import { describePostgres, postgresStoreFactory } from '../support/postgres.js';

describePostgres('PostgreSQL', () => describeAdminRecords('PostgreSQL', postgresStoreFactory()));
