// The integer width at a path of a resource of the model an extension extends (a reference into it takes the width of
// the identity member it matches); an abstract resource's is its first subclass's, under the subclass's own name.
import { nodeAtPath } from '../json-path.js';
import type { ResourcesFile } from '../types.js';
import type { OutsideWidth } from './integer-widths.js';

export function modelWidths(model: ResourcesFile): OutsideWidth {
  const resourceNamed = (namespace: string, resourceName: string) =>
    model.resources.find((resource) => resource.namespace === namespace && resource.resourceName === resourceName);
  return (namespace, resourceName, path) => {
    const abstract = model.abstractResources.find((candidate) => candidate.resourceName === resourceName);
    const first = abstract?.subclasses[0];
    const resource = first
      ? model.resources.find(
          (candidate) => candidate.namespace === first.namespace && candidate.endpoint === first.endpoint,
        )
      : resourceNamed(namespace, resourceName);
    const rename = resource?.superclass?.identityRename;
    const ownPath = abstract && rename?.to === path ? rename.from : path;
    const format = resource && nodeAtPath(resource.shape, ownPath)?.format;
    return format === 'int32' || format === 'int64' ? format : undefined;
  };
}
