// Which profile applies to a data request (contract §9.1): the one its media type names, checked against the method,
// the resource and the client's assignments; or, with plain JSON, the one profile assigned to the client's
// application that covers the resource (several: 403, the client must choose).
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../api/index.js';
import type { ResourceModel } from '../model/index.js';
import type { CompiledProfile } from './compiled-profile.js';
import type { ContentUsage } from './definition.js';
import type { LevelPolicy } from './member-policy.js';
import type { ProfileCatalog } from './profile-catalog.js';
import { profileContentType, profileMediaTypeOf } from './profile-media-type.js';
import { profileProblems, type ProfileHeader } from './profile-problems.js';

export interface AppliedProfile {
  readonly name: string;
  readonly policy: LevelPolicy;
  readonly contentType: string;
}

export interface ProfiledRequest {
  readonly resource: ResourceModel;
  readonly caller: Caller;
  readonly headers: IncomingHttpHeaders;
}

export type DataMethod = 'GET' | 'POST' | 'PUT';

function applied(profile: CompiledProfile, resource: ResourceModel, usage: ContentUsage): AppliedProfile {
  const policies = profile.resources.get(resource);
  if (policies === undefined) throw profileProblems.notCovered(resource.resourceName, profile.name);
  const policy = policies[usage];
  if (policy === undefined) throw profileProblems.methodUsage(resource.resourceName, profile.name, usage);
  return { name: profile.name, policy, contentType: profileContentType(resource.resourceName, profile.name, usage) };
}

/** The client's assigned profiles that cover the resource. */
async function assignedCovering(catalog: ProfileCatalog, request: ProfiledRequest): Promise<CompiledProfile[]> {
  const profiles = await Promise.all(request.caller.profileNames.map((name) => catalog.find(name)));
  return profiles.filter(
    (profile): profile is CompiledProfile => profile !== undefined && profile.resources.has(request.resource),
  );
}

export async function selectProfile(
  catalog: ProfileCatalog,
  request: ProfiledRequest,
  method: DataMethod,
): Promise<AppliedProfile | undefined> {
  const header: ProfileHeader = method === 'GET' ? 'Accept' : 'Content-Type';
  const usage: ContentUsage = method === 'GET' ? 'readable' : 'writable';
  const named = profileMediaTypeOf(request.headers[header.toLowerCase()] as string | undefined, header);
  const { resource } = request;
  if (named !== undefined) {
    if (named.usage !== usage)
      throw usage === 'readable' ? profileProblems.writableOnGet() : profileProblems.readableOnWrite(method);
    const profile = await catalog.find(named.profile);
    if (profile === undefined) throw profileProblems.unknownProfile(header);
    if (profile.problems.length > 0) throw profileProblems.misconfigured(header);
    if (named.resource !== resource.resourceName.toLowerCase())
      throw profileProblems.resourceMismatch(named.resource, resource.resourceName);
    if (!profile.resources.has(resource)) throw profileProblems.notCovered(resource.resourceName, profile.name);
    const assigned = await assignedCovering(catalog, request);
    if (assigned.length > 0 && !assigned.includes(profile)) throw assignmentRequired(assigned, resource, usage);
    return applied(profile, resource, usage);
  }
  if (request.caller.profileNames.length === 0) return undefined;
  const assigned = await assignedCovering(catalog, request);
  if (assigned.length === 0) return undefined;
  if (assigned.length > 1) throw assignmentRequired(assigned, resource, usage);
  if (assigned[0]!.problems.length > 0) throw profileProblems.misconfigured(header);
  return applied(assigned[0]!, resource, usage);
}

function assignmentRequired(assigned: readonly CompiledProfile[], resource: ResourceModel, usage: ContentUsage) {
  const contentTypes = assigned.map((profile) => profileContentType(resource.resourceName, profile.name, usage)).sort();
  return profileProblems.assignmentRequired(contentTypes, usage);
}
