// Test oracle: the ODS 7.3 generated C# (authorization-context providers, GET-by-example request classes) and the
// ODS's authorization overrides, read line by line, independent of the importer code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EDFI_SOURCE_DIR } from '../support/edfi-source.js';

type Namespace = 'ed-fi' | 'tpdm';

const generatedDir = path.join(EDFI_SOURCE_DIR, 'ods-generated');
const overridesDir = path.join(EDFI_SOURCE_DIR, 'ods-security', 'authorization-overrides');

const FILE_PREFIX: Record<Namespace, string> = {
  'ed-fi': 'Standard_Std_5.2.0_',
  tpdm: 'Extensions.TPDM.1.1.0_Std_5.2.0_',
};

function linesOf(file: string): string[] {
  return readFileSync(file, 'utf8').split(/\r?\n/);
}

/** Provider class name → the names between the `new string[]`/`new[]` braces of its property-names method. */
function providerSubjects(lines: string[]): Map<string, string[]> {
  const subjects = new Map<string, string[]>();
  let className: string | undefined;
  let inNames = false;
  for (const line of lines) {
    const declared = line.match(/class (\w+)RelationshipsAuthorizationContextDataProvider /);
    if (declared) {
      className = declared[1]!;
      subjects.set(className, []);
    } else if (line.includes('GetAuthorizationContextPropertyNames()')) inNames = true;
    else if (inNames && line.trim().startsWith('return')) inNames = false;
    else if (inNames && className !== undefined) {
      const name = line.trim().match(/^"(\w+)",?$/)?.[1];
      if (name !== undefined) subjects.get(className)!.push(name);
    }
  }
  return subjects;
}

/** `Namespace/ResourceName` → the ODS authorization subjects (property names), overrides applied. */
export function odsAuthorizationSubjects(): Map<string, string[]> {
  const subjects = new Map<string, string[]>();
  const files: [Namespace, string][] = [
    ['ed-fi', `${FILE_PREFIX['ed-fi']}Security_Authorization_EntityAuthorizationContextProviders.generated.cs`],
    ['tpdm', `${FILE_PREFIX.tpdm}Authorization_EntityAuthorizationContextProviders.generated.cs`],
  ];
  for (const [namespace, file] of files)
    for (const [name, names] of providerSubjects(linesOf(path.join(generatedDir, file))))
      subjects.set(`${namespace}/${name}`, names);
  for (const file of readdirSync(overridesDir))
    for (const [name, names] of providerSubjects(linesOf(path.join(overridesDir, file))))
      subjects.set(`ed-fi/${name}`, names);
  return subjects;
}

/** `Namespace/ResourceName` → the properties of its `…GetByExample` class. */
export function odsGetByExampleParameters(): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const namespace of ['ed-fi', 'tpdm'] as const) {
    let current: string[] | undefined;
    for (const line of linesOf(path.join(generatedDir, `${FILE_PREFIX[namespace]}Requests_Requests.generated.cs`))) {
      const declared = line.match(/public class (\w+)GetByExample$/);
      if (declared) {
        current = [];
        parameters.set(`${namespace}/${declared[1]}`, current);
      } else if (current !== undefined && line.trim() === '}') current = undefined;
      else if (current !== undefined) {
        const property = line.match(/public \S+ (\w+) \{ get; set; \}/)?.[1];
        if (property !== undefined) current.push(property);
      }
    }
  }
  return parameters;
}
