// The schema library's face of the project's names (API group, annotations, probe locations) and of the probe's
// handler list: all live in src/api (the handlers generated from schemas/); re-exported here so that
// `karmada-cluster-probe/schema` keeps offering them. Pure data.
export {
  API_VERSION,
  GROUP,
  VERSION,
  KIND,
  PLURAL,
  LEGACY_ANNOTATION,
  PROBE_ANNOTATION,
  UNHEALTHY_TAINT_KEY,
  PROBE_LOCATIONS,
  LEGACY_TIMEOUT_SECONDS,
  HANDLERS,
  type ProbeLocation,
  type HandlerName,
} from '../api/index.js';
