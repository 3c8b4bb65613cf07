import type { Operation } from '@blockwire/core';
import { operations as entityOperations } from '@blockwire/entities/operations';
import { operations as priceOperations } from '@blockwire/prices/operations';
import { operations as streamOperations } from '@blockwire/streams/operations';

/** Every REST operation of the contract: what the emulator serves and the OpenAPI document lists. */
export const restOperations: readonly Operation[] = [
  ...priceOperations,
  ...entityOperations,
  ...streamOperations,
];
