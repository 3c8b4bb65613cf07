import { describe, expect, it } from 'vitest';
import { ANVIL_FIRST_DEV_KEY, devWalletOf } from './dev-wallet.js';

const FIRST = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SECOND = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('devWalletOf', () => {
  it('signs for the published dev account and sends to the others', () => {
    expect(devWalletOf([FIRST, SECOND])).toEqual({
      address: FIRST.toLowerCase(),
      privateKey: ANVIL_FIRST_DEV_KEY,
      recipients: [SECOND.toLowerCase()],
    });
  });

  it('gives no wallet when the node does not hold that account, or no one to send to', () => {
    expect(devWalletOf(undefined)).toBeUndefined();
    expect(devWalletOf([SECOND])).toBeUndefined();
    expect(devWalletOf([FIRST])).toBeUndefined();
  });
});
