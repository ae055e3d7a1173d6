// Claim-set names as the ODS spells them ("SIS Vendor") for the compact names of the claims file ("SISVendor"), and
// the look-up key that lets either spelling (in any case) name the same claim set.

/** The ODS names of the claim sets it ships; a claim set of the file not listed here keeps the file's name. */
const ODS_CLAIM_SET_NAMES: readonly string[] = [
  'AB Connect',
  'Assessment Read',
  'Assessment Vendor',
  'Bootstrap Descriptors and EdOrgs',
  'District Hosted SIS Vendor',
  'Ed-Fi API Publisher - Reader',
  'Ed-Fi API Publisher - Writer',
  'Ed-Fi ODS Admin App',
  'Ed-Fi Sandbox',
  'Education Preparation Program',
  'Finance Vendor',
  'Roster Vendor',
  'SIS Vendor',
];

/** Letters and digits only, lower-cased: `SIS Vendor`, `SISVendor` and `sis-vendor` share one key. */
export function claimSetNameKey(name: string): string {
  return name.replace(/[^0-9A-Za-z]/g, '').toLowerCase();
}

const odsNameByKey = new Map(ODS_CLAIM_SET_NAMES.map((name) => [claimSetNameKey(name), name]));

/** The name shown to clients (token_info, 403 messages) for a claim set of the claims file. */
export function displayNameOf(fileName: string): string {
  return odsNameByKey.get(claimSetNameKey(fileName)) ?? fileName;
}
