// Reads the shared Ed-Fi source files the importer needs from one source folder.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type {
  ClaimsSourceFile,
  DerivedModelFile,
  DescriptorValuesSourceFile,
  OpenApiFile,
  TpdmApiSchemaFile,
} from './source-types.js';

export interface Sources {
  derived: DerivedModelFile;
  tpdmApiSchema: TpdmApiSchemaFile;
  descriptorsOpenApi: OpenApiFile;
  odsSwaggerDs51: OpenApiFile;
  claims: ClaimsSourceFile;
  descriptorValues: DescriptorValuesSourceFile;
  schoolYearsSql: string;
  /** Core and TPDM XSD texts (decimal simple types). */
  xsdTexts: string[];
}

export function readSources(sourceDir: string): Sources {
  const json = <T>(relative: string): T => JSON.parse(readFileSync(path.join(sourceDir, relative), 'utf8')) as T;
  const tpdmXsdDir = path.join(sourceDir, 'tpdm-xsd');
  const tpdmXsds = readdirSync(tpdmXsdDir)
    .filter((name) => name.endsWith('.xsd'))
    .sort()
    .map((name) => readFileSync(path.join(tpdmXsdDir, name), 'utf8'));
  return {
    derived: json('derived/ds-5.2-tpdm-1.1-resource-model.derived.json'),
    tpdmApiSchema: json('tpdm-1.1-ds-5.2-api-schema.json'),
    descriptorsOpenApi: json('ds-5.2-tpdm-openapi-descriptors.json'),
    odsSwaggerDs51: json('ods-api-7.2-ds-5.1-swagger-resources.json'),
    claims: json('ds-5.2-claims.json'),
    descriptorValues: json('descriptors/ds-5.2-descriptors.json'),
    schoolYearsSql: readFileSync(path.join(sourceDir, 'ods-ddl/ds-5.2/data-0020-SchoolYears.sql'), 'utf8'),
    xsdTexts: [readFileSync(path.join(sourceDir, 'Ed-Fi-Core.xsd'), 'utf8'), ...tpdmXsds],
  };
}
