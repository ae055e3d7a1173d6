// Turns resource shapes from the model into named OpenAPI component schemas (resources, references, nested objects).
import type { PropertyShape, ReferenceModel, ResourceModel } from '../../../model/index.js';
import { odsCamelCase, pascalCase, schemaPrefix } from './names.js';
import { componentRef, type OpenApiReference, type OpenApiSchema } from './schema-types.js';

const LINK_SCHEMA_NAME = 'link';

const LINK_SCHEMA: OpenApiSchema = {
  type: 'object',
  properties: {
    rel: { type: 'string', description: 'The kind of the referenced resource.' },
    href: { type: 'string', description: 'The URL of the referenced resource.' },
  },
};

// The ODS shortens long entity names to `<prefix>_<hash>`; those make poor schema names, so the path-based name is used.
const READABLE_ENTITY_NAME = /^[A-Za-z]+$/;

const STRING_FORMATS: ReadonlySet<string> = new Set(['date', 'date-time']);

/** The schema of a scalar leaf; times keep no format, as in ODS documents. */
export function scalarSchema(shape: PropertyShape): OpenApiSchema {
  const schema: Record<string, unknown> = { type: shape.type };
  if (shape.type === 'string') {
    if (shape.maxLength !== undefined) schema.maxLength = shape.maxLength;
    if (shape.minLength !== undefined) schema.minLength = shape.minLength;
    if (shape.format !== undefined && STRING_FORMATS.has(shape.format)) schema.format = shape.format;
  } else if (shape.type === 'integer' || shape.type === 'number') {
    schema.format = shape.type === 'number' ? 'double' : (shape.format ?? 'int32');
    if (shape.minimum !== undefined) schema.minimum = shape.minimum;
    if (shape.maximum !== undefined) schema.maximum = shape.maximum;
  }
  return schema;
}

function withMarkers(schema: OpenApiSchema, shape: PropertyShape): OpenApiSchema {
  const marked: Record<string, unknown> = { ...schema };
  if (shape.deprecated) marked.deprecated = true;
  if (shape.isIdentity) marked['x-Ed-Fi-isIdentity'] = true;
  else if (!shape.required) marked['x-nullable'] = true;
  return marked;
}

const EXTENSIONS = '_ext';

function rank(name: string, property: PropertyShape): number {
  if (property.isIdentity) return 0;
  return name === EXTENSIONS ? 2 : 1;
}

/** Identity members first and `_ext` last, as the ODS lists them; otherwise the model's (alphabetical) order. */
function orderedProperties(shape: PropertyShape): [string, PropertyShape][] {
  return Object.entries(shape.properties ?? {}).sort(([a, p], [b, q]) => rank(a, p) - rank(b, q));
}

function requiredNames(shape: PropertyShape): string[] {
  return orderedProperties(shape)
    .filter(([, property]) => property.required)
    .map(([name]) => name);
}

function objectSchema(required: string[], properties: Record<string, unknown>): OpenApiSchema {
  return required.length > 0 ? { required, type: 'object', properties } : { type: 'object', properties };
}

/** Collects the component schemas of one OpenAPI document; equal shapes share a name, different ones get a suffix. */
export class ComponentSchemas {
  readonly schemas: Record<string, OpenApiSchema> = {};
  readonly #serialized = new Map<string, string>();

  register(name: string, schema: OpenApiSchema): OpenApiReference {
    const text = JSON.stringify(schema);
    for (let suffix = 1; ; suffix++) {
      const candidate = suffix === 1 ? name : `${name}${suffix}`;
      const existing = this.#serialized.get(candidate);
      if (existing === undefined) {
        this.#serialized.set(candidate, text);
        this.schemas[candidate] = schema;
        return componentRef('schemas', candidate);
      }
      if (existing === text) return componentRef('schemas', candidate);
    }
  }

  /** Registers a resource's schema with everything it needs, and returns the reference to it. */
  addResource(resource: ResourceModel): OpenApiReference {
    const name = `${schemaPrefix(resource.namespace)}_${odsCamelCase(resource.resourceName)}`;
    const walker = new ShapeWalker(this, resource);
    const properties: Record<string, unknown> = {
      id: { type: 'string', description: 'The resource identifier: 32 lowercase hexadecimal digits.' },
      ...walker.properties(resource.shape, '$', name),
      _etag: { type: 'string', description: 'A value that changes whenever the resource changes.' },
      _lastModifiedDate: { type: 'string', format: 'date-time', description: 'When the resource last changed.' },
    };
    return this.register(name, objectSchema(requiredNames(resource.shape), properties));
  }

  addLink(): OpenApiReference {
    return this.register(LINK_SCHEMA_NAME, LINK_SCHEMA);
  }
}

/** Walks one resource's shape, tracking JSON paths so references and collections are recognised by the model's paths. */
class ShapeWalker {
  readonly #references: Map<string, ReferenceModel>;
  readonly #entityNames: Map<string, string>;

  constructor(
    private readonly components: ComponentSchemas,
    private readonly resource: ResourceModel,
  ) {
    this.#references = new Map(resource.references.map((reference) => [reference.path, reference]));
    this.#entityNames = new Map(
      resource.collections.flatMap((collection) =>
        collection.entityName === undefined ? [] : [[collection.path, collection.entityName] as const],
      ),
    );
  }

  properties(shape: PropertyShape, path: string, ownerName: string): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (const [name, property] of orderedProperties(shape)) {
      properties[name] = this.property(property, `${path}.${name}`, `${ownerName}${pascalCase(name)}`);
    }
    return properties;
  }

  private property(shape: PropertyShape, path: string, defaultName: string): unknown {
    if (shape.type === 'array') {
      const itemPath = `${path}[*]`;
      const items = shape.items ?? { type: 'object' };
      const entityName = this.#entityNames.get(itemPath);
      const itemName =
        entityName === undefined || !READABLE_ENTITY_NAME.test(entityName)
          ? defaultName
          : `${schemaPrefix(this.resource.namespace)}_${odsCamelCase(entityName)}`;
      const schema: Record<string, unknown> = { type: 'array', items: this.object(items, itemPath, itemName) };
      if (shape.minItems !== undefined && shape.minItems > 0) schema.minItems = shape.minItems;
      return schema;
    }
    if (shape.type === 'object') {
      const reference = this.#references.get(path);
      return reference === undefined ? this.object(shape, path, defaultName) : this.reference(shape, reference);
    }
    return withMarkers(scalarSchema(shape), shape);
  }

  private object(shape: PropertyShape, path: string, name: string): OpenApiReference {
    const properties = this.properties(shape, path, name);
    return this.components.register(name, objectSchema(requiredNames(shape), properties));
  }

  /** Reference fields are the target's identity, so every one is marked as identity whatever the referrer's key. */
  private reference(shape: PropertyShape, reference: ReferenceModel): OpenApiReference {
    const properties: Record<string, unknown> = {};
    for (const [name, field] of orderedProperties(shape)) {
      properties[name] = { ...scalarSchema(field), 'x-Ed-Fi-isIdentity': true };
    }
    properties.link = this.components.addLink();
    const name = `${schemaPrefix(reference.targetNamespace)}_${odsCamelCase(reference.target)}Reference`;
    return this.components.register(name, objectSchema(requiredNames(shape), properties));
  }
}
