// What a change of plan changes, line by line, for the dialog that asks an owner to confirm it:
// the rate limits of production and development keys, the live AIS stream, and the team.
import { developmentRate, PLANS, type PlanName } from '../../../../common/plans.ts';
import { formatNumber } from '../../app/format.ts';

export interface PlanChangeLine {
  what: string;
  before: string;
  after: string;
}

export function perMinute(value: number | null): string {
  return value === null ? 'no cap' : `${formatNumber(value)} a minute`;
}

function streams(name: PlanName): string {
  const plan = PLANS[name];
  if (!plan.streams) return 'none';
  return plan.maxConcurrentStreams === null ? 'no cap' : `${plan.maxConcurrentStreams} at once`;
}

const team = (name: PlanName) => (name === 'starter' ? 'just you (members stay; no new invitations)' : 'members with roles');

/** The lines that differ between two plans, in the order the plan table shows them. */
export function planChanges(from: PlanName, to: PlanName): PlanChangeLine[] {
  const lines: PlanChangeLine[] = [
    { what: 'Production keys (together)', before: perMinute(PLANS[from].requestsPerWindow), after: perMinute(PLANS[to].requestsPerWindow) },
    { what: 'Each development key', before: perMinute(developmentRate(PLANS[from])), after: perMinute(developmentRate(PLANS[to])) },
    { what: 'Live AIS streams', before: streams(from), after: streams(to) },
    { what: 'Team', before: team(from), after: team(to) },
  ];
  return lines.filter((line) => line.before !== line.after);
}

/** Whether the change takes something away: the dialog then asks with a warning. */
export function isDowngrade(from: PlanName, to: PlanName): boolean {
  const order: PlanName[] = ['starter', 'pro', 'enterprise'];
  return order.indexOf(to) < order.indexOf(from);
}
