// `karmada-cluster-probe/schema` (and `.`): the schema package, re-exported so that the application's subpath keeps
// its names. New tools import `@karmada-cluster-probe/schema` itself: it installs without the application.
export * from '@karmada-cluster-probe/schema';
