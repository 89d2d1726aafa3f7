/** The typed HTTP client of the decision service (no server dependencies). */

export type {
  ArmInput,
  BatchFailure,
  BatchResult,
  BatchSuccess,
  CreateModelRequest,
  CreateModelResponse,
  DecisionLogLine,
  ErrorBody,
  LedgerEntryView,
  LedgerResponse,
  ModelSettingsView,
  ModelStatus,
  PrivacyView,
  RankBatchRequest,
  RankBatchResponse,
  RankRequest,
  RankResponse,
  RewardBatchRequest,
  RewardBatchResponse,
  RewardRequest,
  RewardResponse,
} from '../service/apiTypes.js';
export { AdaPrivateClient, type AdaPrivateClientOptions } from './AdaPrivateClient.js';
export { AdaPrivateClientError } from './AdaPrivateClientError.js';
