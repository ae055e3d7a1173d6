// NamespaceBased authorization as the ODS applies it: on the entity's `Namespace` property, identifying or not. The
// imported securable elements list identifying namespaces only, so a resource whose namespace is an ordinary property
// (educationContents, credentials, learningStandards) gets it here; without it the strategy would restrict nothing.
import type { ResourceModel } from './types.js';

const OWN_NAMESPACE = '$.namespace';

export function withOwnNamespaceSecurable(resource: ResourceModel): ResourceModel {
  const { securableElements: elements, shape } = resource;
  if (elements.namespaces.length > 0 || shape.properties?.namespace?.type !== 'string') return resource;
  return { ...resource, securableElements: { ...elements, namespaces: [OWN_NAMESPACE] } };
}
