// Amounts to the cent. Each part of a breakdown is rounded once, and the total is the sum of the rounded
// parts in whole cents, so the parts always add up to the total exactly (no float drift).

/** Whole cents of an amount, half away from zero (toFixed first, so 44.422 or 1.005 round as written). */
export const cents = (amount: number): number => Math.round(Number((amount * 100).toFixed(6)));

export const round2 = (amount: number): number => cents(amount) / 100;

/** The sum of already-rounded amounts, in cents then back. */
export const sum2 = (amounts: readonly number[]): number => amounts.reduce((total, amount) => total + cents(amount), 0) / 100;
