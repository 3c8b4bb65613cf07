import type { Operation } from '@blockwire/core';
import { operations as entityOperations } from '@blockwire/entities';
import { operations as priceOperations } from '@blockwire/prices';
import { operations as streamOperations } from '@blockwire/streams';

/** Every REST operation of the contract: what the emulator serves and the OpenAPI document lists. */
export const restOperations: readonly Operation[] = [
  ...priceOperations,
  ...entityOperations,
  ...streamOperations,
];
