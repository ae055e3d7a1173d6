// Types of `model/composites.json`: the composite categories (contract §9.2) as their definition files state them,
// names as the ODS writes them (PascalCase entity and property names); the registry resolves them against the model.

/** Version of the composites format; bumped whenever these types change incompatibly. */
export const COMPOSITES_FORMAT_VERSION = 1;

/** One member of a composite body, in definition order. */
export type CompositeMember =
  | CompositeProperty
  | CompositeCollection
  | CompositeLinkedCollection
  | CompositeReferencedResource
  | CompositeEmbeddedObject;

export interface CompositeProperty {
  readonly kind: 'property';
  /** The ODS property name, e.g. `NameOfInstitution`; `Id` is the document's resource id. */
  readonly name: string;
  /** The JSON name in the composite body; default the camel-cased name. */
  readonly displayName?: string;
}

interface CompositeMemberGroup {
  readonly name: string;
  readonly displayName?: string;
  readonly members: readonly CompositeMember[];
}

/** An array of the resource's own collection, e.g. `EducationOrganizationAddresses`. */
export interface CompositeCollection extends CompositeMemberGroup {
  readonly kind: 'collection';
}

/** An array of the documents of another resource that reference this one, e.g. `StudentSchoolAssociations`. */
export interface CompositeLinkedCollection extends CompositeMemberGroup {
  readonly kind: 'linkedCollection';
}

/** The document a reference points to, as a nested object or (`flatten`) merged into its parent. */
export interface CompositeReferencedResource extends CompositeMemberGroup {
  readonly kind: 'referencedResource';
  readonly flatten: boolean;
  /** Adds the referenced document's concrete resource name (for references to an abstract resource). */
  readonly includeResourceSubtype: boolean;
}

/** An inline object of the resource, e.g. `StudentAcademicRecordClassRanking`. */
export interface CompositeEmbeddedObject extends CompositeMemberGroup {
  readonly kind: 'embeddedObject';
  readonly flatten: boolean;
}

export interface CompositeParameter {
  /** `School.Id` for a route segment `{School.Id}`, otherwise a query parameter such as `SchoolId`. */
  readonly name: string;
  /** Steps from the base resource separated by `->` or `.`, ending with a property, e.g. `Sections->Staff.Id`. */
  readonly filterPath: string;
  readonly queryable?: boolean;
  readonly description?: string;
}

export interface CompositeDefinition {
  /** PascalCase singular, e.g. `Student`; the route segment is its plural camel case (`students`). */
  readonly name: string;
  readonly baseResource: string;
  readonly parameters: readonly CompositeParameter[];
  readonly members: readonly CompositeMember[];
}

export interface CompositeRoute {
  /** e.g. `/schools/{School.Id}/{compositeName}`. */
  readonly relativeRouteTemplate: string;
  readonly compositeNameConstraint?: string;
}

export interface CompositeCategory {
  /** The organization code of the URL, e.g. `ed-fi`. */
  readonly organization: string;
  /** The category of the URL, e.g. `enrollment`. */
  readonly name: string;
  readonly displayName: string;
  readonly routes: readonly CompositeRoute[];
  readonly composites: readonly CompositeDefinition[];
}

/** `model/composites.json`. */
export interface CompositesFile {
  readonly formatVersion: number;
  readonly categories: readonly CompositeCategory[];
}
