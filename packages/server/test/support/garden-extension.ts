// A small extension folder of our own, written by tests, in the formats of an Ed-Fi extension: a MetaEd ApiSchema and
// the ODS PostgreSQL DDL, without XSDs or the ODS code generator's files. Project Garden (`/garden`): plots of a school
// (a reference to the core School, a descriptor of its own, a decimal, a collection), its soil type descriptors, and
// `_ext.garden` on core schools at the root (a flag, a collection of beds) and inside address items (a gate code).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Json = Record<string, unknown>;

const string = (maxLength: number): Json => ({ type: 'string', maxLength });

const descriptorSchema: Json = {
  type: 'object',
  properties: {
    codeValue: { type: 'string', maxLength: 50, minLength: 1 },
    description: { type: 'string', maxLength: 1024 },
    effectiveBeginDate: { type: 'string', format: 'date' },
    effectiveEndDate: { type: 'string', format: 'date' },
    namespace: { type: 'string', maxLength: 255, minLength: 1 },
    shortDescription: { type: 'string', maxLength: 75, minLength: 1 },
  },
  required: ['namespace', 'codeValue', 'shortDescription'],
};

const field = (path: string) => [{ path }];

function resourceSchema(overrides: Json): Json {
  return {
    allowIdentityUpdates: false,
    arrayUniquenessConstraints: [],
    commonExtensionOverrides: [],
    decimalPropertyValidationInfos: [],
    documentPathsMapping: {},
    equalityConstraints: [],
    identityJsonPaths: [],
    isDescriptor: false,
    isResourceExtension: false,
    isSchoolYearEnumeration: false,
    isSubclass: false,
    queryFieldMapping: {},
    securableElements: { Contact: [], EducationOrganization: [], Namespace: [], Staff: [], Student: [] },
    ...overrides,
  };
}

const plots = resourceSchema({
  resourceName: 'Plot',
  identityJsonPaths: ['$.plotCode', '$.schoolReference.schoolId'],
  documentPathsMapping: {
    PlotCode: { isReference: false, isRequired: true, isPartOfIdentity: true, path: '$.plotCode' },
    School: {
      isReference: true,
      isDescriptor: false,
      isRequired: true,
      isPartOfIdentity: true,
      projectName: 'Ed-Fi',
      resourceName: 'School',
      referenceJsonPaths: [{ identityJsonPath: '$.schoolId', referenceJsonPath: '$.schoolReference.schoolId' }],
    },
    SoilTypeDescriptor: {
      isReference: true,
      isDescriptor: true,
      isRequired: false,
      path: '$.soilTypeDescriptor',
      projectName: 'Garden',
      resourceName: 'SoilTypeDescriptor',
    },
  },
  arrayUniquenessConstraints: [{ paths: ['$.crops[*].cropName'] }],
  decimalPropertyValidationInfos: [{ path: '$.areaSquareMeters', totalDigits: 9, decimalPlaces: 2 }],
  queryFieldMapping: {
    areaSquareMeters: field('$.areaSquareMeters'),
    id: field('$.id'),
    plotCode: field('$.plotCode'),
    schoolId: field('$.schoolReference.schoolId'),
    soilTypeDescriptor: field('$.soilTypeDescriptor'),
  },
  securableElements: {
    Contact: [],
    EducationOrganization: [{ jsonPath: '$.schoolReference.schoolId', metaEdName: 'SchoolId' }],
    Namespace: [],
    Staff: [],
    Student: [],
  },
  jsonSchemaForInsert: {
    type: 'object',
    properties: {
      areaSquareMeters: { type: 'number' },
      crops: {
        type: 'array',
        minItems: 0,
        items: { type: 'object', properties: { cropName: string(50) }, required: ['cropName'] },
      },
      plotCode: string(20),
      schoolReference: {
        type: 'object',
        properties: { schoolId: { type: 'integer' } },
        required: ['schoolId'],
      },
      soilTypeDescriptor: string(306),
    },
    required: ['plotCode', 'schoolReference'],
  },
});

const soilTypeDescriptors = resourceSchema({
  resourceName: 'SoilTypeDescriptor',
  isDescriptor: true,
  queryFieldMapping: Object.fromEntries(
    ['codeValue', 'description', 'effectiveBeginDate', 'effectiveEndDate', 'id', 'namespace', 'shortDescription'].map(
      (name) => [name, field(`$.${name}`)],
    ),
  ),
  securableElements: { Contact: [], EducationOrganization: [], Namespace: ['$.namespace'], Staff: [], Student: [] },
  jsonSchemaForInsert: descriptorSchema,
});

const schools = resourceSchema({
  resourceName: 'School',
  isResourceExtension: true,
  arrayUniquenessConstraints: [{ paths: ['$._ext.garden.beds[*].bedNumber'] }],
  commonExtensionOverrides: [
    {
      insertionLocations: ['$.properties.addresses.items'],
      projectEndpointName: 'garden',
      schemaFragment: {
        type: 'object',
        properties: { garden: { type: 'object', properties: { gateCode: string(10) } } },
      },
    },
  ],
  jsonSchemaForInsert: {
    type: 'object',
    properties: {
      _ext: {
        type: 'object',
        properties: {
          garden: {
            type: 'object',
            properties: {
              beds: {
                type: 'array',
                minItems: 0,
                items: { type: 'object', properties: { bedNumber: { type: 'integer' } }, required: ['bedNumber'] },
              },
              hasGreenhouse: { type: 'boolean' },
            },
          },
        },
      },
    },
  },
});

