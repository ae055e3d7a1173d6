// Validation messages name members as the ODS does: acronym casing from the ODS columns (IEP, CTE, CIP, IDEA, ELA,
// EPP, URI) and collections by their ODS class property (inherited, irregular-plural and shortened-table entities).
import { describe, expect, it } from 'vitest';
import { validatorFor, type ValidationErrors } from '../../src/model/validation/index.js';
import { minimalDocument } from '../../src/testing/index.js';
import { failureOf, insertErrors, resource } from './support.js';

function minimal(endpoint: string, namespace = 'ed-fi'): Record<string, unknown> {
  return minimalDocument(resource(endpoint, namespace));
}

function duplicateMessage(ordinal: string, collection: string): string {
  return `The ${ordinal} item of the ${collection} has the same identifying values as another item earlier in the list.`;
}

const TOO_LONG_URI = `uri://ed-fi.org/ProgressLevelDescriptor#${'x'.repeat(300)}`;

/** Errors of the document checks alone (no descriptor lookup), for values no descriptor could have. */
function shapeErrors(endpoint: string, body: unknown, namespace = 'ed-fi'): ValidationErrors | undefined {
  return failureOf(validatorFor(resource(endpoint, namespace)).validateInsert(body)).validationErrors;
}

describe('acronym member names', () => {
  it('names URI with the ODS casing in a length message', async () => {
    expect(await insertErrors('interventions', { ...minimal('interventions'), uris: [{ uri: 'a:b' }] })).toEqual({
      '$.uris[0].uri': ['URI must be between 5 and 255 characters in length.'],
    });
  });

  it('names CTEProgramServiceDescriptor and CIPCode inside a collection item', async () => {
    const body = { ...minimal('studentCTEProgramAssociations'), cteProgramServices: [{ cipCode: 'x'.repeat(121) }] };
    expect(await insertErrors('studentCTEProgramAssociations', body)).toEqual({
      '$.cteProgramServices[0].cipCode': ['CIPCode must be at most 120 characters in length.'],
      '$.cteProgramServices[0].cteProgramServiceDescriptor': ['CTEProgramServiceDescriptor is required.'],
    });
  });

  it('names IDEAPartDescriptor when it is missing', async () => {
    const { ideaPartDescriptor: _omitted, ...body } = minimal('studentSpecialEducationProgramEligibilityAssociations');
    expect(await insertErrors('studentSpecialEducationProgramEligibilityAssociations', body)).toEqual({
      '$.ideaPartDescriptor': ['IDEAPartDescriptor is required.'],
    });
  });

  it('names ELAProgressLevelDescriptor and the TPDM EPPProgramPathwayDescriptor', () => {
    const neglected = {
      ...minimal('studentNeglectedOrDelinquentProgramAssociations'),
      elaProgressLevelDescriptor: TOO_LONG_URI,
    };
    expect(shapeErrors('studentNeglectedOrDelinquentProgramAssociations', neglected)).toEqual({
      '$.elaProgressLevelDescriptor': ['ELAProgressLevelDescriptor must be at most 306 characters in length.'],
    });
    const candidate = {
      ...minimal('candidateEducatorPreparationProgramAssociations', 'tpdm'),
      eppProgramPathwayDescriptor: TOO_LONG_URI,
    };
    expect(shapeErrors('candidateEducatorPreparationProgramAssociations', candidate, 'tpdm')).toEqual({
      '$.eppProgramPathwayDescriptor': ['EPPProgramPathwayDescriptor must be at most 306 characters in length.'],
    });
  });
});

describe('collection display names', () => {
  it('keeps an acronym in the collection class name (InterventionURIs, StudentCTEProgramAssociationCTEProgramServices)', async () => {
    const uri = { uri: 'https://example.org/a' };
    expect(await insertErrors('interventions', { ...minimal('interventions'), uris: [uri, uri] })).toEqual({
      '$.uris': [duplicateMessage('2nd', 'InterventionURIs')],
    });
    const service = {
      cteProgramServiceDescriptor: 'uri://ed-fi.org/CTEProgramServiceDescriptor#Architecture and Construction',
    };
    const body = { ...minimal('studentCTEProgramAssociations'), cteProgramServices: [service, service] };
    expect(await insertErrors('studentCTEProgramAssociations', body)).toEqual({
      '$.cteProgramServices': [duplicateMessage('2nd', 'StudentCTEProgramAssociationCTEProgramServices')],
    });
  });

  it('pluralises the ODS entity, not the JSON singular (InterventionDiagnoses)', async () => {
    const diagnosis = { diagnosisDescriptor: 'uri://ed-fi.org/DiagnosisDescriptor#Dropout Risk' };
    expect(
      await insertErrors('interventions', { ...minimal('interventions'), diagnoses: [diagnosis, diagnosis] }),
    ).toEqual({
      '$.diagnoses': [duplicateMessage('2nd', 'InterventionDiagnoses')],
    });
  });

  it('names a subclass collection after the superclass entity that owns it', async () => {
    const code = {
      identificationCode: 'A1',
      educationOrganizationIdentificationSystemDescriptor:
        'uri://ed-fi.org/EducationOrganizationIdentificationSystemDescriptor#ACT',
    };
    expect(await insertErrors('schools', { ...minimal('schools'), identificationCodes: [code, code] })).toEqual({
      '$.identificationCodes': [duplicateMessage('2nd', 'EducationOrganizationIdentificationCodes')],
    });
  });

  it('names a nested collection whose ODS table name is shortened by its full entity name', async () => {
    const provider = { staffReference: { staffUniqueId: 'S1' } };
    const service = {
      specialEducationProgramServiceDescriptor:
        'uri://ed-fi.org/SpecialEducationProgramServiceDescriptor#Counseling Services',
      providers: [provider, provider],
    };
    const body = {
      ...minimal('studentSpecialEducationProgramAssociations'),
      specialEducationProgramServices: [service],
    };
    expect(await insertErrors('studentSpecialEducationProgramAssociations', body)).toEqual({
      '$.specialEducationProgramServices[0].providers': [
        duplicateMessage(
          '2nd',
          'StudentSpecialEducationProgramAssociationSpecialEducationProgramServiceServiceProviders',
        ),
      ],
    });
  });
});
