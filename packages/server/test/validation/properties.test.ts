// Property tests over generated documents: any valid document survives re-casing, stringified numbers and extra
// members unchanged; removing any required root member is always reported at its path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getModelRegistry, type PropertyShape, type ResourceModel } from '../../src/model/index.js';
import { validatorFor, type JsonValue } from '../../src/model/validation/index.js';
import { fullDocument, minimalDocument } from '../../src/testing/index.js';

const resources = getModelRegistry().allResources;

function recase(name: string, pattern: number): string {
  return [...name]
    .map((char, index) => ((pattern >> (index % 31)) & 1 ? char.toUpperCase() : char.toLowerCase()))
    .join('');
}

/** The same content as a lenient client might send it: other casing, numbers as strings, metadata and unknown members. */
function loosen(value: JsonValue, pattern: number, shape: PropertyShape | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => loosen(item, pattern + 1, shape?.items));
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'object') return value;
  const loose: Record<string, unknown> = { link: { rel: 'X', href: '/x' }, _etag: '1', unknownMember: [1, 2] };
  for (const [name, member] of Object.entries(value)) {
    loose[recase(name, pattern)] = loosen(member, pattern * 3 + 1, shape?.properties?.[name]);
  }
  return loose;
}

const resourceArbitrary = fc
  .integer({ min: 0, max: resources.length - 1 })
  .map((index) => resources[index] as ResourceModel);

describe('validation properties', () => {
  it('reads a loosely written valid document back to the same canonical document', () => {
    fc.assert(
      fc.property(resourceArbitrary, fc.nat(), fc.nat(), (model, seed, pattern) => {
        const document = fullDocument(model, undefined, { seed });
        const result = validatorFor(model).validateInsert(loosen(document, pattern, model.shape));
        expect(result.ok ? result.document : result.failure).toEqual(document);
      }),
      { numRuns: 150 },
    );
  });

  it('reports every removed required root member at its own path', () => {
    fc.assert(
      fc.property(resourceArbitrary, fc.nat(), (model, seed) => {
        const document = minimalDocument(model, undefined, { seed });
        for (const name of Object.keys(document)) {
          const { [name]: _removed, ...rest } = document;
          const result = validatorFor(model).validateInsert(rest);
          expect(result.ok, `${model.endpoint} without ${name}`).toBe(false);
          expect(Object.keys((!result.ok && result.failure.validationErrors) || {})).toContain(`$.${name}`);
        }
      }),
      { numRuns: 100 },
    );
  });
});
