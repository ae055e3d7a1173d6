// Default descriptor values (DS 5.2), facts only: descriptions are dropped, shortDescription kept.
import type { DescriptorValue, DescriptorsFile } from '../../src/model/types.js';
import { MODEL_FORMAT_VERSION } from '../../src/model/types.js';
import { compareText } from '../../src/model/import/ordering.js';
import type { DescriptorValuesSourceFile } from './source-types.js';

export function buildDescriptorValues(source: DescriptorValuesSourceFile): DescriptorsFile {
  const values: Record<string, DescriptorValue[]> = {};
  for (const name of Object.keys(source.descriptors).sort(compareText)) {
    values[name] = (source.descriptors[name] ?? [])
      .map((value) => ({
        namespace: value.namespace,
        codeValue: value.codeValue,
        shortDescription: value.shortDescription,
        ...(value.effectiveBeginDate ? { effectiveBeginDate: value.effectiveBeginDate } : {}),
        ...(value.effectiveEndDate ? { effectiveEndDate: value.effectiveEndDate } : {}),
      }))
      .sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.codeValue, b.codeValue));
  }
  return { formatVersion: MODEL_FORMAT_VERSION, values };
}
