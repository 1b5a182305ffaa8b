// Rounding to the cent: the one rounding of every amount, rate and score the simulator answers with two
// decimals (landed-cost breakdowns, audit findings, SIMA exposures and rates, classification confidences).
//
// Half away from zero on the number as written. A product such as 1.005 x 100 is 100.49999999999999 in
// binary, so Math.round(n * 100) / 100 rounds 1.005 down to 1.00 and 0.35 x 0.1 (0.034999...) to 0.03, and
// it rounds every negative half towards zero (-2.675 -> -2.67). Cutting the product to six decimals first
// drops that binary noise, and rounding the magnitude treats a credit as its debit: 1.01, 0.04, -2.68.

/** Whole cents of an amount, half away from zero (toFixed first, so 44.422 or 1.005 round as written). */
export function cents(amount: number): number {
  const hundredths = Number((amount * 100).toFixed(6));
  // `+ 0` answers 0, never -0, for a negative amount under half a cent.
  return Math.sign(hundredths) * Math.round(Math.abs(hundredths)) + 0;
}

/** An amount rounded to the cent (two decimals). */
export const round2 = (amount: number): number => cents(amount) / 100;

/** The sum of amounts, each to the cent, added in whole cents: the parts always add up to the total. */
export const sum2 = (amounts: readonly number[]): number => amounts.reduce((total, amount) => total + cents(amount), 0) / 100;
