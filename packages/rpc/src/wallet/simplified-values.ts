/** The value shapes of the wallet reads' simplified answers (their `simplified` schemas). */
import * as z from 'zod/v4';

/** A whole number as a decimal string (a bigint in JSON). */
export const decimalString = z.string().regex(/^-?\d+$/);
/** An amount in whole units as a decimal string that keeps every digit ("1.5", "0.000001"). */
export const unitsString = z.string().regex(/^-?\d+(?:\.\d+)?$/);
/** Node hex (`0x` and hex digits). */
export const nodeHex = z.string().regex(/^0x[0-9a-fA-F]*$/);
