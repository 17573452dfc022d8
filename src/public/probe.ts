// `karmada-cluster-probe/probe`: the probe engine package, re-exported so that the application's subpath keeps its
// names. New tools import `@karmada-cluster-probe/probe` itself: it installs without the application.
export * from '@karmada-cluster-probe/probe';
