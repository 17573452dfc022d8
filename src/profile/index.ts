// The ClusterProfile producer (Cluster Inventory API, docs/cluster-profile.md): the controller, what a profile says,
// and the names.
export * from './profile-facts.js';
export * from './desired-profile.js';
export {
  ProfileController,
  type ProfileControllerOptions,
  type ProfileWriteKind,
  type ProfileWriteOutcome,
} from './profile-controller.js';
