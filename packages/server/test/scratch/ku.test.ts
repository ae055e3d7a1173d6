import { it } from 'vitest';
import { insertErrors } from '../validation/support.js';
it('x', async () => {
  const dim = (fiscalYear: number, code = 'C') => ({ code, fiscalYear });
  console.log(JSON.stringify(await insertErrors('chartOfAccounts', { accountIdentifier: 'A', educationOrganizationReference: { educationOrganizationId: 1 }, fiscalYear: 2022, accountTypeDescriptor: 'uri://ed-fi.org/AccountTypeDescriptor#Revenue', balanceSheetDimensionReference: dim(2019), functionDimensionReference: dim(2022) }), null, 1));
});
