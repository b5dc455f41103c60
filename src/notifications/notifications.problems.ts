// The problem codes of the notifications routes.
import { problemType } from '../platform/http/problems.ts';

export const unsubscribeLinkInvalid = problemType({
  code: 'unsubscribe_link_invalid',
  status: 400,
  title: 'This unsubscribe link is not valid',
  description: 'The token of an unsubscribe link was not made by this service, or was changed or cut short. Use the link from the mail as it came, or change your notification settings after signing in.',
});
