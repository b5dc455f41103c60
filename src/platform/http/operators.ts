// Routes that change what every organisation sees (instance-wide data, settings of the instance)
// are for the operators of the instance: keys from its configuration. Organisation keys, of any
// environment, are refused before the body is even validated: it is not theirs to change.
import type { FastifyRequest } from 'fastify';
import { ProblemError, problemType } from './problems.ts';

export const forbidden = problemType({
  code: 'forbidden',
  status: 403,
  title: 'Not allowed for this API key',
  description: 'The route is for operators of this LAMIS instance (keys from its configuration): what it changes, every organisation sees.',
});

/** A `preValidation` hook refusing every key but an operator's; `detail` says why in the answer. */
export function operatorsOnly(detail: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.principal?.admin) throw new ProblemError(forbidden, detail);
  };
}
