/** Bitcoin addresses compare as the board does: bech32 ones in any case, the others exactly. */
export const sameBitcoinAddress = (a: string, b: string) =>
  a === b || (a.toLowerCase().startsWith('bc1') && a.toLowerCase() === b.toLowerCase());
