// The second pass: the documents of one load unit (one file, the resources of one dependency order), in file order,
// numbered so a resumed load can skip the ones already done.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { JsonObject } from '../../model/validation/index.js';
import type { LoadUnit } from '../plan/load-plan.js';
import type { InterchangeMappings } from '../xml/interchange-mapping.js';
import { readInterchange } from '../xml/interchange-reader.js';
import { readJsonLines } from './jsonl-reader.js';

export interface LoadRecord {
  readonly resource: ResourceModel;
  readonly file: string;
  /** Line of the XML element's start tag or of the JSON line. */
  readonly line: number;
  /** Position within the unit (0-based). */
  readonly sequence: number;
  readonly document: JsonObject;
  /** Conversion problems; a record with any is reported as failed without being sent. */
  readonly problems: readonly string[];
}

async function* xmlRecords(
  unit: LoadUnit,
  registry: ModelRegistry,
  mappings: InterchangeMappings,
): AsyncGenerator<Omit<LoadRecord, 'sequence'>> {
  const { source } = unit;
  // Looked up once per element name rather than twice per element.
  const resources = new Map<string, ResourceModel | undefined>();
  const resourceOf = (name: string): ResourceModel | undefined => {
    if (resources.has(name)) return resources.get(name);
    const mapping = mappings.documents[name];
    const model = mapping && registry.getResource(mapping.namespace, mapping.endpoint);
    const resource = model && unit.resources.has(model) ? model : undefined;
    resources.set(name, resource);
    return resource;
  };
  for await (const element of readInterchange(source.file.path, mappings, (name) => resourceOf(name) !== undefined)) {
    const resource = resourceOf(element.name);
    if (!resource || !element.built) continue;
    const refProblems = source.idrefs?.fill(element.built.pendingIdrefs) ?? [];
    const { document, problems } = element.built;
    yield { resource, file: source.file.path, line: element.line, document, problems: [...problems, ...refProblems] };
  }
}

async function* jsonlRecords(unit: LoadUnit): AsyncGenerator<Omit<LoadRecord, 'sequence'>> {
  const [resource] = unit.resources;
  if (!resource) return;
  for await (const { line, document, problem } of readJsonLines(unit.source.file.path)) {
    yield { resource, file: unit.source.file.path, line, document: document ?? {}, problems: problem ? [problem] : [] };
  }
}

export async function* unitRecords(
  unit: LoadUnit,
  registry: ModelRegistry,
  mappings: InterchangeMappings,
): AsyncGenerator<LoadRecord> {
  const records = unit.source.file.kind === 'xml' ? xmlRecords(unit, registry, mappings) : jsonlRecords(unit);
  let sequence = 0;
  for await (const record of records) yield { ...record, sequence: sequence++ };
}
