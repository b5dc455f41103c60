// `lamis org`: organisations, their plans and what operators grant them beyond their plan.
//
//   lamis org create --name NAME --plan PLAN      lamis org set-plan ORG PLAN
//   lamis org set-ais-upload ORG shared|off       lamis org set-slot-share ORG FRACTION|default
import { fraction } from '../../platform/config/index.ts';
import { UsageError, type Command } from '../../platform/command.ts';
import { PLANS } from '../../../common/plans.ts';
import { asUsage, fail, required, withStorage } from '../command-support.ts';
import { isAisUpload, OrganisationGrants } from './grants.ts';
import { isPlanName, Organisations } from './organisations.ts';

const PLAN_NAMES = Object.keys(PLANS).join('|');

/** A fraction from 0 to 1, or `default` (null); undefined for anything else. */
function slotShare(text: string): number | null | undefined {
  if (text === 'default') return null;
  const parsed = fraction(text);
  return 'error' in parsed ? undefined : parsed.value;
}

const shareText = (share: number | null) => (share === null ? 'the instance\'s share' : String(share));

const ORG_SUBCOMMANDS = 'create, set-plan, set-ais-upload or set-slot-share';

export const orgCommand: Command = {
  args: `create --name NAME --plan ${PLAN_NAMES} | set-plan ORG ${PLAN_NAMES} | set-ais-upload ORG shared|off | set-slot-share ORG FRACTION|default`,
  usesSettings: true,
  options: {
    name: { type: 'string', description: 'create: the organisation name' },
    plan: { type: 'string', description: `create: the plan, ${PLAN_NAMES}` },
    json: { type: 'boolean', description: 'Print the organisation as one JSON object' },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action === 'create') {
      if (rest.length > 0) throw new UsageError('create takes no arguments, only --name and --plan');
      const name = required(values, 'name');
      const plan = required(values, 'plan');
      if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES} (got "${plan}")`);
      const org = await withStorage(config, (database) => asUsage(new Organisations(database).create({ name, plan, actor: 'operator' })));
      console.log(values.json ? JSON.stringify(org) : `Created organisation ${org.id} "${org.name}" on the ${PLANS[org.plan].title} plan.`);
      return 0;
    }
    if (action === 'set-plan') {
      if (rest.length !== 2) throw new UsageError('set-plan takes the organisation id and the plan');
      const [id, plan] = rest as [string, string];
      if (!isPlanName(plan)) throw new UsageError(`the plan must be one of ${PLAN_NAMES} (got "${plan}")`);
      const result = await withStorage(config, (database) => new Organisations(database).setPlan(id, plan, 'operator'));
      if (result.status === 'not_found') return fail('org', `no organisation "${id}"`);
      const { organisation } = result;
      const previous = result.status === 'changed' ? result.previous : organisation.plan;
      if (values.json) {
        console.log(JSON.stringify({ ...organisation, previous_plan: previous, changed: result.status === 'changed' }));
      } else {
        console.log(result.status === 'changed'
          ? `${organisation.id} "${organisation.name}": plan changed from ${PLANS[previous].title} to ${PLANS[organisation.plan].title}.`
          : `${organisation.id} "${organisation.name}" is already on the ${PLANS[organisation.plan].title} plan.`);
      }
      return 0;
    }
    if (action === 'set-ais-upload') {
      if (rest.length !== 2) throw new UsageError('set-ais-upload takes the organisation id and shared or off');
      const [id, value] = rest as [string, string];
      if (!isAisUpload(value)) throw new UsageError(`AIS uploads are shared or off (got "${value}")`);
      const result = await withStorage(config, (database) => new OrganisationGrants(database).setAisUpload(id, value, 'operator'));
      if (result.status === 'not_found') return fail('org', `no organisation "${id}"`);
      const { organisation, previous } = result;
      if (values.json) {
        console.log(JSON.stringify({ id, name: organisation.name, ais_upload: value, previous, changed: result.status === 'changed' }));
      } else if (result.status === 'unchanged') {
        console.log(`${id} "${organisation.name}": AIS uploads are already ${value}.`);
      } else {
        console.log(value === 'shared'
          ? `${id} "${organisation.name}": AIS uploads shared (were off); what its production keys upload, every organisation sees.`
          : `${id} "${organisation.name}": AIS uploads off (were shared); its keys may not upload.`);
      }
      return 0;
    }
    if (action === 'set-slot-share') {
      if (rest.length !== 2) throw new UsageError('set-slot-share takes the organisation id and a share (a fraction from 0 to 1, or default)');
      const [id, text] = rest as [string, string];
      const share = slotShare(text);
      if (share === undefined) throw new UsageError(`the share is a fraction from 0 to 1, or default (got "${text}")`);
      const result = await withStorage(config, (database) => new OrganisationGrants(database).setSlotShare(id, share, 'operator'));
      if (result.status === 'not_found') return fail('org', `no organisation "${id}"`);
      const { organisation, previous } = result;
      if (values.json) {
        console.log(JSON.stringify({ id, name: organisation.name, slot_share: share, previous, changed: result.status === 'changed' }));
      } else if (result.status === 'unchanged') {
        console.log(`${id} "${organisation.name}": slot share is already ${shareText(share)}.`);
      } else {
        console.log(share === null
          ? `${id} "${organisation.name}": slot share back to the instance's (LAMIS_SLOT_FAIR_SHARE; was ${shareText(previous)}).`
          : `${id} "${organisation.name}": may hold ${share} of each airport hour's arrival slots (was ${shareText(previous)}).`);
      }
      return 0;
    }
    throw new UsageError(action === undefined ? `give a subcommand: ${ORG_SUBCOMMANDS}` : `unknown subcommand "${action}": use ${ORG_SUBCOMMANDS}`);
  },
};
