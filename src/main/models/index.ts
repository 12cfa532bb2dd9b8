export { loadModelProfiles, type LoadedProfiles, type ModelProfileDirs } from './load-profiles';
export { toProfileInfo } from './profile-info';
export { createFileKeyStore, hasApiKey, keyFilePath, resolveApiKey, storedKeyValues, withBroughtKeys, type KeyCodec, type KeyStore } from './keys';
export { ProfileFields, type ModelProfile } from './profile-schema';
export { planReasoning, reasoningModes, type ReasoningPlan } from './reasoning';
export { CUSTOM_PROVIDER_MARKER, writeCustomProvider, type WrittenProvider } from './custom-provider';
export type { Usability, UsabilityCheck } from './usability';
export { loadOperatorModels, offerOperatorModels, operatorKey, operatorModels, type OperatorModels } from './operator-models';
