// What the SQL builders need to know of a resource's table: its layout and the id its rows carry in shared tables.
import type { ResourceModel } from '../../model/index.js';
import type { TableLayout } from './table-layout.js';

export interface ResourceTableRef {
  readonly layout: TableLayout;
  readonly resourceId: number;
}

export interface ResourceTables {
  tableOf(resource: ResourceModel): ResourceTableRef;
}
