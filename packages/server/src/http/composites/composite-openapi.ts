// The OpenAPI document of a composite category (contract §1.4): one GET per composite, by id and under each parent
// route it serves, with the composite's filter parameters, and a schema per composite built from its member plans.
import type { CompiledCategory, CompiledComposite, MemberPlan } from '../../composites/index.js';
import { openApiDocument, scalarSchema, type OpenApiSection } from '../meta/index.js';

type Schema = Record<string, unknown>;

const LIMIT = {
  name: 'limit',
  in: 'query',
  description: 'The most items to return.',
  schema: { type: 'integer', format: 'int32', default: 25, minimum: 1, maximum: 100 },
};
const PAGING = [{ $ref: '#/components/parameters/offset' }, LIMIT, { $ref: '#/components/parameters/totalCount' }];
const ERRORS = {
  400: { $ref: '#/components/responses/BadRequest' },
  401: { $ref: '#/components/responses/Unauthorized' },
  403: { $ref: '#/components/responses/Forbidden' },
  404: { $ref: '#/components/responses/NotFound' },
  500: { $ref: '#/components/responses/Error' },
};

function schemaNameOf(category: CompiledCategory, composite: CompiledComposite): string {
  const organization = category.organization.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());
  return `${organization}_${category.name}_${composite.name.charAt(0).toLowerCase()}${composite.name.slice(1)}`;
}

/** The properties members add to the object they are in (flattened members add theirs to it directly). */
function propertiesOf(plans: readonly MemberPlan[]): Record<string, Schema> {
  const properties: Record<string, Schema> = {};
  for (const plan of plans) {
    switch (plan.kind) {
      case 'value':
        properties[plan.output] = scalarSchema(plan.shape);
        break;
      case 'array':
        properties[plan.output] = { type: 'array', items: objectOf(plan.items) };
        break;
      case 'linked':
        properties[plan.output] = { type: 'array', items: objectOf(plan.members) };
        break;
      case 'object':
      case 'reference': {
        const nested = propertiesOf(plan.members);
        if (plan.kind === 'reference' && plan.subtypeOutput !== undefined)
          nested[plan.subtypeOutput] = { type: 'string' };
        if (plan.output === undefined) Object.assign(properties, nested);
        else properties[plan.output] = { type: 'object', properties: nested };
        break;
      }
    }
  }
  return properties;
}

function objectOf(plans: readonly MemberPlan[]): Schema {
  return { type: 'object', properties: propertiesOf(plans) };
}

function filterParametersOf(composite: CompiledComposite): Schema[] {
  return composite.parameters.flatMap((parameter) =>
    parameter.name.includes('.') || parameter.compares === 'id'
      ? []
      : [
          {
            name: parameter.name.charAt(0).toLowerCase() + parameter.name.slice(1),
            in: 'query',
            schema: scalarSchema(parameter.compares.shape),
          },
        ],
  );
}

function operation(tag: string, summary: string, parameters: readonly Schema[], schema: Schema): Schema {
  return {
    tags: [tag],
    summary,
    parameters,
    responses: { 200: { description: 'OK', content: { 'application/json': { schema } } }, ...ERRORS },
  };
}

const ID = (description: string): Schema => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

export function compositeSection(category: CompiledCategory): OpenApiSection {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, Schema> = {};
  const prefix = `/${category.organization}/${category.name}`;
  for (const composite of category.composites) {
    const name = schemaNameOf(category, composite);
    schemas[name] = objectOf(composite.members);
    const item = { $ref: `#/components/schemas/${name}` };
    const list = { type: 'array', items: item };
    const filters = filterParametersOf(composite);
    const tag = composite.segment;
    paths[`${prefix}/${composite.segment}`] = {
      get: operation(tag, `The ${composite.name} composites.`, [...PAGING, ...filters], list),
    };
    paths[`${prefix}/${composite.segment}/{id}`] = {
      get: operation(tag, `One ${composite.name} composite.`, [ID(`The ${composite.base.resourceName} id.`)], item),
    };
    for (const parent of category.parentRoutes) {
      if (!composite.parameters.some((parameter) => parameter.name.toLowerCase() === parent.parameter.toLowerCase()))
        continue;
      const summary = `The ${composite.name} composites of one ${parent.parameter.replace(/\.Id$/, '')}.`;
      paths[`${prefix}/${parent.segment}/{id}/${composite.segment}`] = {
        get: operation(tag, summary, [ID(`The ${parent.parameter}.`), ...PAGING, ...filters], list),
      };
    }
  }
  const tags = category.composites.map((composite) => ({ name: composite.segment }));
  return { paths, schemas, tags };
}

export function compositeDocument(category: CompiledCategory, section: OpenApiSection, root: string): Schema {
  return {
    ...openApiDocument(section, root),
    info: {
      title: `${category.displayName} Composites`,
      description: `The ${category.organization} ${category.name} composites: read-only views joining several resources.`,
      version: '1',
    },
    servers: [{ url: `${root}/composites/v1` }],
  };
}
