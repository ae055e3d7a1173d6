// The look-up key that lets any spelling of a claim-set name (in any case) name the same claim set: the claims file
// holds the ODS names ("SIS Vendor"), and clients created from DMS-style names ("SISVendor") still find theirs.

/** Letters and digits only, lower-cased: `SIS Vendor`, `SISVendor` and `sis-vendor` share one key. */
export function claimSetNameKey(name: string): string {
  return name.replace(/[^0-9A-Za-z]/g, '').toLowerCase();
}
