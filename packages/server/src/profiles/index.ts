// Profiles (data policies, contract §9.1): definitions in the ODS profile XML, their administration, and their
// application to data requests and to the OpenAPI metadata.
export { ProfileDefinitionError } from './definition-error.js';
export type { ProfileDefinition, ContentUsage } from './definition.js';
export { parseProfilesXml } from './profile-xml.js';
export { profilesXml } from './profile-xml-writer.js';
export { ProfileCatalog } from './profile-catalog.js';
export { exportProfiles, importProfiles, listProfiles, type ProfileSummary } from './profile-admin.js';
export {
  profiledQuery,
  profiledRead,
  profiledUpdate,
  profiledUpsert,
  type ProfiledServices,
} from './profiled-operations.js';
export { profiledResources, type ProfiledResource } from './profiled-resources.js';
export { profileContentType } from './profile-media-type.js';
export type { CompiledProfile } from './compiled-profile.js';
