// Loading a kubeconfig: the one thing @kubernetes/client-node does for this layer (files, contexts, in-cluster
// ServiceAccount, exec and auth plugins); client.ts turns it into request options.
import { KubeConfig } from '@kubernetes/client-node';

/** Loads a kubeconfig from a path, or the default chain (KUBECONFIG, ~/.kube/config, in-cluster). */
export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path !== undefined && path !== '') kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}
