// What the service may use of the intelligence engine: the feature.
export { intelligence } from './feature.ts';
