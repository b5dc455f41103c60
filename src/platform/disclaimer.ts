/** Said in the API description, the README and every intelligence response. */
export const DISCLAIMER =
  'LAMIS intelligence supports operational decisions; it must not be the sole source for ' +
  'safety-critical decisions. Check official sources (AIP, NOTAM office, ATC, port authority) before acting.';
