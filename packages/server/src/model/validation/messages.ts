// The validation message catalogue: every text a validator reports, worded exactly as contract §7.1, §3.4 and §6.5 give it.
// Body-conversion texts follow Newtonsoft's wording without line/position (we parse before we convert).

export const messages = {
  nonEmptyBodyRequired: 'A non-empty request body is required.',
  clientAssignedId:
    "Resource identifiers cannot be assigned by the client. The 'id' property should not be included in the request body.",

  required: (name: string) => `${name} is required.`,
  requiredNotEmpty: (name: string) => `${name} is required and should not be left empty.`,
  nonDefaultNumber: (name: string) => `${name} value must be different than 0.`,
  valueRequired: 'Value is required.',
  referenceMissingProperties: (name: string, missing: readonly string[]) =>
    `${name} is missing the following properties: ${missing.join(', ')}`,
  collectionRequired: (collection: string) => `${collection} must have at least one item.`,
  duplicateItem: (ordinal: string, collection: string) =>
    `The ${ordinal} item of the ${collection} has the same identifying values as another item earlier in the list.`,
  maxLength: (name: string, max: number) => `${name} must be at most ${max} characters in length.`,
  lengthBetween: (name: string, min: number, max: number) =>
    `${name} must be between ${min} and ${max} characters in length.`,
  noWhitespace: (name: string) => `${name} cannot contain leading or trailing spaces.`,
  dangerousText: (name: string) =>
    `${name} contains a value that could be dangerous for downstream systems using this data. ` +
    "Try to avoid the use of special symbols like '<', '>' or '&' without surrounding spaces.",
  rangeBetween: (name: string, min: string, max: string) => `${name} must be between ${min} and ${max}.`,
  rangeMinimum: (name: string, min: string) => `${name} must be greater than or equal to ${min}.`,
  rangeMaximum: (name: string, max: string) => `${name} must be less than or equal to ${max}.`,
  descriptorWithoutNamespace: (descriptor: string, value: string) =>
    `${descriptor} value '${value}' is not a valid value for use as a descriptor ` +
    "(a '#' is expected to delineate the namespace and code value portions).",
  descriptorNotFound: (descriptor: string, value: string) => `${descriptor} value '${value}' does not exist.`,
  keyUnificationConflict: (jsonName: string, values: readonly string[], includesHigherLevels: boolean) =>
    `All values supplied for '${jsonName}' must match. Review all references` +
    (includesHigherLevels ? " (including those higher up in the resource's data)" : '') +
    ` and align the following conflicting values: ${values.map((value) => `'${value}'`).join(', ')}`,
  invalidDate: 'String was not recognized as a valid date.',
  suppliedValueInvalid: 'The supplied value is invalid.',

  conversion: {
    invalidTime: (value: string, path: string) =>
      `String '${value}' was not recognized as a valid TimeSpan. Path '${path}'.`,
    invalidDateTime: (value: string, path: string) => `Could not convert string to DateTime: ${value}. Path '${path}'.`,
    invalidInt32String: (value: string, path: string) =>
      `Could not convert string to integer: ${value}. Path '${path}'.`,
    invalidInt32Number: (value: string, path: string) =>
      `Input string '${value}' is not a valid integer. Path '${path}'.`,
    int32Overflow: (value: string, path: string) =>
      `JSON integer ${value} is too large or small for an Int32. Path '${path}'.`,
    invalidInt64: (value: string, path: string) =>
      `Input string '${value}' is not a valid System.Int64. Path '${path}'.`,
    int64Overflow: (value: string, path: string) =>
      `Error converting value ${value} to type 'System.Int64'. Path '${path}'.`,
    invalidDecimalString: (value: string, path: string) =>
      `Could not convert string to decimal: ${value}. Path '${path}'.`,
    decimalOverflow: (path: string) => `Value was either too large or too small for a Decimal. Path '${path}'.`,
    invalidBooleanString: (value: string, path: string) =>
      `Could not convert string to boolean: ${value}. Path '${path}'.`,
    unexpectedToken: (reading: string, token: string, path: string) =>
      `Error reading ${reading}. Unexpected token: ${token}. Path '${path}'.`,
    scalarForObject: (value: string, typeName: string, path: string) =>
      `Error converting value ${value} to type '${typeName}'. Path '${path}'.`,
    arrayForObject: (typeName: string, path: string) =>
      `Cannot deserialize the current JSON array (e.g. [1,2,3]) into type '${typeName}' because the type requires ` +
      `a JSON object (e.g. {"name":"value"}) to deserialize correctly. Path '${path}'.`,
    objectForCollection: (typeName: string, path: string) =>
      `Cannot deserialize the current JSON object (e.g. {"name":"value"}) into type '${typeName}' because the type ` +
      `requires a JSON array (e.g. [1,2,3]) to deserialize correctly. Path '${path}'.`,
  },
} as const;
