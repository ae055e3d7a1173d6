// Profile definitions (contract §9.1) as the ODS profile XML states them: per resource, a read and a write content
// type, each choosing members by `memberSelection`, with nested objects, collections (optionally filtered by a
// descriptor value) and extensions.

export type MemberSelection = 'IncludeOnly' | 'ExcludeOnly' | 'IncludeAll' | 'ExcludeAll';
export type FilterMode = 'IncludeOnly' | 'ExcludeOnly';

export const MEMBER_SELECTIONS: readonly MemberSelection[] = ['IncludeOnly', 'ExcludeOnly', 'IncludeAll', 'ExcludeAll'];
export const FILTER_MODES: readonly FilterMode[] = ['IncludeOnly', 'ExcludeOnly'];

export interface ItemFilter {
  /** The descriptor member of the collection item, e.g. `AddressTypeDescriptor`. */
  readonly propertyName: string;
  readonly filterMode: FilterMode;
  readonly values: readonly string[];
}

/** The members of one level: the content type itself, an embedded object, a collection item or an extension. */
export interface MemberContent {
  readonly memberSelection: MemberSelection;
  readonly properties: readonly string[];
  readonly objects: readonly NamedContent[];
  readonly collections: readonly CollectionContent[];
  readonly extensions: readonly NamedContent[];
}

export interface NamedContent extends MemberContent {
  readonly name: string;
  readonly logicalSchema?: string;
}

export interface CollectionContent extends NamedContent {
  readonly filter?: ItemFilter;
}

export interface ResourceContent {
  readonly name: string;
  readonly logicalSchema?: string;
  readonly read?: MemberContent;
  readonly write?: MemberContent;
}

export interface ProfileDefinition {
  readonly name: string;
  readonly resources: readonly ResourceContent[];
}

export type ContentUsage = 'readable' | 'writable';
