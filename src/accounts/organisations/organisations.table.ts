// The rows of `organisations` (0006_accounts). Times in the tables of accounts are ISO 8601 UTC
// text with milliseconds, so text order is time order on both back ends.
import type { PlanName } from '../../../common/plans.ts';

export interface OrganisationRow {
  /** `org_` and 16 base62 characters. */
  id: string;
  name: string;
  plan: PlanName;
  created_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    organisations: OrganisationRow;
  }
}
