// The public face of the schema library (`karmada-cluster-probe/schema`): validation, defaulting, migration,
// field errors, the JSON Schemas and the generated types. Pure: importing it does no I/O.
export {
  isCluster,
  isClusterKind,
  validateCluster,
  validateProbe,
  type InvalidResult,
  type ValidateOptions,
  type ValidationResult,
  type ValidResult,
} from './validate.js';
export { defaultCluster, defaultProbe, type DefaultOptions } from './defaults.js';
export { migrateCluster, type MigrateOptions, type MigrationResult, type Migrated } from './migrate.js';
export { diffPatch, type JsonPatchOperation } from './diff.js';
export {
  FieldPath,
  compareFieldPaths,
  fieldErrors,
  sortFieldErrors,
  errorBody,
  formatInvalid,
  type FieldError,
  type FieldErrorType,
} from './field-error.js';
export { convertLegacyAnnotation, parseAnnotationJson } from './legacy-annotation.js';
export { parseApiEndpoint } from './cluster-rules.js';
export {
  DEFAULT_DENY_CIDRS,
  parseDenyList,
  parseCidr,
  CidrError,
  checkAddress,
  denyListFor,
  type AddressVerdict,
  type DenyList,
} from './address-ranges.js';
export { parseQuantity } from './quantity.js';
export {
  DEFAULT_FIELD_VALIDATION,
  FIELD_VALIDATIONS,
  MAX_UNKNOWN_FIELD_PATH,
  MAX_UNKNOWN_FIELDS,
  strictDecodingError,
  unknownFieldMessage,
  unknownFields,
  type FieldValidation,
} from './unknown-fields.js';
// The names and the handler list, as packages/schema/src/schema/constants.ts lists them (their home is src/api).
export * from './constants.js';
export {
  clusterSchema,
  livenessProbeSchema,
  healthCheckerAnnotationSchema,
  dereference,
  type SchemaNode,
} from './schemas.js';
export { rawValidators } from './ajv-validators.js';
export type * from '../api/generated/types.js';
