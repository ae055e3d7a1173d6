// The problems of profile usage (contract §9.1 table): media types, assignments, and data policies on writes.
import { ApiProblem } from '../api/index.js';
import type { ContentUsage } from './definition.js';

export type ProfileHeader = 'Accept' | 'Content-Type';

const USAGE_DETAIL = 'The request construction was invalid with respect to usage of a data policy.';

function invalidUsage(message: string, options: { status?: 'notAcceptable' | 'unsupported'; detail?: string } = {}) {
  const name =
    options.status === 'notAcceptable'
      ? 'profileNotAcceptable'
      : options.status === 'unsupported'
        ? 'profileUnsupportedMediaType'
        : 'invalidProfileUsage';
  return new ApiProblem(name, {
    errors: [message],
    raisedBeforeController: true,
    ...(options.detail === undefined ? {} : { detail: options.detail }),
  });
}

export const profileProblems = {
  malformed: (header: ProfileHeader) => invalidUsage(`The format of the profile-based '${header}' header was invalid.`),
  unknownUsage: (header: ProfileHeader) =>
    invalidUsage(`The profile usage segment in the profile-based '${header}' header was not recognized.`),
  writableOnGet: () => invalidUsage('A profile-based content type that is writable cannot be used with GET requests.'),
  readableOnWrite: (method: string) =>
    invalidUsage(`A profile-based content type that is readable cannot be used with ${method} requests.`),
  unknownProfile: (header: ProfileHeader) =>
    invalidUsage(`The profile specified by the content type in the '${header}' header is not supported by this host.`, {
      status: header === 'Accept' ? 'notAcceptable' : 'unsupported',
    }),
  misconfigured: (header: ProfileHeader) =>
    invalidUsage(`The profile specified by the content type in the '${header}' header is configured but invalid.`, {
      status: 'notAcceptable',
    }),
  resourceMismatch: (mediaTypeResource: string, resourceName: string) =>
    invalidUsage(
      `The resource specified by the profile-based content type ('${mediaTypeResource}') does not match the ` +
        `requested resource ('${resourceName}').`,
    ),
  notCovered: (resourceName: string, profileName: string) =>
    new ApiProblem('invalidProfileUsage', {
      detail: `${USAGE_DETAIL} The resource is not contained by the profile used by (or applied to) the request.`,
      errors: [
        `Resource '${resourceName}' is not accessible through the '${profileName}' profile specified by the content type.`,
      ],
    }),
  methodUsage: (resourceName: string, profileName: string, usage: ContentUsage) =>
    new ApiProblem('profileMethodUsage', {
      detail: `${USAGE_DETAIL} An attempt was made to access a resource that is not ${usage} using the profile.`,
      errors: [`Resource class '${resourceName}' is not ${usage} using API profile '${profileName}'.`],
    }),
  assignmentRequired: (contentTypes: readonly string[], usage: ContentUsage) => {
    const action = usage === 'readable' ? 'requesting' : 'creating or updating';
    const listed = contentTypes.map((contentType) => `'${contentType}'`).join(', ');
    const which =
      contentTypes.length === 1
        ? 'the following profile-specific content type is'
        : 'one of the following profile-specific content types is';
    return new ApiProblem('dataPolicyIncorrectUsage', {
      detail: `Based on profile assignments, ${which} required when ${action} this resource: ${listed}`,
    });
  },
  createExcluded: (profileName: string, childClass?: string) =>
    new ApiProblem('dataPolicyEnforced', {
      detail:
        `The Profile definition for '${profileName}' excludes (or does not include) one or more required data ` +
        `elements needed to create ${childClass === undefined ? 'the resource' : `a child item of type '${childClass}' in the resource`}.`,
    }),
  filteredItem: (childClass: string, profileName: string) =>
    new ApiProblem('dataPolicyEnforced', {
      errors: [
        `A supplied '${childClass}' has a descriptor value that does not conform with the filter values defined by ` +
          `profile '${profileName}'.`,
      ],
    }),
};
