// Public surface of composites (contract §9.2): the definition format, its compilation against the model, and the
// read operations over the store.
export type * from './definition.js';
export { COMPOSITES_FORMAT_VERSION } from './definition.js';
export {
  compileCompositeCategories,
  type CompiledCategory,
  type CompiledComposite,
  type ParentRoute,
} from './compile.js';
export { compositeCategoriesOf, readCompositesFile } from './load-composites.js';
export type { MemberPlan } from './member-plan.js';
export {
  readCompositeItem,
  readCompositeList,
  servesParent,
  DEFAULT_COMPOSITE_LIMIT,
  type CompositeParent,
  type CompositeRequest,
} from './read-composites.js';
