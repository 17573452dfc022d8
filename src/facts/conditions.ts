// The status condition this application writes on a Cluster, in one place: the reconciler writes it, the manifests'
// ClusterTaintPolicy and the ClusterProfile producer read it. Pure data.

/** The reconciler's verdict on a Cluster (True: the probe passes; False: it fails; Unknown: no verdict, or held). */
export const HEALTHY_CONDITION = 'Healthy';
