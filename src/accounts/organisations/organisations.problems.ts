// The problem codes of the organisation endpoints: members, invitations, API keys, usage and audit
// log. Anything of an organisation you are not a member of answers 404, exactly as if it did not
// exist; 403 is only for members whose role does not allow the action.
import { problemType } from '../../platform/http/problems.ts';

export const organisationNotFound = problemType({
  code: 'organisation_not_found',
  status: 404,
  title: 'No such organisation',
  description: 'None of your organisations has this id. An organisation you are not a member of answers the same as one that does not exist.',
});

export const roleNotAllowed = problemType({
  code: 'role_not_allowed',
  status: 403,
  title: 'Your role does not allow this',
  description: 'Your role in the organisation does not allow this action (see the role matrix in the README). `role` is yours; `allowed_roles` lists the roles that may.',
});

export const planUpgradeRequired = problemType({
  code: 'plan_upgrade_required',
  status: 403,
  title: 'The plan does not include this',
  description: 'Team members (invitations) are part of the Pro and Enterprise plans; a Starter organisation has its owner only. `plan` is the organisation\'s plan, `plans` the plans that allow it. An owner can change the plan.',
});

export const memberNotFound = problemType({
  code: 'member_not_found',
  status: 404,
  title: 'No such member',
  description: 'The organisation has no member with this user id.',
});

export const alreadyMember = problemType({
  code: 'already_member',
  status: 409,
  title: 'Already a member',
  description: 'The address (or the account) is already a member of the organisation; change its role instead.',
});

export const lastOwner = problemType({
  code: 'last_owner',
  status: 409,
  title: 'The organisation needs an owner',
  description: 'An organisation always keeps at least one owner: make another member an owner before removing or demoting the last one.',
});

export const invitationNotFound = problemType({
  code: 'invitation_not_found',
  status: 404,
  title: 'No such invitation',
  description: 'The organisation has no open invitation with this id (it may have been accepted, revoked or replaced, or have expired).',
});

export const invitationLinkInvalid = problemType({
  code: 'invitation_link_invalid',
  status: 400,
  title: 'The invitation link does not work',
  description: 'The link is `unknown` (mistyped), `expired` (invitations work for 7 days), `used` (accepted already) or `revoked` (withdrawn, or replaced by a newer invitation); `reason` says which. Ask for a new invitation.',
});

export const invitationForAnotherAddress = problemType({
  code: 'invitation_for_another_address',
  status: 403,
  title: 'The invitation is for another address',
  description: 'An invitation can be accepted only by the account with the address it was sent to. Sign in with that address (or sign up with it and verify it), then accept.',
});

export const tooManyInvitations = problemType({
  code: 'too_many_invitations',
  status: 429,
  title: 'Too many invitations',
  description: 'An organisation may send 50 invitations a day. Retry after `Retry-After` seconds.',
});

export const keyNotFound = problemType({
  code: 'key_not_found',
  status: 404,
  title: 'No such API key',
  description: 'The organisation has no API key with this id.',
});

export const keyNotActive = problemType({
  code: 'key_not_active',
  status: 409,
  title: 'The key cannot be rotated',
  description: 'Only an active key can be rotated, not one that is revoked, expired or already rotated; `key_status` gives its status.',
});
