// Reads a composite definition file in the ODS format (Ed-Fi-ODS-API-Composites.xsd) into our categories: element
// by element, refusing what the schema does not allow, with the line it was found on.
import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import type {
  CompositeCategory,
  CompositeDefinition,
  CompositeMember,
  CompositeParameter,
  CompositeRoute,
} from '../../src/composites/definition.js';

interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  readonly line: number;
}

function parseXml(text: string, file: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      line: parser.line,
    };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('error', (error) => {
    throw new Error(`${file}: ${error.message}`);
  });
  parser.write(text).close();
  if (!root) throw new Error(`${file}: no root element`);
  return root;
}

class DefinitionReader {
  constructor(private readonly file: string) {}

  fail(element: XmlElement, message: string): never {
    throw new Error(`${this.file}:${element.line}: ${message}`);
  }

  expect(element: XmlElement, name: string, attributes: readonly string[]): void {
    if (element.name !== name) this.fail(element, `expected <${name}>, found <${element.name}>`);
    for (const attribute of Object.keys(element.attributes))
      if (!attributes.includes(attribute) && !/^(xmlns|xsi:)/.test(attribute))
        this.fail(element, `<${name}> has no attribute '${attribute}'`);
  }

  required(element: XmlElement, attribute: string): string {
    const value = element.attributes[attribute];
    if (value === undefined || value.trim() === '') this.fail(element, `<${element.name}> needs '${attribute}'`);
    return value.trim();
  }

  flag(element: XmlElement, attribute: string): boolean {
    const value = element.attributes[attribute];
    if (value === undefined || value === 'false' || value === '0') return false;
    if (value === 'true' || value === '1') return true;
    return this.fail(element, `'${attribute}' must be true or false, not '${value}'`);
  }

  /** The single child of this name, e.g. a category's `<Routes>`. */
  only(element: XmlElement, name: string): XmlElement {
    const matches = element.children.filter((child) => child.name === name);
    if (matches.length !== 1) this.fail(element, `<${element.name}> needs exactly one <${name}>`);
    return matches[0]!;
  }

  category(element: XmlElement, organization: string): CompositeCategory {
    this.expect(element, 'Category', ['name', 'displayName']);
    const name = this.required(element, 'name');
    return {
      organization,
      name,
      displayName: element.attributes.displayName?.trim() || name,
      routes: this.only(element, 'Routes').children.map((route) => this.route(route)),
      composites: this.only(element, 'Composites').children.map((composite) => this.composite(composite)),
    };
  }

  route(element: XmlElement): CompositeRoute {
    this.expect(element, 'Route', ['relativeRouteTemplate', 'compositeNameConstraint']);
    const relativeRouteTemplate = this.required(element, 'relativeRouteTemplate');
    if (!relativeRouteTemplate.endsWith('/{compositeName}'))
      this.fail(element, `a route template must end with '/{compositeName}'`);
    const constraint = element.attributes.compositeNameConstraint;
    return { relativeRouteTemplate, ...(constraint ? { compositeNameConstraint: constraint } : {}) };
  }

  composite(element: XmlElement): CompositeDefinition {
    this.expect(element, 'Composite', ['name']);
    const specifications = element.children.filter((child) => child.name === 'Specification');
    if (specifications.length > 1) this.fail(element, '<Composite> has at most one <Specification>');
    const base = this.only(element, 'BaseResource');
    this.expect(base, 'BaseResource', ['name', 'logicalSchema']);
    for (const child of element.children)
      if (child.name !== 'Specification' && child.name !== 'BaseResource')
        this.fail(child, `<Composite> has no <${child.name}>`);
    return {
      name: this.required(element, 'name'),
      baseResource: this.required(base, 'name'),
      parameters: (specifications[0]?.children ?? []).map((parameter) => this.parameter(parameter)),
      members: base.children.map((member) => this.member(member)),
    };
  }

  parameter(element: XmlElement): CompositeParameter {
    this.expect(element, 'Parameter', ['name', 'filterPath', 'queryable', 'description']);
    const { queryable, description } = element.attributes;
    return {
      name: this.required(element, 'name'),
      filterPath: this.required(element, 'filterPath').replace(/\s+/g, ''),
      ...(queryable === undefined ? {} : { queryable: this.flag(element, 'queryable') }),
      ...(description === undefined ? {} : { description }),
    };
  }

  member(element: XmlElement): CompositeMember {
    const name = this.required(element, 'name');
    const displayName = element.attributes.displayName?.trim();
    const named = { name, ...(displayName ? { displayName } : {}) };
    const members = () => element.children.map((child) => this.member(child));
    switch (element.name) {
      case 'Property':
        this.expect(element, 'Property', ['name', 'displayName']);
        if (element.children.length > 0) this.fail(element, '<Property> has no children');
        return { kind: 'property', ...named };
      case 'Collection':
        this.expect(element, 'Collection', ['name', 'displayName']);
        return { kind: 'collection', ...named, members: members() };
      case 'LinkedCollection':
        this.expect(element, 'LinkedCollection', ['name', 'displayName']);
        return { kind: 'linkedCollection', ...named, members: members() };
      case 'EmbeddedObject':
        this.expect(element, 'EmbeddedObject', ['name', 'displayName', 'flatten']);
        return { kind: 'embeddedObject', ...named, flatten: this.flag(element, 'flatten'), members: members() };
      case 'ReferencedResource':
        this.expect(element, 'ReferencedResource', ['name', 'displayName', 'flatten', 'includeResourceSubtype']);
        return {
          kind: 'referencedResource',
          ...named,
          flatten: this.flag(element, 'flatten'),
          includeResourceSubtype: this.flag(element, 'includeResourceSubtype'),
          members: members(),
        };
      default:
        return this.fail(element, `unknown member <${element.name}>`);
    }
  }
}

/** The categories of one composite definition file. */
export function readCompositesXml(file: string): CompositeCategory[] {
  const root = parseXml(readFileSync(file, 'utf8'), file);
  const reader = new DefinitionReader(file);
  reader.expect(root, 'CompositeMetadata', ['organizationCode']);
  const organization = reader.required(root, 'organizationCode');
  return root.children.map((category) => reader.category(category, organization));
}
