// The schema library's face of the project's names (API group, annotations, probe locations) and of the probe's
// handler list: all live in src/api (the handlers generated from schemas/); re-exported here so that
// `karmada-cluster-probe/schema` keeps offering them. Pure data.
export * from '../api/constants.js';
export { HANDLERS, type HandlerName } from '../api/generated/probe-facts.js';
