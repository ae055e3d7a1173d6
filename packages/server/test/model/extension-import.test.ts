// An extension imported at run time (src/model/import, what `extensions add <folder>` runs) against the shipped model:
// the Sample folder alone (no ODS generator files: its ApiSchema's authorization subjects and GET-by-example
// parameters) gives exactly the Sample part import-model committed; an extension of one's own merges into the
// process's model and its registries; models that do not merge are refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ExtensionModelError,
  getModelRegistry,
  knownExtensions,
  loadModelData,
  registerExtensionModels,
  servingExtensions,
  type ExtensionModel,
} from '../../src/model/index.js';
import { importExtensionFolder } from '../../src/model/import/index.js';
import { withExtensionModel } from '../../src/model/extension-models.js';
import { writeGardenExtension } from '../support/garden-extension.js';
import { EDFI_SOURCE_DIR, itWithEdfiSource } from '../support/edfi-source.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-extension-import-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('importing an extension folder at run time', () => {
  itWithEdfiSource("rebuilds Sample's committed part of the model from the Sample folder alone", () => {
    const committed = loadModelData();
    const withoutSample = servingExtensions(committed, ['homograph']);
    const base = {
      ...withoutSample,
      claims: {
        ...withoutSample.claims,
        hierarchy: withoutSample.claims.hierarchy.filter((node) => !node.name.endsWith('/domains/sample')),
      },
    };
    const sample = importExtensionFolder(path.join(EDFI_SOURCE_DIR, 'extensions', 'sample'), base);
    expect(sample.project).toEqual({ namespace: 'sample', name: 'Sample', version: '1.0.0', informationalVersion: '' });
    const merged = withExtensionModel(base, sample);
    expect(merged.claims).toEqual(committed.claims);
    expect(merged.resources).toEqual(committed.resources);
  });

  it('merges an extension of its own into the process model, which registries then serve', () => {
    const garden = importExtensionFolder(writeGardenExtension(path.join(folder, 'garden')));
    expect(knownExtensions()).toEqual(['homograph', 'sample']);
    registerExtensionModels([garden]);
    registerExtensionModels([garden]);
    expect(knownExtensions()).toEqual(['garden', 'homograph', 'sample']);
    const serving = getModelRegistry(['garden']);
    expect(serving.getResource('garden', 'plots')?.identityPaths).toEqual(['$.plotCode', '$.schoolReference.schoolId']);
    expect(serving.getResource('ed-fi', 'schools')?.extensions).toEqual(['garden', 'tpdm']);
    expect(serving.addedExtensions).toEqual([garden]);
    const notServing = getModelRegistry();
    expect(notServing.getResource('garden', 'plots')).toBeUndefined();
    expect(notServing.getResource('ed-fi', 'schools')?.shape.properties?._ext?.properties?.garden).toBeUndefined();
    // The default claim rule grants it as TPDM is granted, in the claims every registry authorizes with.
    expect(notServing.claims.hierarchy.map((node) => node.name)).toContain(
      'http://ed-fi.org/identity/claims/domains/garden',
    );
  });

  it('refuses a model that does not merge: another one of the same name, or of another format', () => {
    const other = importExtensionFolder(writeGardenExtension(path.join(folder, 'other-garden')), loadModelData());
    const changed: ExtensionModel = { ...other, project: { ...other.project, version: '2.0.0' } };
    expect(() => registerExtensionModels([changed])).toThrow(ExtensionModelError);
    expect(() => registerExtensionModels([changed])).toThrow('Two stores added different extensions named garden');
    const older: ExtensionModel = { ...other, formatVersion: 0, project: { ...other.project, namespace: 'old' } };
    expect(() => registerExtensionModels([older])).toThrow(/add it again from its folder/);
    const misplaced: ExtensionModel = {
      ...other,
      project: { ...other.project, namespace: 'misplaced' },
      resources: [],
      additions: other.additions.map((addition) => ({ ...addition, endpoint: 'playgrounds' })),
    };
    expect(() => registerExtensionModels([misplaced])).toThrow(
      'misplaced extends unknown resources: ed-fi/playgrounds',
    );
    expect(knownExtensions()).toEqual(['garden', 'homograph', 'sample']);
  });
});
