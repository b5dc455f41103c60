// The shapes of the notifications routes: a member's choices per severity, a change to them, and
// the answer of an unsubscribe link.
import { Type } from 'typebox';
import { Shared } from '../platform/http/schema.ts';
import { SEVERITIES } from '../events/index.ts';
import { DEFAULT_PREFERENCES, DELIVERIES } from './preferences.ts';

const Delivery = (severity: keyof typeof DEFAULT_PREFERENCES) => Type.Enum([...DELIVERIES], {
  description: `How ${severity} events reach you by e-mail: \`immediately\` (a mail per change), \`hourly\` (one digest an hour) or \`off\`. Default \`${DEFAULT_PREFERENCES[severity]}\`.`,
});

const DELIVERY_FIELDS = { info: Delivery('info'), warning: Delivery('warning'), critical: Delivery('critical') };

export const NotificationPreferencesSchema = Shared('NotificationPreferences', Type.Object({
  organisation_id: Type.String(),
  ...DELIVERY_FIELDS,
}, { description: 'How events of the organisation reach you by e-mail, per severity' }));

export const NotificationPreferencesChange = Type.Object({
  info: Type.Optional(DELIVERY_FIELDS.info),
  warning: Type.Optional(DELIVERY_FIELDS.warning),
  critical: Type.Optional(DELIVERY_FIELDS.critical),
}, { additionalProperties: false, minProperties: 1 });

export const UnsubscribeQuery = Type.Object({
  token: Type.String({ maxLength: 512, description: 'The token of the link in the mail' }),
});

export const UnsubscribedSchema = Shared('Unsubscribed', Type.Object({
  organisation_id: Type.String(),
  turned_off: Type.Array(Type.Enum([...SEVERITIES]), { description: 'The severities now `off`' }),
  preferences: NotificationPreferencesSchema,
}));
