// The JSON body of `POST /admin/clients`: the options of a new client, every property optional and checked for type.
import { ApiProblem } from '../../api/index.js';
import type { NewClientOptions } from '../../security/index.js';

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isStrings: Check = (value) => Array.isArray(value) && value.every(isString);
const isIntegers: Check = (value) => Array.isArray(value) && value.every((item) => Number.isSafeInteger(item));

const PROPERTIES: Readonly<Record<keyof NewClientOptions, { readonly check: Check; readonly expected: string }>> = {
  key: { check: isString, expected: 'a string' },
  secret: { check: isString, expected: 'a string' },
  name: { check: isString, expected: 'a string' },
  vendor: { check: isString, expected: 'a string' },
  application: { check: isString, expected: 'a string' },
  claimSet: { check: isString, expected: 'a string' },
  educationOrganizationIds: { check: isIntegers, expected: 'an array of whole numbers' },
  namespacePrefixes: { check: isStrings, expected: 'an array of strings' },
  profiles: { check: isStrings, expected: 'an array of strings' },
  ownershipToken: { check: isString, expected: 'a string' },
  accessOwnershipTokens: { check: isStrings, expected: 'an array of strings' },
};

function isProperty(name: string): name is keyof NewClientOptions {
  return Object.hasOwn(PROPERTIES, name);
}

/** Throws a 400 problem listing every unknown or mistyped property. */
export function newClientOptionsOf(body: unknown): NewClientOptions {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiProblem('badRequest', { errors: ['The body must be a JSON object.'] });
  }
  const errors: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    if (!isProperty(name)) errors.push(`Unknown property '${name}'.`);
    else if (value !== null && !PROPERTIES[name].check(value))
      errors.push(`'${name}' must be ${PROPERTIES[name].expected}.`);
  }
  if (errors.length > 0) throw new ApiProblem('badRequest', { errors });
  // Nulls mean "not given", like absent properties.
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) as NewClientOptions;
}