export const GARDEN_API_SCHEMA = {
  apiSchemaVersion: '1.0.0',
  projectSchema: {
    projectName: 'Garden',
    projectEndpointName: 'garden',
    projectVersion: '1.0.0',
    description: 'School gardens',
    isExtensionProject: true,
    resourceSchemas: { plots, schools, soilTypeDescriptors },
  },
};

const TABLES = `CREATE TABLE garden.EducationOrganizationAddressExtension (
    EducationOrganizationId BIGINT NOT NULL,
    AddressTypeDescriptorId INT NOT NULL,
    City VARCHAR(30) NOT NULL,
    PostalCode VARCHAR(17) NOT NULL,
    StateAbbreviationDescriptorId INT NOT NULL,
    StreetNumberName VARCHAR(150) NOT NULL,
    GateCode VARCHAR(10) NULL,
    CreateDate TIMESTAMP NOT NULL,
    CONSTRAINT EducationOrganizationAddressExtension_PK PRIMARY KEY (EducationOrganizationId, AddressTypeDescriptorId, City, PostalCode, StateAbbreviationDescriptorId, StreetNumberName)
);

CREATE TABLE garden.Plot (
    PlotCode VARCHAR(20) NOT NULL,
    SchoolId BIGINT NOT NULL,
    AreaSquareMeters DECIMAL(9, 2) NULL,
    SoilTypeDescriptorId INT NULL,
    Discriminator VARCHAR(128) NULL,
    CreateDate TIMESTAMP NOT NULL,
    LastModifiedDate TIMESTAMP NOT NULL,
    Id UUID NOT NULL,
    CONSTRAINT Plot_PK PRIMARY KEY (PlotCode, SchoolId)
);

CREATE TABLE garden.PlotCrop (
    CropName VARCHAR(50) NOT NULL,
    PlotCode VARCHAR(20) NOT NULL,
    SchoolId BIGINT NOT NULL,
    CreateDate TIMESTAMP NOT NULL,
    CONSTRAINT PlotCrop_PK PRIMARY KEY (CropName, PlotCode, SchoolId)
);

CREATE TABLE garden.SchoolBed (
    BedNumber INT NOT NULL,
    SchoolId BIGINT NOT NULL,
    CreateDate TIMESTAMP NOT NULL,
    CONSTRAINT SchoolBed_PK PRIMARY KEY (BedNumber, SchoolId)
);

CREATE TABLE garden.SchoolExtension (
    SchoolId BIGINT NOT NULL,
    HasGreenhouse BOOLEAN NULL,
    CreateDate TIMESTAMP NOT NULL,
    CONSTRAINT SchoolExtension_PK PRIMARY KEY (SchoolId)
);

CREATE TABLE garden.SoilTypeDescriptor (
    SoilTypeDescriptorId INT NOT NULL,
    CONSTRAINT SoilTypeDescriptor_PK PRIMARY KEY (SoilTypeDescriptorId)
);
`;

const cascade = (table: string, columns: string, target: string, targetColumns = columns) =>
  `ALTER TABLE garden.${table} ADD CONSTRAINT FK_${table}_${target.replace('.', '_')} FOREIGN KEY (${columns})\n` +
  `REFERENCES ${target} (${targetColumns})\nON DELETE CASCADE;\n`;

const FOREIGN_KEYS = [
  cascade(
    'EducationOrganizationAddressExtension',
    'EducationOrganizationId, AddressTypeDescriptorId, City, PostalCode, StateAbbreviationDescriptorId, StreetNumberName',
    'edfi.EducationOrganizationAddress',
  ),
  cascade('PlotCrop', 'PlotCode, SchoolId', 'garden.Plot'),
  cascade('SchoolBed', 'SchoolId', 'edfi.School'),
  cascade('SchoolExtension', 'SchoolId', 'edfi.School'),
  cascade('SoilTypeDescriptor', 'SoilTypeDescriptorId', 'edfi.Descriptor', 'DescriptorId'),
].join('\n');

/**
 * Writes the Garden extension folder (ApiSchema and DDL) at `folder`, with `apiSchema` instead of Garden's if given,
 * and under another project name (`Orchard`: namespace, schema and `_ext` member `orchard`) if given: a second
 * extension of one's own.
 */
export function writeGardenExtension(
  folder: string,
  apiSchema: unknown = GARDEN_API_SCHEMA,
  projectName = 'Garden',
): string {
  const named = (text: string) =>
    text.replaceAll('Garden', projectName).replaceAll('garden', projectName.toLowerCase());
  mkdirSync(path.join(folder, 'ods-ddl-pgsql'), { recursive: true });
  writeFileSync(path.join(folder, 'garden-1.0-api-schema.json'), named(JSON.stringify(apiSchema, null, 2)));
  writeFileSync(path.join(folder, 'ods-ddl-pgsql', '0020-EXTENSION-Garden-Tables.sql'), named(TABLES));
  writeFileSync(path.join(folder, 'ods-ddl-pgsql', '0030-EXTENSION-Garden-ForeignKeys.sql'), named(FOREIGN_KEYS));
  return folder;
}
