/** A profile definition refused at import: the XML is malformed or breaks the rules of Ed-Fi-ODS-API-Profiles.xsd. */
export class ProfileDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileDefinitionError';
  }
}
